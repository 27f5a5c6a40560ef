import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { SegmentPath } from '../../src/daemon/segment-path.js';
import type { Speech } from '../../src/speech/create.js';
import type { SttStack } from '../../src/stt/create.js';
import type { EngineSlot, LiveStream, SttEngine } from '../../src/stt/engine.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import { EngineFailure, type AsrEvent, type Transcript } from '../../src/stt/types.js';
import { Store } from '../../src/store/store.js';
import { ResponseCascade } from '../../src/turn/cascade.js';
import { createBargeIn } from '../../src/turn/wiring.js';
import type { Segment } from '../../src/vad/segment.js';

/**
 * The path of a segment, owned by one class: transcript → fate → cascade → router → record. Engines
 * are scripted doubles behind the real SttEngine interface; the interruption filter, the response
 * cascade, the router and (where rows matter) the SQLite store are the real ones, on a virtual clock.
 */

const transcript = (engine: string, rawText: string): Transcript => ({ engine, rawText, text: rawText.replace(/\[[^\]]*\]/g, '').trim(), ms: 5 });

class ScriptedWhisper implements SttEngine {
  readonly id = 'whisper';
  readonly remote = false;
  readonly trustBlank = false;
  calls = 0;
  constructor(private readonly said: string[]) {}
  async transcribe(): Promise<Transcript> {
    return transcript('whisper', this.said[Math.min(this.calls++, this.said.length - 1)]!);
  }
  async close(): Promise<void> {}
}

const result = (kind: 'partial' | 'final', text: string, start: number, end: number, fromFinalize = false): AsrEvent => ({
  kind,
  text,
  words: text.split(' ').map((w, i, all) => ({ word: w, start: start + ((end - start) * i) / all.length, end: start + ((end - start) * (i + 1)) / all.length, confidence: 0.95 })),
  confidence: 0.95,
  start,
  duration: end - start,
  speechFinal: fromFinalize,
  fromFinalize,
  receivedAt: 0,
});

/** A streaming engine the test drives: it pushes interim results while the segment is open, then decides how the close goes. */
class DrivenCloud implements SttEngine {
  readonly id = 'deepgram';
  readonly remote = true;
  readonly trustBlank = true;
  streams: { push: (e: AsrEvent) => void; finish: () => Promise<Transcript> }[] = [];
  /** What finish() does for the next stream. */
  close: () => Promise<void> = async () => {};
  onFinish: (push: (e: AsrEvent) => void) => Promise<Transcript> = async () => transcript('deepgram', '');
  openLive(_id: string, onEvent: (e: AsrEvent) => void): LiveStream {
    const finish = () => this.onFinish(onEvent);
    this.streams.push({ push: onEvent, finish });
    return { write: () => {}, cancel: () => {}, finish };
  }
  transcribe(): Promise<Transcript> {
    return this.onFinish(() => {});
  }
}

function fakeSpeech(clock: VirtualClock) {
  const log: string[] = [];
  const queue = {
    isSpeaking: false,
    isPlaying: false,
    say: (text: string) => log.push(`say ${text}`),
    earcon: (name: string) => log.push(`earcon ${name}`),
    clip: (_pcm: Int16Array, text: string) => {
      log.push(`play ${text} @${clock.now()}`);
      return { done: Promise.resolve() };
    },
    stop: (reason: string) => {
      log.push(`stop (${reason}) @${clock.now()}`);
      queue.isSpeaking = false;
    },
  };
  const speech = { queue, tts: { render: async (t: string) => new Int16Array(t.length), setVoice: () => {} }, gate: {}, close: () => {} } as unknown as Speech;
  return { speech, queue, log };
}

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function rig(opts: { engines: SttEngine[]; mode?: 'wake-word' | 'always-listen'; store?: boolean }) {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const dataDir = mkdtempSync(join(tmpdir(), 'hark-path-data-'));
  dirs.push(dataDir);
  const config = validateConfig({ router: { mode: opts.mode ?? 'wake-word' }, speech: { device: 'null' }, actions: { dataDir } }, 'test');
  const engines: EngineSlot[] = opts.engines.map((engine) => ({ id: engine.id, engine }));
  const transcriber = new Transcriber({ engines, clearSpeechProb: 0.8, breaker: { failures: 3, openMs: 30_000 }, filter: config.stt.filter, stabilizer: config.stt.stabilizer, clock, logger: log, bus });
  const stt: SttStack = { transcriber, engines, describe: 'test', setVocabulary: () => {}, close: async () => {} };
  const { speech, queue, log: said } = fakeSpeech(clock);
  const cascade = new ResponseCascade<string, string, Int16Array>({
    clock,
    timings: config.cascade,
    steps: { model: async (t) => t, render: async (t) => new Int16Array(t.length), play: (pcm, t) => queue.clip(pcm, t).done, stopPlayback: () => queue.stop('barge-in') },
  });
  const barge = createBargeIn({ settings: config.interruption, clock, bus, targets: { isSpeaking: () => queue.isSpeaking, stopSpeaking: (r) => queue.stop(r), interruptCascade: (r) => cascade.interrupt(r) } });
  let store: Store | null = null;
  if (opts.store) {
    const dir = mkdtempSync(join(tmpdir(), 'hark-path-'));
    dirs.push(dir);
    store = new Store({ path: join(dir, 'hark.db'), housekeeping: null });
    store.start();
  }
  const path = new SegmentPath({ config, bus, clock, log, stt, speech, barge, cascade, store: () => store, source: 'mic' });
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  bus.onAny((type, payload) => events.push({ type, payload: payload as Record<string, unknown> }));
  const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload);
  const effects = (type: string) => of('router.effect').filter((e) => e.type === type);
  let next = 0;
  let index = 0;
  /** Open a segment (as the VAD would), returning its close. */
  const open = () => {
    const startSample = next;
    next += 32_000;
    path.opened({ startSample, pcm: new Int16Array(8000) });
    return {
      startSample,
      close: (maxProb = 0.95) => {
        const seg: Segment = { index: index++, pcm: new Int16Array(16_000), prerollSamples: 8000, startSample, vadStartSample: startSample + 8000, endSample: startSample + 16_000, closeReason: 'hangover', maxProb, openedBy: 'vad' };
        return path.closed(seg);
      },
    };
  };
  const settle = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      clock.advanceBy(50);
      await new Promise((r) => setImmediate(r));
    }
  };
  return { clock, bus, path, of, effects, open, settle, queue, said, cascade, store, close: () => (path.dispose(), store?.close()) };
}

describe('the path of a segment: one owner, one fate per segment', () => {
  it('a transcript the hallucination filter drops never reaches the router (always-listen)', async () => {
    // Unclear audio: Whisper's answer stands (nothing to fall back to), and is a known hallucination.
    const r = rig({ engines: [new ScriptedWhisper(['Thank you for watching.'])], mode: 'always-listen', store: true });
    await r.open().close(0.5);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dropped', reason: 'hallucination: "thank you for watching"', utterance: null, actions: [] }]);
    // Nothing routed: no query opened, nothing appended, nothing ignored.
    expect(r.effects('stack')).toEqual([]);
    expect(r.effects('matched')).toEqual([]);
    expect(r.effects('ignored')).toEqual([]);
    // The store records what was said, not as heard.
    const db = new Database((r.store as unknown as { path: string }).path, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM utterances').pluck().get()).toBe(0);
    expect(db.prepare('SELECT raw_text, dropped_reason FROM transcripts').all()).toEqual([{ raw_text: 'Thank you for watching.', dropped_reason: 'hallucination: "thank you for watching"' }]);
    db.close();
    r.close();
  });

  it('the cloud fails after a final: the timer is set once, from the fallback engine’s whole transcript', async () => {
    const cloud = new DrivenCloud();
    cloud.onFinish = async (push) => {
      push(result('final', 'Computer, set', 0, 0.8));
      throw new EngineFailure('deepgram', 'closed', 'socket closed (1006)');
    };
    const r = rig({ engines: [cloud, new ScriptedWhisper(['computer set a timer for ten minutes'])] });
    const seg = r.open();
    cloud.streams[0]!.push(result('partial', 'Computer, set a', 0, 1));
    await seg.close();
    const actions = r.effects('action');
    expect(actions.map((a) => [a.name, a.args])).toEqual([['timer.set', { seconds: 600 }]]);
    expect(r.of('utterance.final').map((u) => [u.engine, u.text])).toEqual([['whisper', 'computer set a timer for ten minutes']]);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dispatched', utterance: { text: 'computer set a timer for ten minutes' }, actions: ['timer.set'] }]);
    r.close();
  });
});

describe('the answer being prepared (seed 003): words take the floor, a cough does not', () => {
  const answer = (r: ReturnType<typeof rig>) => r.cascade.start('The order list has milk.', { endOfSpeechAt: r.clock.now() });

  it('a segment dropped as too short gives the answer back: it plays when due', async () => {
    const r = rig({ engines: [new ScriptedWhisper([''])] });
    answer(r);
    await r.settle(300);
    const cough = r.open();
    await r.settle(2000);
    // Held while it might be words.
    expect(r.said.filter((l) => l.startsWith('play'))).toEqual([]);
    r.path.dropped(cough.startSample);
    await r.settle(100);
    expect(r.said.filter((l) => l.startsWith('play'))).toHaveLength(1);
    r.close();
  });

  it('a segment with no words (blank transcript) gives the answer back too', async () => {
    const r = rig({ engines: [new ScriptedWhisper(['[BLANK_AUDIO]'])] });
    answer(r);
    await r.settle(300);
    const noise = r.open();
    await r.settle(400);
    await noise.close(0.5);
    await r.settle(2000);
    expect(r.said.filter((l) => l.startsWith('play'))).toEqual([`play The order list has milk. @${100_000 + 2000}`]);
    r.close();
  });

  it('words cancel it: the answer never plays late', async () => {
    const r = rig({ engines: [new ScriptedWhisper(['computer what is on the order list'])] });
    answer(r);
    await r.settle(300);
    const speech = r.open();
    await r.settle(400);
    await speech.close();
    await r.settle(4000);
    expect(r.said.filter((l) => l.startsWith('play The order list'))).toEqual([]);
    expect(r.cascade.busy).toBe(false);
    r.close();
  });
});

describe('barge-in decided on partial transcripts (seed 002), before the segment closes', () => {
  it('"stop" over hark’s voice cuts it off at the partial, long before the close', async () => {
    const cloud = new DrivenCloud();
    cloud.onFinish = async () => transcript('deepgram', 'Stop.');
    const r = rig({ engines: [cloud] });
    r.queue.isSpeaking = true;
    const seg = r.open();
    await r.settle(300);
    cloud.streams[0]!.push(result('partial', 'stop', 0.5, 0.8));
    // Stopped at once, on the partial.
    expect(r.said).toEqual([`stop (barge-in) @${r.clock.now()}`]);
    await r.settle(700);
    await seg.close();
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dispatched', utterance: { text: 'Stop.' } }]);
    r.close();
  });

  it('"yeah" over hark’s voice never stops it, partial or final', async () => {
    const cloud = new DrivenCloud();
    cloud.onFinish = async () => transcript('deepgram', 'Yeah.');
    const r = rig({ engines: [cloud] });
    r.queue.isSpeaking = true;
    const seg = r.open();
    await r.settle(200);
    cloud.streams[0]!.push(result('partial', 'yeah', 0.5, 0.7));
    await r.settle(200);
    cloud.streams[0]!.push(result('final', 'Yeah.', 0.5, 0.7));
    await r.settle(800);
    await seg.close();
    expect(r.said).toEqual([]);
    expect(r.queue.isSpeaking).toBe(true);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'filtered', utterance: { text: 'Yeah.' } }]);
    expect(r.effects('matched')).toEqual([]);
    r.close();
  });

  it('"yeah … stop" in one segment still stops: each final chunk is decided on its own', async () => {
    const cloud = new DrivenCloud();
    cloud.onFinish = async () => transcript('deepgram', 'Yeah. Stop.');
    const r = rig({ engines: [cloud] });
    r.queue.isSpeaking = true;
    const seg = r.open();
    cloud.streams[0]!.push(result('final', 'Yeah.', 0.3, 0.5));
    expect(r.said).toEqual([]);
    await r.settle(300);
    cloud.streams[0]!.push(result('partial', 'stop', 0.9, 1.1));
    expect(r.said).toHaveLength(1);
    await seg.close();
    r.close();
  });
});

describe('last-wins (seed 000) without the wait', () => {
  it('"repeat" acts at once and its row belongs to its segment and utterance', async () => {
    const r = rig({ engines: [new ScriptedWhisper(['repeat'])], store: true });
    await r.open().close();
    expect(r.effects('action').map((a) => a.name)).toEqual(['repeat']);
    expect(r.of('segment.handled')).toMatchObject([{ actions: ['repeat'], actionMs: 0 }]);
    const db = new Database((r.store as unknown as { path: string }).path, { readonly: true });
    const rows = db.prepare('SELECT a.name, a.outcome, a.segment_id IS NOT NULL AS seg, a.utterance_id = u.id AS utt FROM actions a LEFT JOIN utterances u ON u.segment_id = a.segment_id').all();
    expect(rows).toEqual([{ name: 'repeat', outcome: 'ok', seg: 1, utt: 1 }]);
    db.close();
    r.close();
  });

  it('"stop", then "repeat" a second later: both act at once, and the stored stop row says it was superseded', async () => {
    const r = rig({ engines: [new ScriptedWhisper(['stop', 'repeat'])], store: true });
    await r.open().close();
    r.clock.advanceBy(1000);
    await r.open().close();
    expect(r.effects('action').map((a) => a.name)).toEqual(['stop', 'repeat']);
    expect(r.effects('action.superseded')).toMatchObject([{ name: 'stop', by: 'repeat' }]);
    const db = new Database((r.store as unknown as { path: string }).path, { readonly: true });
    expect(db.prepare('SELECT name, outcome, error FROM actions ORDER BY id').all()).toEqual([
      { name: 'stop', outcome: 'superseded', error: 'by repeat' },
      { name: 'repeat', outcome: 'ok', error: null },
    ]);
    db.close();
    r.close();
  });
});

describe('a button tap ends dictation', () => {
  it('after the last words said before it, which are in what it submits', async () => {
    const r = rig({ engines: [new ScriptedWhisper(['start dictation', 'the walk-in is at four degrees'])] });
    await r.open().close();
    expect(r.effects('stack').at(-1)).toMatchObject({ frames: ['base', 'dictation'] });
    expect(r.path.takesTap()).toBe(true);
    // The last words are still being transcribed when the button is tapped.
    const last = r.open().close();
    const tap = r.path.buttonTap();
    await Promise.all([last, tap]);
    expect(r.effects('submit')).toMatchObject([{ frame: 'dictation', text: 'the walk-in is at four degrees' }]);
    expect(r.effects('stack').at(-1)).toMatchObject({ frames: ['base'] });
    expect(r.path.takesTap()).toBe(false);
    r.close();
  });
});

describe('the live hearing of an open segment (seed 000)', () => {
  it('settled words go on the bus for the page, with an intent hint that acts on nothing', async () => {
    const cloud = new DrivenCloud();
    cloud.onFinish = async () => transcript('deepgram', 'What is a lock statement?');
    const r = rig({ engines: [cloud] });
    const seg = r.open();
    const push = cloud.streams[0]!.push;
    push(result('partial', 'what', 0, 0.3));
    push(result('partial', 'what is', 0, 0.5));
    // One hypothesis settles nothing; two that agree settle their common words.
    expect(r.of('hearing.update').map((u) => u.stableText)).toEqual(['', 'what']);
    push(result('partial', 'what is a', 0, 0.7));
    push(result('partial', 'what is a lock', 0, 0.9));
    push(result('partial', 'what is a lock statement', 0, 1.2));
    // The seed's own example: the longest common prefix of the last three hypotheses.
    expect(r.of('hearing.update').at(-1)).toMatchObject({ segmentId: '@0', stableText: 'what is a', rawText: 'what is a lock statement' });
    // The hint sharpens as the words settle: a question, then a definition question.
    expect(r.of('intent.candidate')).toEqual([
      { segmentId: '@0', candidate: 'question', stableText: 'what' },
      { segmentId: '@0', candidate: 'definition', stableText: 'what is' },
    ]);
    // A hint is never an action.
    expect(r.effects('action')).toEqual([]);
    await seg.close();
    r.close();
  });
});
