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
import type { SegmentTranscript } from '../../src/stt/events.js';
import type { Segment } from '../../src/vad/segment.js';
import { Store } from '../../src/store/store.js';
import { testSpeech } from '../kit/speech.js';
import { ScriptedEngine } from '../kit/stt.js';
import { sttStack } from '../kit/stt-stack.js';

/**
 * hark listens all day: what a handled segment leaves behind must go with it. The stop deadline
 * (speech-to-text's time at shutdown) is raced by every transcription; a wait that finished must not
 * stay on it — it did, keeping every transcript of the day reachable until hark stopped.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** The real segment path in always-listen mode, Whisper's double hearing `said` each time, on a virtual clock. */
function rig(dir: string, said: string, store: Store | null) {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const config = validateConfig({ router: { mode: 'always-listen' }, speech: { device: 'null' }, actions: { dataDir: dir } }, 'test');
  const stt = sttStack({ engines: [ScriptedEngine.hearing(said)], clock, bus, log, config: config.stt });
  const { transcriber } = stt;
  const { speech } = testSpeech({ clock, bus });
  const conversation = new Conversation({ config, bus, clock, log, store, speech });
  const path = new SegmentPath({ config, bus, clock, log, stt, speech, conversation, store: () => store, source: 'mic' });
  /** `count` segments of `samples` each, one after another, each handled before the next opens. */
  const hear = async (count: number, samples: number, eachPcm: (pcm: Int16Array) => void = () => {}) => {
    for (let i = 0; i < count; i++) {
      const startSample = i * 32_000;
      path.opened({ startSample, pcm: new Int16Array(8000) });
      const pcm = new Int16Array(samples);
      eachPcm(pcm);
      const seg: Segment = {
        index: i,
        pcm,
        prerollSamples: 8000,
        startSample,
        vadStartSample: startSample + 8000,
        endSample: startSample + samples,
        closeReason: 'hangover',
        maxProb: 0.95,
        openedBy: 'vad',
      };
      await path.closed(seg);
      clock.advanceBy(5_000);
    }
    await path.idle();
  };
  return { path, transcriber, hear };
}

/** How many of `refs` a full collection leaves alive. */
async function stillHeld(refs: Iterable<WeakRef<object>>): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setImmediate(r));
    gc();
  }
  return [...refs].filter((w) => w.deref() !== undefined).length;
}

describe('a day of segments leaves nothing behind', () => {
  it('the transcripts of handled segments are let go (the stop deadline keeps no finished wait)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hark-path-mem-'));
    try {
      const { path, transcriber, hear } = rig(dataDir, 'add milk to the shopping list', null);
      // Every transcript the path is given, watched without being held.
      const alive = new Set<WeakRef<SegmentTranscript>>();
      const transcribe = transcriber.transcribe.bind(transcriber);
      transcriber.transcribe = async (...args) => {
        const t = await transcribe(...args);
        alive.add(new WeakRef(t));
        return t;
      };
      const handled = 40;
      await hear(handled, 16_000);
      expect(alive.size).toBe(handled);
      // The list's last few entries may still be named by the conversation (what was just added); a day's worth may not.
      expect(await stillHeld(alive)).toBeLessThan(5);
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
      const { path, hear } = rig(dir, 'set a timer for five minutes', store);
      // Each segment's audio, watched without being held.
      const audio: Array<WeakRef<Int16Array>> = [];
      const handled = 24;
      await hear(handled, 48_000, (pcm) => audio.push(new WeakRef(pcm)));
      await path.drain();
      // Every one fired its action and was stored.
      const db = new Database(join(dir, 'hark.db'), { readonly: true });
      expect(db.prepare("SELECT count(*) FROM actions WHERE name = 'timer.set'").pluck().get()).toBe(handled);
      db.close();
      // Kept for a later last-wins action, each used to hold its whole segment: the last 16 stayed.
      expect(await stillHeld(audio)).toBeLessThan(5);
      path.dispose();
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
