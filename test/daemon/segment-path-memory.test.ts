import { describe, expect, it } from 'vitest';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { SegmentPath } from '../../src/path/segment-path.js';
import { Conversation } from '../../src/path/conversation.js';
import type { Speech } from '../../src/speech/create.js';
import type { SttStack } from '../../src/stt/create.js';
import type { SttEngine } from '../../src/stt/engine.js';
import type { SegmentTranscript } from '../../src/stt/events.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import type { Transcript } from '../../src/stt/types.js';
import type { Segment } from '../../src/vad/segment.js';
import { Store } from '../../src/store/store.js';

/**
 * hark listens all day: what a handled segment leaves behind must go with it. The stop deadline
 * (speech-to-text's time at shutdown) is raced by every transcription; a wait that finished must not
 * stay on it — it did (issue 31), keeping every transcript of the day reachable until hark stopped.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

class Whisper implements SttEngine {
  readonly id = 'whisper';
  readonly remote = false;
  readonly trustBlank = false;
  constructor(private readonly said = 'add milk to the shopping list') {}
  async transcribe(): Promise<Transcript> {
    return { engine: 'whisper', rawText: this.said, text: this.said, ms: 5 };
  }
  async close(): Promise<void> {}
}

const speech = {
  queue: { isSpeaking: false, isPlaying: false, say: () => {}, earcon: () => {}, clip: () => ({ done: Promise.resolve() }), stop: () => {} },
  tts: { render: async (t: string) => new Int16Array(t.length), setVoice: () => {} },
  gate: {},
  close: () => {},
} as unknown as Speech;

describe('a day of segments leaves nothing behind', () => {
  it('the transcripts of handled segments are let go (the stop deadline keeps no finished wait)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-path-mem-'));
    try {
      const clock = new VirtualClock(100_000);
      const bus = new Bus();
      const log = memoryLogger();
      const config = validateConfig({ router: { mode: 'always-listen' }, speech: { device: 'null' }, actions: { dataDir } }, 'test');
      const engines = [{ id: 'whisper' as const, engine: new Whisper() }];
      const transcriber = new Transcriber({ engines, clearSpeechProb: 0.8, breaker: { failures: 3, openMs: 30_000 }, filter: config.stt.filter, stabilizer: config.stt.stabilizer, clock, logger: log, bus });
      // Every transcript the path is given, watched without being held.
      const alive = new Set<WeakRef<SegmentTranscript>>();
      const transcribe = transcriber.transcribe.bind(transcriber);
      transcriber.transcribe = async (...args) => {
        const t = await transcribe(...args);
        alive.add(new WeakRef(t));
        return t;
      };
      const stt: SttStack = { transcriber, engines, describe: 'test', setVocabulary: () => {}, close: async () => {} };
      const conversation = new Conversation({ config, bus, clock, log, store: null, speech });
      const path = new SegmentPath({ config, bus, clock, log, stt, speech, conversation, store: () => null, source: 'mic' });
      const handled = 40;
      for (let i = 0; i < handled; i++) {
        const startSample = i * 32_000;
        path.opened({ startSample, pcm: new Int16Array(8000) });
        const seg: Segment = { index: i, pcm: new Int16Array(16_000), prerollSamples: 8000, startSample, vadStartSample: startSample + 8000, endSample: startSample + 16_000, closeReason: 'hangover', maxProb: 0.95, openedBy: 'vad' };
        await path.closed(seg);
        clock.advanceBy(5_000);
      }
      await path.idle();
      expect(alive.size).toBe(handled);
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setImmediate(r));
        gc();
      }
      const kept = [...alive].filter((w) => w.deref() !== undefined).length;
      // The list's last few entries may still be named by the conversation (what was just added); a day's worth may not.
      expect(kept).toBeLessThan(5);
      path.dispose();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a segment whose words fired an action is let go once it is stored (the record keeper keeps only its utterance id)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-path-mem-'));
    const store = new Store({ path: join(dir, 'hark.db'), housekeeping: null });
    store.start();
    try {
      const clock = new VirtualClock(100_000);
      const bus = new Bus();
      const log = memoryLogger();
      const config = validateConfig({ router: { mode: 'always-listen' }, speech: { device: 'null' }, actions: { dataDir: dir } }, 'test');
      const engines = [{ id: 'whisper' as const, engine: new Whisper('set a timer for five minutes') }];
      const transcriber = new Transcriber({ engines, clearSpeechProb: 0.8, breaker: { failures: 3, openMs: 30_000 }, filter: config.stt.filter, stabilizer: config.stt.stabilizer, clock, logger: log, bus });
      const stt: SttStack = { transcriber, engines, describe: 'test', setVocabulary: () => {}, close: async () => {} };
      const conversation = new Conversation({ config, bus, clock, log, store, speech });
      const path = new SegmentPath({ config, bus, clock, log, stt, speech, conversation, store: () => store, source: 'mic' });
      // Each segment's audio, watched without being held.
      const audio: Array<WeakRef<Int16Array>> = [];
      const handled = 24;
      for (let i = 0; i < handled; i++) {
        const startSample = i * 32_000;
        path.opened({ startSample, pcm: new Int16Array(8000) });
        const pcm = new Int16Array(48_000);
        audio.push(new WeakRef(pcm));
        await path.closed({ index: i, pcm, prerollSamples: 8000, startSample, vadStartSample: startSample + 8000, endSample: startSample + 48_000, closeReason: 'hangover', maxProb: 0.95, openedBy: 'vad' });
        clock.advanceBy(5_000);
      }
      await path.idle();
      await path.drain();
      // Every one fired its action and was stored.
      const db = new Database(join(dir, 'hark.db'), { readonly: true });
      expect(db.prepare("SELECT count(*) FROM actions WHERE name = 'timer.set'").pluck().get()).toBe(handled);
      db.close();
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setImmediate(r));
        gc();
      }
      // Kept for a later last-wins action, each used to hold its whole segment: the last 16 stayed.
      expect(audio.filter((w) => w.deref() !== undefined).length).toBeLessThan(5);
      path.dispose();
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
