import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import type { Utterance } from '../../src/core/utterance.js';
import type { EngineSlot, SttEngine } from '../../src/stt/engine.js';
import type { SegmentTranscript } from '../../src/stt/events.js';
import { engineOrder, type SttMode } from '../../src/stt/fallback-policy.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import type { AsrEvent } from '../../src/stt/types.js';
import { asrResult } from '../support/asr-events.js';
import { ScriptedEngine, StreamingEngine, type Answer } from '../kit/stt.js';

type Behaviour = 'ok' | 'blank' | 'thanks' | 'error' | 'deadline' | 'connect' | 'auth' | 'no-final' | 'closed';

/** What each behaviour is as an engine's answer (the kit's scripted engines give it). */
function answerOf(engine: 'whisper' | 'deepgram', b: Behaviour | 'part-way', said: string): Answer {
  switch (b) {
    case 'ok':
      return engine === 'deepgram'
        ? {
            raw: said,
            ms: 40,
            events: [
              { kind: 'partial', text: 'turn on', words: [], confidence: 0.9, start: 0, duration: 0.5, speechFinal: false, fromFinalize: false, receivedAt: 0 },
              final(said, 0, 1, true),
            ],
          }
        : { raw: said, ms: 40 };
    case 'blank':
      return { raw: engine === 'whisper' ? '[BLANK_AUDIO]' : '', ms: 40 };
    case 'thanks':
      return { raw: 'Thanks for watching!', ms: 40 };
    case 'error':
      return { fail: 'error', message: 'boom' };
    case 'part-way':
      // Deepgram finalised the first words during the speech, then the socket died.
      return { fail: 'closed', message: 'socket closed (1006)', events: [final('Turn on', 0, 0.6, false)] };
    default:
      return { fail: b };
  }
}

const final = (text: string, start: number, end: number, fromFinalize: boolean): AsrEvent => asrResult('final', text, start, end, fromFinalize);

/** Whisper behaving as told, call by call (the last repeats). */
const fakeWhisper = (behaviour: Behaviour[], o: { held?: boolean } = {}) =>
  new ScriptedEngine({ ...o, script: behaviour.map((b) => answerOf('whisper', b, 'turn on the lights')) });
/** A cloud engine that streams: its behaviour decides what finish() does; 'part-way' sends a final first. */
const fakeDeepgram = (behaviour: (Behaviour | 'part-way')[]) =>
  new StreamingEngine({ script: behaviour.map((b) => answerOf('deepgram', b, 'Turn on the lights.')) });

function service(mode: SttMode, whisper: ScriptedEngine | null, deepgram: StreamingEngine | null, clock = new VirtualClock()) {
  const bus = new Bus();
  const heard: Utterance[] = [];
  const dropped: { reason: string; engine: string | null }[] = [];
  const fallbacks: unknown[] = [];
  bus.on('utterance.final', (u) => heard.push(u));
  bus.on('utterance.dropped', (u) => dropped.push(u));
  bus.on('stt.fallback', (f) => fallbacks.push(f));
  const available: Record<string, SttEngine | null> = { whisper, deepgram };
  const engines: EngineSlot[] = engineOrder(mode).map((id) => {
    const engine = available[id];
    return engine ? { id, engine } : { id, engine: null, missing: id === 'deepgram' ? 'DEEPGRAM_API_KEY is not set' : 'no model' };
  });
  const svc = new Transcriber({
    engines,
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: { phrases: DEFAULT_HALLUCINATIONS },
    stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
    clock,
    logger: memoryLogger(),
    bus,
  });
  return { svc, bus, heard, dropped, fallbacks, clock };
}

const seg = (index: number, maxProb = 0.95) => ({ index, pcm: new Int16Array(16000), maxProb });

interface Row {
  mode: SttMode;
  whisper: Behaviour | null;
  deepgram: Behaviour | null;
  peak?: number;
  /** Expected: the engine of the one utterance, its text ('' = dropped), and reasons it must carry. */
  engine: 'whisper' | 'deepgram';
  text: string;
  fallback?: RegExp;
  drop?: RegExp;
  calls: [whisper: number, deepgram: number];
}

const MATRIX: Row[] = [
  { mode: 'local-first', whisper: 'ok', deepgram: 'ok', engine: 'whisper', text: 'turn on the lights', calls: [1, 0] },
  { mode: 'local-first', whisper: 'error', deepgram: 'ok', engine: 'deepgram', text: 'Turn on the lights.', fallback: /^whisper error: boom$/, calls: [1, 1] },
  { mode: 'local-first', whisper: 'deadline', deepgram: 'ok', engine: 'deepgram', text: 'Turn on the lights.', fallback: /whisper deadline/, calls: [1, 1] },
  {
    mode: 'local-first',
    whisper: 'blank',
    deepgram: 'ok',
    engine: 'deepgram',
    text: 'Turn on the lights.',
    fallback: /whisper non-speech on clear speech.*\[BLANK_AUDIO\].*VAD peak 0\.95/,
    calls: [1, 1],
  },
  {
    mode: 'local-first',
    whisper: 'thanks',
    deepgram: 'ok',
    engine: 'deepgram',
    text: 'Turn on the lights.',
    fallback: /whisper hallucination on clear speech/,
    calls: [1, 1],
  },
  { mode: 'local-first', whisper: 'blank', deepgram: 'ok', peak: 0.55, engine: 'whisper', text: '', drop: /non-speech: \[BLANK_AUDIO\]/, calls: [1, 0] },
  {
    mode: 'local-first',
    whisper: 'error',
    deepgram: 'connect',
    engine: 'deepgram',
    text: '',
    drop: /whisper error: boom; deepgram connect: connect happened/,
    calls: [1, 1],
  },
  {
    mode: 'local-first',
    whisper: 'error',
    deepgram: null,
    engine: 'whisper',
    text: '',
    drop: /whisper error: boom; no deepgram: DEEPGRAM_API_KEY is not set/,
    calls: [1, 0],
  },
  { mode: 'local-first', whisper: 'blank', deepgram: null, engine: 'whisper', text: '', drop: /non-speech: \[BLANK_AUDIO\]/, calls: [1, 0] },
  { mode: 'local-first', whisper: 'blank', deepgram: 'blank', engine: 'deepgram', text: '', fallback: /whisper non-speech/, drop: /blank/, calls: [1, 1] },
  { mode: 'cloud-first', whisper: 'ok', deepgram: 'ok', engine: 'deepgram', text: 'Turn on the lights.', calls: [0, 1] },
  { mode: 'cloud-first', whisper: 'ok', deepgram: 'connect', engine: 'whisper', text: 'turn on the lights', fallback: /^deepgram connect/, calls: [1, 1] },
  { mode: 'cloud-first', whisper: 'ok', deepgram: 'no-final', engine: 'whisper', text: 'turn on the lights', fallback: /^deepgram no-final/, calls: [1, 1] },
  { mode: 'cloud-first', whisper: 'ok', deepgram: 'closed', engine: 'whisper', text: 'turn on the lights', fallback: /^deepgram closed/, calls: [1, 1] },
  { mode: 'cloud-first', whisper: 'ok', deepgram: 'error', engine: 'whisper', text: 'turn on the lights', fallback: /^deepgram error/, calls: [1, 1] },
  { mode: 'cloud-first', whisper: 'ok', deepgram: 'blank', engine: 'deepgram', text: '', drop: /blank/, calls: [0, 1] },
  { mode: 'local-only', whisper: 'error', deepgram: 'ok', engine: 'whisper', text: '', drop: /^whisper error: boom$/, calls: [1, 0] },
  { mode: 'cloud-only', whisper: 'ok', deepgram: 'connect', engine: 'deepgram', text: '', drop: /^deepgram connect/, calls: [0, 1] },
];

describe('fallback policy: every mode and failure', () => {
  it.each(
    MATRIX.map((r) => [`${r.mode}: whisper ${r.whisper ?? 'absent'}, deepgram ${r.deepgram ?? 'absent'}${r.peak ? ` (VAD peak ${r.peak})` : ''}`, r] as const),
  )('%s', async (_name, r) => {
    const whisper = r.whisper ? fakeWhisper([r.whisper]) : null;
    const deepgram = r.deepgram ? fakeDeepgram([r.deepgram]) : null;
    const { svc, heard, dropped } = service(r.mode, whisper, deepgram);
    const result = await svc.transcribe(seg(3, r.peak ?? 0.95));
    // One result per segment, heard or dropped, never both.
    expect(heard.length + dropped.length).toBe(1);
    const h = result.hearing;
    if (r.text) {
      expect(h.kind).toBe('heard');
      if (h.kind !== 'heard') return;
      expect(heard).toEqual([h.utterance]);
      expect(h.utterance).toMatchObject({ engine: r.engine, segmentId: 3, text: r.text });
      if (r.fallback) expect(h.utterance.fallbackReason).toMatch(r.fallback);
      else expect(h.utterance.fallbackReason).toBeUndefined();
    } else {
      expect(h.kind).toBe('dropped');
      if (h.kind !== 'dropped') return;
      expect(h.reason).toMatch(r.drop!);
      if (r.fallback) expect(result.attempts.at(-1)!.fallbackReason).toMatch(r.fallback);
    }
    expect([whisper?.calls.length ?? 0, deepgram?.calls.length ?? 0]).toEqual(r.calls);
  });

  it('records every attempt in order for the store, the fallback engine after the one that failed', async () => {
    const { svc, bus } = service('local-first', fakeWhisper(['blank']), fakeDeepgram(['ok']));
    const seen: SegmentTranscript[] = [];
    bus.on('stt.segment', (s) => seen.push(s));
    const r = await svc.transcribe(seg(0));
    expect(seen).toEqual([r]);
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { engine: 'deepgram' } });
    expect(r.attempts.map((a) => [a.engine, a.outcome, a.rawText])).toEqual([
      ['whisper', 'ok', '[BLANK_AUDIO]'],
      ['deepgram', 'ok', 'Turn on the lights.'],
    ]);
    expect(r.attempts[0]!.droppedReason).toMatch(/non-speech on clear speech/);
    expect(r.attempts[1]!.fallbackReason).toMatch(/non-speech on clear speech/);
  });

  it('publishes stt.fallback with from, to and reason', async () => {
    const { svc, fallbacks } = service('cloud-first', fakeWhisper(['ok']), fakeDeepgram(['connect']));
    await svc.transcribe(seg(5));
    expect(fallbacks).toEqual([{ segmentId: 5, from: 'deepgram', to: 'whisper', reason: 'deepgram connect: connect happened' }]);
  });
});

describe('circuit breaker in the transcriber', () => {
  it('after 3 cloud failures the cloud is skipped for 30 s, then one probe', async () => {
    const clock = new VirtualClock();
    const whisper = fakeWhisper(['error']);
    const deepgram = fakeDeepgram(['connect', 'connect', 'connect', 'ok']);
    const { svc, dropped, heard } = service('local-first', whisper, deepgram, clock);
    for (let i = 0; i < 4; i++) await svc.transcribe(seg(i));
    expect(deepgram.calls).toHaveLength(3);
    expect(svc.breaker('deepgram')!.state).toBe('open');
    expect(dropped[3]!.reason).toMatch(/whisper error: boom; deepgram unavailable: circuit open after deepgram connect/);
    clock.advanceBy(30_000);
    await svc.transcribe(seg(4));
    expect(deepgram.calls).toHaveLength(4);
    expect(svc.breaker('deepgram')!.state).toBe('closed');
    expect(heard.map((u) => [u.segmentId, u.engine])).toEqual([[4, 'deepgram']]);
  });

  it('a rejected key opens the circuit on the first failure: the next segment goes straight to Whisper', async () => {
    const deepgram = fakeDeepgram(['auth', 'ok']);
    const whisper = fakeWhisper(['ok']);
    const { svc, heard } = service('cloud-first', whisper, deepgram);
    await svc.transcribe(seg(0));
    await svc.transcribe(seg(1));
    expect(deepgram.calls).toHaveLength(1);
    expect(heard.map((u) => u.fallbackReason)).toEqual([
      expect.stringMatching(/^deepgram auth/),
      expect.stringMatching(/^deepgram unavailable: circuit open after deepgram auth/),
    ]);
  });
});

describe('one segment, one transcript: the seams where words were lost, split or doubled', () => {
  it('a cloud stream that fails after a final: Whisper redoes the whole segment, the partial is recorded but never heard', async () => {
    const whisper = fakeWhisper(['ok']);
    const deepgram = fakeDeepgram(['part-way']);
    const { svc, heard } = service('cloud-first', whisper, deepgram);
    const live = svc.open('@0', new Int16Array(8000));
    expect(live).not.toBeNull();
    const r = await svc.transcribe(seg(7), live);
    // Exactly one utterance, from the engine that transcribed the whole segment.
    expect(heard.map((u) => [u.engine, u.text])).toEqual([['whisper', 'turn on the lights']]);
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'turn on the lights', fallbackReason: expect.stringMatching(/^deepgram closed/) } });
    // The viewer still shows what the cloud had heard before it failed, as a failed attempt.
    expect(r.attempts.map((a) => [a.engine, a.outcome, a.rawText])).toEqual([
      ['deepgram', 'failed', 'Turn on'],
      ['whisper', 'ok', 'turn on the lights'],
    ]);
    expect(r.attempts[0]!.droppedReason).toMatch(/failed part-way, not used/);
  });

  it('a transcript the hallucination filter drops carries no utterance at all', async () => {
    // Unclear audio (VAD peak under clearSpeechProb): Whisper's answer stands, and is dropped.
    const { svc, heard, dropped } = service('local-only', fakeWhisper(['thanks']), null);
    const r = await svc.transcribe(seg(1, 0.5));
    expect(heard).toEqual([]);
    expect(r.hearing).toEqual({ kind: 'dropped', reason: 'hallucination: "thanks for watching"', rawText: 'Thanks for watching!', engine: 'whisper' });
    expect(dropped).toHaveLength(1);
  });

  it('a live stream opened for a segment that is then cancelled is thrown away, and a probe does not hang the circuit', async () => {
    const clock = new VirtualClock();
    const deepgram = fakeDeepgram(['connect', 'connect', 'connect', 'ok']);
    const { svc } = service('cloud-only', null, deepgram, clock);
    for (let i = 0; i < 3; i++) await svc.transcribe(seg(i));
    expect(svc.breaker('deepgram')!.state).toBe('open');
    expect(svc.open('@1', new Int16Array(10))).toBeNull();
    clock.advanceBy(30_000);
    const probe = svc.open('@2', new Int16Array(10));
    expect(probe).not.toBeNull();
    svc.cancel(probe, 'too short');
    // The probe never completed: the circuit is open again, not stuck half-open.
    expect(svc.breaker('deepgram')!.state).toBe('open');
  });
});

describe('preemptive transcription: Whisper starts at a pause, the close finds it ready', () => {
  /** Whisper that answers only when let go: the close can come while it is still at work. */
  const slowWhisper = (behaviour: Behaviour[]) => fakeWhisper(behaviour, { held: true });

  it('the person had stopped: the speculative transcript is used, with no second inference', async () => {
    const whisper = slowWhisper(['ok']);
    const { svc, bus } = service('local-only', whisper, null);
    const seen: string[] = [];
    bus.on('stt.preemptive', (e) => seen.push(e.outcome));
    expect(svc.preempt('@0', new Int16Array(12_000))).toBe(true);
    const r = svc.transcribe({ index: 0, pcm: new Int16Array(16_000), maxProb: 0.95 }, null, '@0');
    whisper.go(1);
    const done = await r;
    expect(whisper.calls).toHaveLength(1);
    expect(whisper.heard).toEqual([12_000]);
    expect(done.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'turn on the lights' } });
    // What /metrics counts: one started, one used, none thrown away.
    expect(seen).toEqual(['started', 'used']);
  });

  it('they went on: the speculative transcript is thrown away and the whole segment transcribed', async () => {
    const whisper = slowWhisper(['ok']);
    const { svc, bus } = service('local-only', whisper, null);
    const seen: string[] = [];
    bus.on('stt.preemptive', (e) => seen.push(e.outcome));
    svc.preempt('@0', new Int16Array(12_000));
    svc.discardPreempt('@0');
    // At most one in flight: a second pause while the first still runs starts nothing.
    expect(svc.preempt('@0', new Int16Array(20_000))).toBe(false);
    whisper.go(1);
    await new Promise((r) => setImmediate(r));
    const r = svc.transcribe({ index: 0, pcm: new Int16Array(30_000), maxProb: 0.95 }, null, '@0');
    await new Promise((r) => setImmediate(r));
    whisper.go(1);
    await r;
    expect(whisper.heard).toEqual([12_000, 30_000]);
    // What /metrics counts: one started, none used, one thrown away (and not counted twice at the close).
    expect(seen).toEqual(['started', 'discarded']);
  });

  it('nothing speculative for a streaming first engine (it is already done at the close)', () => {
    const { svc } = service('cloud-first', fakeWhisper(['ok']), fakeDeepgram(['ok']));
    expect(svc.preempt('@0', new Int16Array(100))).toBe(false);
  });
});
