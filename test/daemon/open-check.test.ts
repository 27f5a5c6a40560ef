import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { segmenterFor } from '../../src/path/capture-wiring.js';
import { Conversation } from '../../src/path/conversation.js';
import { SegmentPath } from '../../src/path/segment-path.js';
import type { SttStack } from '../../src/stt/create.js';
import type { EngineSlot } from '../../src/stt/engine.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import type { SegmentAudio } from '../../src/stt/types.js';
import { Store } from '../../src/store/store.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Segment } from '../../src/vad/segment.js';
import type { Vad } from '../../src/vad/vad.js';
import { ScriptedEngine } from '../kit/stt.js';

/**
 * In wake-word mode, a long segment's wake-phrase check runs while it is still being said,
 * so at the close its transcript is ready (or one inference away) instead of two inferences after it.
 * Audio goes through the real SegmentPipeline and segmenter with the daemon's settings
 * (segmenterFor), wired to the real SegmentPath as capture-wiring.ts wires them, on a virtual clock
 * that moves 32 ms per frame. The VAD is a stand-in (a loud frame is speech); the engine is a double
 * behind the real SttEngine interface that takes `costMs` of virtual time per call and hears the
 * words of a scripted phrase in proportion to the speech in the audio it is given.
 */

const RATE = 16_000;
const FRAME = 512;
const PREROLL = 0.5 * RATE; // vad.prerollMs default
/** Each utterance's speech samples are LOUD + its number, so the engine knows which one it hears. */
const LOUD = 5000;

const loudVad: Vad = { name: 'webrtc', process: async (f: Int16Array) => (Math.abs(f[0]!) > 1000 ? 1 : 0), reset: () => {}, close: async () => {} };

/** The words an engine hears in `audio` of the scripted utterances (utterance number → its words and speech seconds): in proportion to its speech. */
function hearer(script: Map<number, { text: string; seconds: number }>) {
  return (audio: SegmentAudio): string => {
    let loud = 0;
    let id = -1;
    for (const x of audio.pcm) if (x > 1000) (loud++, (id = x - LOUD));
    const said = script.get(id);
    const words = said ? said.text.split(' ') : [];
    return words.slice(0, Math.ceil((words.length * loud) / RATE / (said?.seconds ?? 1) - 1e-9)).join(' ');
  };
}

let dirs: string[] = [];
let stores: Store[] = [];
afterEach(() => {
  // The store first: its checkpointer can still be writing the WAL when a test ends (a loaded CI run
  // removed the directory under it: ENOTEMPTY).
  for (const s of stores) s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  dirs = [];
  stores = [];
});

function room(costMs: number) {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const dir = mkdtempSync(join(tmpdir(), 'hark-open-'));
  dirs.push(dir);
  const config = validateConfig({ router: { mode: 'wake-word' }, speech: { device: 'null' }, actions: { dataDir: dir } }, 'test');
  const script = new Map<number, { text: string; seconds: number }>();
  // One call at a time, as whisper.cpp runs them: a call waits for the one before it.
  const engine = new ScriptedEngine({ clock, costMs, serial: true, script: hearer(script) });
  const engines: EngineSlot[] = [{ id: 'whisper', engine }];
  const transcriber = new Transcriber({
    engines,
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: config.stt.filter,
    stabilizer: config.stt.stabilizer,
    clock,
    logger: log,
    bus,
  });
  const stt: SttStack = { transcriber, engines, describe: 'test', setVocabulary: () => {}, close: async () => {} };
  const store = new Store({ path: join(dir, 'hark.db'), housekeeping: null });
  stores.push(store);
  store.start();
  const pipeline = new SegmentPipeline({ vad: loudVad, segmenter: segmenterFor(config, true) });
  const path = new SegmentPath({
    config,
    bus,
    clock,
    log,
    stt,
    speech: null,
    conversation: new Conversation({ config, bus, clock, log, store, speech: null }),
    store: () => store,
    source: 'mic',
    closeEarly: () => void pipeline.closeEarly(),
  });
  // As capture-wiring.ts wires the pipeline to the path.
  const closes: number[] = [];
  const handled: Promise<void>[] = [];
  pipeline.on('open', (e) => path.opened(e));
  pipeline.on('audio', (f) => path.audio(f));
  pipeline.on('pause', (e) => path.paused(e));
  pipeline.on('resume', (e) => path.resumed(e.startSample));
  pipeline.on('long', (e) => path.long(e));
  pipeline.on('dropped', (e) => path.dropped(e.startSample));
  pipeline.on('segment', (s) => {
    closes.push(clock.now());
    handled.push(path.closed(s));
  });
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  bus.onAny((type, payload) => events.push({ type, payload: payload as Record<string, unknown> }));
  const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload);
  let said = 0;
  const frame = async (loud: number | null) => {
    await pipeline.push(new Int16Array(FRAME).fill(loud === null ? 0 : LOUD + loud));
    clock.advanceBy((FRAME / RATE) * 1000);
    await new Promise((r) => setImmediate(r));
  };
  const quiet = async (sec: number) => {
    for (let i = 0; i < (sec * RATE) / FRAME; i++) await frame(null);
  };
  /**
   * Say `text` as `seconds` of speech into the microphone after `before` s of silence, with silent
   * gaps [at s, for s] inside it, then `after` s of silence (the segment closes on its 600 ms hangover).
   */
  const speak = async (text: string, seconds: number, gaps: [number, number][] = [], after = 1.5, before = 0.6) => {
    const id = said++;
    script.set(id, { text, seconds });
    await quiet(before);
    let t = 0;
    for (const [at, len] of gaps) {
      for (; t < at; t += FRAME / RATE) await frame(id);
      await quiet(len);
    }
    for (; t < seconds; t += FRAME / RATE) await frame(id);
    await quiet(after);
  };
  let direct = 0;
  /** A segment closed with no open segment before it (as a queued one arrives), `seconds` of speech. */
  const closed = (text: string, seconds: number, openedBy: 'vad' | 'ptt' = 'vad') => {
    const id = said++;
    script.set(id, { text, seconds });
    const pcm = new Int16Array(Math.round(PREROLL + seconds * RATE)).fill(LOUD + id, PREROLL);
    const startSample = 1e9 + direct++ * 1e6;
    const seg: Segment = {
      index: 1000 + direct,
      pcm,
      prerollSamples: PREROLL,
      startSample,
      vadStartSample: startSample + PREROLL,
      endSample: startSample + pcm.length,
      closeReason: openedBy === 'ptt' ? 'ptt-release' : 'hangover',
      maxProb: 0.95,
      openedBy,
    };
    handled.push(path.closed(seg));
  };
  const done = async () => {
    for (let i = 0; i < 1000 && clock.pending() > 0; i++) {
      clock.advanceBy(50);
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(handled);
  };
  const rows = () => {
    store.close();
    const db = new Database(join(dir, 'hark.db'), { readonly: true });
    const r = db
      .prepare(
        `SELECT s.audio_state AS audio, (SELECT group_concat(coalesce(t.dropped_reason, ''), ' | ') FROM transcripts t WHERE t.segment_id = s.id) AS reasons FROM segments s ORDER BY s.id`,
      )
      .all();
    db.close();
    return r as { audio: string; reasons: string }[];
  };
  return {
    clock,
    path,
    engine,
    of,
    speak,
    closed,
    quiet,
    done,
    closes,
    rows,
    actions: () =>
      of('router.effect')
        .filter((e) => e.type === 'action')
        .map((a) => [a.name, a.args]),
  };
}

const RADIO = 'and so the old man walked down to the harbour where the boats were coming in with the morning catch and the gulls';

describe('a wake-word command: its transcript is ready at the close', () => {
  it.each([
    // 1.5 s: whole at its pause, as before.
    { name: '1.5 s of speech', seconds: 1.5, text: 'computer set a timer for two minutes', minutes: 2, cost: 300 },
    // 1.8–2.5 s: the pause and the close now measure speech alike, so the pause starts the whole.
    {
      name: '2.2 s of speech (neither check nor pause transcript before)',
      seconds: 2.2,
      text: 'computer set a timer for three minutes',
      minutes: 3,
      cost: 300,
    },
    // Long: the opening is checked while it is said, and the pause starts the whole.
    { name: '3 s of speech', seconds: 3, text: 'computer set a timer for four minutes please', minutes: 4, cost: 300 },
    { name: '5 s of speech', seconds: 5, text: 'computer could you set a timer for five minutes for the brown rice please', minutes: 5, cost: 300 },
    // The check is still running at the last pause: the whole starts on its verdict, before the close.
    { name: '3 s of speech, the check still running at the pause', seconds: 3, text: 'computer set a timer for six minutes please', minutes: 6, cost: 800 },
  ])('$name: no inference after the close, acted on within one inference of it', async ({ seconds, text, minutes, cost }) => {
    const r = room(cost);
    await r.speak(text, seconds);
    await r.done();
    expect(r.actions()).toEqual([['timer.set', { seconds: minutes * 60, ...(text.includes('rice') ? { label: 'brown rice' } : {}) }]]);
    const close = r.closes[0]!;
    expect(r.engine.calls.filter((c) => c.at >= close)).toEqual([]);
    expect(Number(r.of('segment.handled')[0]!.latencyMs)).toBeLessThan(cost);
  });

  it('5 s with a pause after the opening: the opening is checked once, the pauses start the whole, and the last one is used', async () => {
    const r = room(300);
    await r.speak('computer could you set a timer for seven minutes for the brown rice please', 5, [[3.5, 0.3]]);
    await r.done();
    expect(r.actions()).toEqual([['timer.set', { seconds: 420, label: 'brown rice' }]]);
    // The opening (pre-roll + 2 s), the whole at the pause (thrown away: they went on), the whole at
    // the end (pre-roll, 5 s of speech, the 0.3 s gap and the 0.2 s pause).
    expect(r.engine.calls.map((c) => c.seconds)).toEqual([2.5, 4.2, 6.1]);
    expect(r.engine.calls.every((c) => c.at < r.closes[0]!)).toBe(true);
    expect(r.of('stt.preemptive').map((e) => e.outcome)).toEqual(['started', 'discarded', 'started', 'used']);
  });
});

describe('the opening is the start of the whole: heard once', () => {
  it('a command that paused once its opening was said: the transcript started at that pause is its check', async () => {
    const r = room(300);
    await r.speak('computer could you set a timer for eleven minutes for the brown rice please', 4.5, [[2.2, 0.3]]);
    await r.done();
    expect(r.actions()).toEqual([['timer.set', { seconds: 660, label: 'brown rice' }]]);
    // The whole at the pause (pre-roll, 2.2 s, the pause: it holds the opening), then the whole at the end.
    expect(r.engine.calls.map((c) => c.seconds)).toEqual([2.9, 5.6]);
    expect(r.engine.calls.every((c) => c.at < r.closes[0]!)).toBe(true);
  });

  it('radio that paused once its opening was said: one inference for the whole segment', async () => {
    const r = room(300);
    await r.speak(RADIO, 7, [[2.2, 0.3]]);
    await r.done();
    expect(r.engine.calls.map((c) => c.seconds)).toEqual([2.9]);
    expect(r.engine.calls[0]!.at).toBeLessThan(r.closes[0]!);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dropped', reason: 'no wake phrase at its start' }]);
  });
});

describe('talk without the wake phrase', () => {
  it('after the opening says no, the rest of the segment costs no inference; it is stored with its audio and why', async () => {
    const r = room(300);
    await r.speak(RADIO, 7, [
      [3.5, 0.3],
      [5, 0.3],
    ]);
    await r.done();
    // One inference, on the opening, while the segment was open; none at its pauses or its close.
    expect(r.engine.calls.map((c) => c.seconds)).toEqual([2.5]);
    expect(r.engine.calls[0]!.at).toBeLessThan(r.closes[0]!);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dropped', reason: 'no wake phrase at its start' }]);
    expect(r.of('segment.skipped')).toMatchObject([{ reason: 'no-wake-phrase' }]);
    // Its transcript is told once, as the closed segment's (not under the open segment's name).
    expect(r.of('stt.segment').map((t) => t.segmentId)).toEqual([r.of('segment.handled')[0]!.segment]);
    const rows = r.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.audio).toBe('stored');
    expect(rows[0]!.reasons).toContain('no wake phrase at its start');
  });
});

describe("priority: closed segments before an open segment's check", () => {
  it('a push-to-talk command waiting behind radio is transcribed before the opening of radio said meanwhile', async () => {
    const r = room(5000);
    // Radio closed and in speech-to-text (its opening checked at its turn), then a push-to-talk command waits.
    r.closed(RADIO, 6);
    await new Promise((resolve) => setImmediate(resolve));
    r.closed('computer set a timer for eight minutes', 3, 'ptt');
    // More radio is said meanwhile; its speech runs long (at 3.1 s) while both are still in
    // speech-to-text's hands (until 5 s and 10 s).
    await r.speak(RADIO, 10);
    await r.done();
    // The radio's opening, the command, then the radio said meanwhile: whole, at its pause, as the
    // timer's follow-up window was open by then (what is said is taken as meant for hark).
    expect(r.engine.calls.map((c) => c.seconds)).toEqual([2.5, 3.5, 10.7]);
    expect(r.actions()).toEqual([['timer.set', { seconds: 480 }]]);
  });

  it('while hark waits for an answer, a long segment is not checked but transcribed whole at its pause', async () => {
    const r = room(300);
    await r.speak('computer', 0.8, [], 0.7);
    expect(r.path.wantsWholeTranscript()).toBe(true);
    // Said at once (the query frame gives up after 4 s of silence, counted from "computer").
    await r.speak('set a timer for nine minutes please', 2.8, [], 1.5, 0.1);
    await r.done();
    // "computer" whole at its pause; then the answer whole at its pause (pre-roll, 2.8 s, the pause).
    expect(r.engine.calls.map((c) => c.seconds)).toEqual([1.5, 3.5]);
    expect(r.engine.calls.every((c) => c.at < r.closes[1]!)).toBe(true);
    expect(r.actions()).toEqual([['timer.set', { seconds: 540 }]]);
  });
});
