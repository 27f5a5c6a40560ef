import { afterEach, describe, expect, it } from 'vitest';
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
import type { SttStack } from '../../src/stt/create.js';
import type { EngineSlot } from '../../src/stt/engine.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import type { SegmentAudio, Transcript } from '../../src/stt/types.js';
import { UninterruptibleLine } from '../../src/stt/uninterruptible-line.js';
import { Store } from '../../src/store/store.js';
import type { Segment } from '../../src/vad/segment.js';
import { ScriptedEngine } from '../kit/stt.js';

/**
 * A loud room. The real segment path, router and SQLite store on a virtual clock; the
 * engine is a double behind the real SttEngine interface that takes `costMs` of virtual time per
 * call and answers from a script keyed by the segment's text (its opening: the first words only).
 */

const RATE = 16_000;
const PREROLL = 0.3 * RATE;

/** A segment's pcm carries its words in a side table (the engine double reads them by pcm identity). */
const words = new WeakMap<ArrayBufferLike, string>();

/** The words an engine hears in `audio`: an opening only those said in it (≈2.5 words per second of speech). */
function heardIn(audio: SegmentAudio): string {
  const sec = audio.pcm.length / RATE;
  const all = words.get(audio.pcm.buffer) ?? '';
  return all
    .split(' ')
    .slice(0, Math.max(1, Math.floor((sec - PREROLL / RATE) * 2.5)))
    .join(' ');
}

/** Whisper hearing the words said (its opening: the first words only), in `costMs` of virtual time; blank: [BLANK_AUDIO] to everything (the test model; a real Whisper that hears nothing). */
const timedEngine = (clock: VirtualClock, costMs: (seconds: number) => number, blank = false) =>
  new ScriptedEngine({ clock, costMs: (audio) => costMs(audio.pcm.length / RATE), script: (audio) => (blank ? '[BLANK_AUDIO]' : heardIn(audio)) });

/**
 * Whisper as whisper.cpp behaves: one call at a time in the real UninterruptibleLine, each with the
 * default deadline (2 s + 1 s per second of audio, its wait included), work that cannot be stopped.
 */
class SlowWhisper extends ScriptedEngine {
  private readonly line: UninterruptibleLine;
  constructor(clock: VirtualClock, costMs: (seconds: number) => number) {
    super({ clock, costMs: (audio) => costMs(audio.pcm.length / RATE), script: ['[BLANK_AUDIO]'] });
    this.line = new UninterruptibleLine('whisper', clock);
  }
  /** Busy with calls past their deadline (no forecast of its own: see WhisperEngine.unavailableFor). */
  unavailableFor(): string | null {
    return this.line.busyReason();
  }
  override transcribe(audio: SegmentAudio): Promise<Transcript> {
    return this.line.run(Math.round(2000 + 1000 * (audio.pcm.length / RATE)), () => super.transcribe(audio));
  }
}

/** The cloud (Deepgram's place in local-first): hears the words in the audio it is sent, in 200 ms; every call is a request the owner pays for. */
const cloudEngine = (clock: VirtualClock) => new ScriptedEngine({ id: 'deepgram', clock, costMs: 200, script: heardIn });

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function rig(
  opts: {
    mode?: 'wake-word' | 'always-listen';
    costMs?: (sec: number) => number;
    queue?: { maxWaitMs?: number; maxAudioMb?: number };
    /** local-first: Whisper (blank, or slow like whisper.cpp) then the cloud. */
    local?: 'blank' | 'slow';
  } = {},
) {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const dir = mkdtempSync(join(tmpdir(), 'hark-load-'));
  dirs.push(dir);
  const config = validateConfig(
    { router: { mode: opts.mode ?? 'wake-word' }, speech: { device: 'null' }, actions: { dataDir: dir }, stt: { queue: opts.queue ?? {} } },
    'test',
  );
  const engine =
    opts.local === 'slow' ? new SlowWhisper(clock, opts.costMs ?? (() => 100)) : timedEngine(clock, opts.costMs ?? (() => 100), opts.local === 'blank');
  const cloud = cloudEngine(clock);
  const engines: EngineSlot[] = opts.local
    ? [
        { id: 'whisper', engine },
        { id: 'deepgram', engine: cloud },
      ]
    : [{ id: 'whisper', engine }];
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
  const dbPath = join(dir, 'hark.db');
  const store = new Store({ path: dbPath, housekeeping: null });
  store.start();
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
  });
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  bus.onAny((type, payload) => events.push({ type, payload: payload as Record<string, unknown> }));
  const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload);
  let index = 0;
  let next = 0;
  /** A closed segment of `seconds` of speech saying `text` (plus 0.3 s pre-roll). */
  const say = (text: string, seconds: number, openedBy: 'vad' | 'ptt' = 'vad', overPlayback = false) => {
    const pcm = new Int16Array(Math.round(PREROLL + seconds * RATE));
    words.set(pcm.buffer, text);
    const startSample = next;
    next += pcm.length + RATE;
    const seg: Segment = {
      index: index++,
      pcm,
      prerollSamples: PREROLL,
      startSample,
      vadStartSample: startSample + PREROLL,
      endSample: startSample + pcm.length,
      closeReason: openedBy === 'ptt' ? 'ptt-release' : 'hangover',
      maxProb: 0.95,
      openedBy,
    };
    // Heard over hark's playback: the raw microphone rides along as a second track.
    if (overPlayback) seg.echo = { raw: new Int16Array(pcm.length), playback: [{ start: 0, end: pcm.length }] };
    return path.closed(seg);
  };
  const settle = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      clock.advanceBy(50);
      await new Promise((r) => setImmediate(r));
    }
  };
  /** Say it and let the virtual clock run until it is handled. */
  const handled = async (text: string, seconds: number, openedBy: 'vad' | 'ptt' = 'vad') => {
    const p = say(text, seconds, openedBy);
    await settle(2000);
    await p;
  };
  const rows = () => {
    store.close();
    const db = new Database(dbPath, { readonly: true });
    const r = db
      .prepare(
        `SELECT s.id, (SELECT count(*) FROM segment_audio a WHERE a.segment_id = s.id) AS audio,
                (SELECT group_concat(coalesce(t.dropped_reason, ''), ' | ') FROM transcripts t WHERE t.segment_id = s.id) AS reasons
           FROM segments s ORDER BY s.id`,
      )
      .all() as { id: number; audio: number; reasons: string }[];
    db.close();
    return r;
  };
  return {
    clock,
    path,
    engine,
    cloud,
    of,
    say,
    handled,
    settle,
    rows,
    actions: () => of('router.effect').filter((e) => e.type === 'action'),
    dispose: () => path.dispose(),
  };
}

const RADIO = 'and so the old man walked down to the harbour where the boats were coming in with the morning catch';

describe('the opening check (wake-word mode, base frame)', () => {
  it('radio: only the opening is transcribed; the segment is stored with its audio and the fate "no wake phrase at its start"', async () => {
    const r = rig();
    await r.handled(RADIO, 6);
    expect(r.engine.seconds).toEqual([2.3]);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dropped', reason: 'no wake phrase at its start' }]);
    expect(r.of('segment.skipped')).toMatchObject([{ reason: 'no-wake-phrase' }]);
    r.dispose();
    const rows = r.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.audio).toBe(1);
    expect(rows[0]!.reasons).toContain('no wake phrase at its start');
  });

  it('a long command: the opening finds the wake phrase, then the whole segment is transcribed and acted on', async () => {
    const r = rig();
    await r.handled('computer set a timer for ten minutes please and thank you', 5);
    expect(r.engine.seconds).toEqual([2.3, 5.3]);
    expect(r.actions().map((a) => [a.name, a.args])).toEqual([['timer.set', { seconds: 600 }]]);
    r.dispose();
  });

  it.each([
    { name: 'a short segment is transcribed whole at once', mode: 'wake-word' as const, seconds: 2.2, openedBy: 'vad' as const, calls: [2.5] },
    { name: 'always-listen: every segment whole', mode: 'always-listen' as const, seconds: 6, openedBy: 'vad' as const, calls: [6.3] },
    { name: 'push-to-talk: whole', mode: 'wake-word' as const, seconds: 6, openedBy: 'ptt' as const, calls: [6.3] },
  ])('$name', async ({ mode, seconds, openedBy, calls }) => {
    const r = rig({ mode });
    await r.handled(RADIO, seconds, openedBy);
    expect(r.engine.seconds).toEqual(calls);
    r.dispose();
  });

  it('a command closed by its hangover is measured by its speech, not its trailing silence: one inference, not an opening and then the whole', async () => {
    const r = rig();
    // 0.3 s pre-roll + 2.5 s of speech + 0.6 s hangover: 3.4 s of audio, 2.5 s said.
    await r.handled('computer set a timer for ten minutes', 3.1);
    expect(r.engine.seconds).toEqual([3.4]);
    expect(r.actions().map((a) => [a.name, a.args])).toEqual([['timer.set', { seconds: 600 }]]);
    r.dispose();
  });

  it('while a frame above the base waits for its answer, a long segment is transcribed whole', async () => {
    const r = rig();
    await r.handled('computer', 0.8);
    expect(r.path.wantsWholeTranscript()).toBe(true);
    await r.handled('set a timer for ten minutes and then tell me when it is done', 5);
    expect(r.engine.seconds).toEqual([1.1, 5.3]);
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set']);
    r.dispose();
  });
});

describe('while a timer rings', () => {
  it('radio still gets only its opening checked; a long segment opening with "ok thanks" is transcribed whole', async () => {
    const r = rig();
    await r.handled('computer set a timer for 1 minute', 3);
    await r.settle(61_000);
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set', 'timer.done']);
    expect(r.path.commands.core.timers.ringing).toBe(true);
    const before = r.engine.calls.length;
    await r.handled(RADIO, 6);
    expect(r.engine.seconds.slice(before)).toEqual([2.3]);
    await r.handled('ok thanks that is enough now the pasta is ready to go', 5);
    expect(r.engine.seconds.slice(before + 1)).toEqual([2.3, 5.3]);
    r.dispose();
  });
});

describe('priority and bounds', () => {
  it('a push-to-talk segment goes before radio queued earlier', async () => {
    const r = rig({ costMs: () => 1000 });
    const done: number[] = [];
    const first = r.say(RADIO, 6).then(() => done.push(0));
    await r.settle(100);
    const all = [
      first,
      ...[r.say(RADIO, 6), r.say(RADIO, 6), r.say('computer set a timer for five minutes', 3, 'ptt')].map((p, i) => p.then(() => done.push(i + 1))),
    ];
    await r.settle(6000);
    await Promise.all(all);
    // The first was already running; the press goes next.
    expect(done).toEqual([0, 3, 1, 2]);
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set']);
    r.dispose();
  });

  it('segments that waited past stt.queue.maxWaitMs are stored for replay with the reason backlog, not transcribed', async () => {
    // 4 s per opening: the 4th segment in line starts after 12 s.
    const r = rig({ costMs: () => 4000, queue: { maxWaitMs: 10_000 } });
    const all = Array.from({ length: 5 }, () => r.say(RADIO, 6));
    expect(r.path.load()).toMatchObject({ depth: 5, audioSec: 31.5, behind: false });
    await r.settle(11_000);
    expect(r.path.load().behind).toBe(true);
    await r.settle(10_000);
    await Promise.all(all);
    expect(r.engine.seconds).toHaveLength(3);
    expect(r.of('segment.skipped').map((s) => s.reason)).toEqual(['no-wake-phrase', 'no-wake-phrase', 'no-wake-phrase', 'backlog-wait', 'backlog-wait']);
    r.dispose();
    const rows = r.rows();
    expect(rows).toHaveLength(5);
    expect(rows.every((x) => x.audio === 1)).toBe(true);
    expect(rows.slice(3).map((x) => x.reasons)).toEqual([
      expect.stringMatching(/^backlog: waited 12\.\d s/),
      expect.stringMatching(/^backlog: waited 12\.\d s/),
    ]);
  });

  it('past stt.queue.maxAudioMb the oldest queued segments are stored untranscribed at once, never dropped', async () => {
    // 0.5 MB holds 2 segments of 10 s (320 KB each) at most: the 3rd pushes the oldest waiting out.
    const r = rig({ costMs: () => 1000, queue: { maxAudioMb: 0.5 } });
    const all = Array.from({ length: 6 }, () => r.say(RADIO, 10));
    await r.settle(100);
    expect(r.path.load().bytes).toBeLessThanOrEqual(0.5 * 1024 * 1024);
    expect(r.path.load().behind).toBe(true);
    await r.settle(5000);
    await Promise.all(all);
    const skipped = r.of('segment.skipped').map((s) => `${s.segment}:${s.reason}`);
    expect(skipped.filter((s) => s.endsWith('backlog-memory')).length).toBeGreaterThanOrEqual(3);
    r.dispose();
    const rows = r.rows();
    expect(rows).toHaveLength(6);
    expect(rows.every((x) => x.audio === 1)).toBe(true);
    expect(rows.filter((x) => x.reasons.startsWith('backlog: too much audio'))).toHaveLength(skipped.filter((s) => s.endsWith('backlog-memory')).length);
  });
});

describe('the audio bound counts both tracks', () => {
  it('a segment heard over playback holds its raw track too: two of them waiting pass 0.5 MB', async () => {
    // 5 s segments: 170 KB cleaned + 170 KB raw each. Counting only the cleaned audio, two waiting
    // (340 KB) would look within the bound while 680 KB were held.
    const r = rig({ costMs: () => 1000, queue: { maxAudioMb: 0.5 } });
    const all = Array.from({ length: 3 }, () => r.say(RADIO, 5, 'vad', true));
    await r.settle(100);
    expect(r.path.load().bytes).toBeLessThanOrEqual(0.5 * 1024 * 1024);
    await r.settle(5000);
    await Promise.all(all);
    expect(r.of('segment.skipped').filter((s) => s.reason === 'backlog-memory').length).toBeGreaterThanOrEqual(1);
    r.dispose();
    expect(r.rows()).toHaveLength(3);
  });
});

describe('local-first in a loud room (Whisper, then the cloud)', () => {
  it('Whisper blank on the opening: the cloud hears each segment once, whole — never the opening as well', async () => {
    const r = rig({ local: 'blank' });
    await r.handled(RADIO, 6);
    await r.handled('computer set a timer for ten minutes please and thank you', 5);
    // Whisper judged only the openings; the cloud got one request per segment.
    expect(r.engine.seconds).toEqual([2.3, 2.3]);
    expect(r.cloud.seconds).toEqual([6.3, 5.3]);
    expect(r.actions().map((a) => [a.name, a.args])).toEqual([['timer.set', { seconds: 600 }]]);
    const handled = r.of('segment.handled');
    expect(handled.map((h) => h.fate)).toEqual(['dispatched', 'dispatched']);
    expect(r.of('utterance.final').map((u) => u.fallbackReason)).toEqual([
      expect.stringMatching(/^whisper non-speech on clear speech .*, on its opening$/),
      expect.stringMatching(/on its opening$/),
    ]);
    r.dispose();
    expect(r.rows()).toHaveLength(2);
  });

  it('a command said while Whisper still runs an inference past its deadline goes to the cloud at once, not after another deadline', async () => {
    // Whisper three times slower than real time (a Pi in a CPU quota): radio's opening passes its
    // 4.3 s deadline and whisper.cpp works on it for 6.9 s. The command closes at 5 s, meanwhile.
    const r = rig({ local: 'slow', costMs: (sec) => 3000 * sec });
    const radio = r.say(RADIO, 6);
    await r.settle(5000);
    const command = r.say('computer set a timer for five minutes', 3);
    await r.settle(20_000);
    await Promise.all([radio, command]);
    const handled = r.of('segment.handled');
    expect(handled.map((h) => h.segment)).toEqual([0, 1]);
    // Acted on within the cloud's answer time of its close, not behind Whisper (main: about 10 s).
    expect(handled[1]!.actionMs).toBeLessThan(500);
    expect(r.actions().map((a) => [a.name, a.args])).toEqual([['timer.set', { seconds: 300 }]]);
    // Whisper never started on the command; its reason is in the records.
    expect(r.engine.seconds).toEqual([2.3]);
    expect(r.cloud.seconds).toEqual([6.3, 3.3]);
    expect(r.of('stt.fallback').map((f) => f.reason)).toEqual([
      'whisper deadline: no result within 4300 ms, on its opening',
      'whisper unavailable: busy with an inference past the deadline (it cannot be stopped)',
    ]);
    r.dispose();
  });

  it('local-only, the same slow Whisper: the command waits for it (there is no one else to ask)', async () => {
    const r = rig({ costMs: (sec) => 3000 * sec });
    const radio = r.say(RADIO, 6);
    await r.settle(5000);
    const command = r.say('computer set a timer for five minutes', 3);
    await r.settle(40_000);
    await Promise.all([radio, command]);
    // The command (3 s, 0.6 s of it the hangover's silence) is short enough to go whole at once.
    expect(r.engine.seconds).toEqual([2.3, 3.3]);
    expect(r.actions().map((a) => a.name)).toEqual(['timer.set']);
    r.dispose();
  });
});
