import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import type { Utterance } from '../../src/core/utterance.js';
import type { SegmentStt } from '../../src/stt/events.js';
import type { SttMode } from '../../src/stt/fallback-policy.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import { SttService, type CloudEngine, type LocalEngine } from '../../src/stt/service.js';
import { EngineFailure, type AsrEvent, type Transcript } from '../../src/stt/types.js';

type Behaviour = 'ok' | 'blank' | 'thanks' | 'error' | 'deadline' | 'connect' | 'auth' | 'no-final' | 'closed';

function transcript(engine: 'whisper' | 'deepgram', rawText: string): Transcript {
  return { engine, rawText, text: rawText.replace(/\[[^\]]*\]/g, '').trim(), ms: 40 };
}

function outcome(engine: 'whisper' | 'deepgram', b: Behaviour, said: string): Promise<Transcript> {
  switch (b) {
    case 'ok':
      return Promise.resolve(transcript(engine, said));
    case 'blank':
      return Promise.resolve(transcript(engine, engine === 'whisper' ? '[BLANK_AUDIO]' : ''));
    case 'thanks':
      return Promise.resolve(transcript(engine, 'Thanks for watching!'));
    case 'error':
      return Promise.reject(new EngineFailure(engine, 'error', 'boom'));
    default:
      return Promise.reject(new EngineFailure(engine, b, `${b} happened`));
  }
}

class FakeWhisper implements LocalEngine {
  calls = 0;
  constructor(public behaviour: Behaviour[]) {}
  transcribe(): Promise<Transcript> {
    const b = this.behaviour[Math.min(this.calls, this.behaviour.length - 1)]!;
    this.calls++;
    return outcome('whisper', b, 'turn on the lights');
  }
}

class FakeDeepgram implements CloudEngine {
  calls = 0;
  constructor(public behaviour: Behaviour[]) {}
  openStream(_id: number | string, onEvent: (e: AsrEvent) => void) {
    const b = this.behaviour[Math.min(this.calls, this.behaviour.length - 1)]!;
    this.calls++;
    return {
      write: () => {},
      finish: () => {
        if (b === 'ok') {
          onEvent({ kind: 'partial', text: 'turn on', words: [], confidence: 0.9, start: 0, duration: 0.5, speechFinal: false, fromFinalize: false, receivedAt: 0 });
          onEvent({ kind: 'final', text: 'Turn on the lights.', words: [], confidence: 0.97, start: 0, duration: 1, speechFinal: true, fromFinalize: true, receivedAt: 0 });
        }
        return outcome('deepgram', b, 'Turn on the lights.');
      },
    };
  }
}

function service(mode: SttMode, whisper: FakeWhisper | null, deepgram: FakeDeepgram | null, clock = new VirtualClock()) {
  const bus = new Bus();
  const finals: Utterance[] = [];
  const dropped: Utterance[] = [];
  const fallbacks: unknown[] = [];
  bus.on('utterance.final', (u) => finals.push(u));
  bus.on('utterance.dropped', (u) => dropped.push(u));
  bus.on('stt.fallback', (f) => fallbacks.push(f));
  const svc = new SttService({
    mode,
    whisper,
    deepgram,
    missing: deepgram ? {} : { deepgram: 'DEEPGRAM_API_KEY is not set' },
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: { phrases: DEFAULT_HALLUCINATIONS },
    utterance: { silenceGapMs: 750, punctuationPauseMs: 300, maxDurationMs: 12_000, maxChars: 500, stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true } },
    clock,
    logger: memoryLogger(),
    bus,
  });
  return { svc, bus, finals, dropped, fallbacks, clock };
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
  { mode: 'local-first', whisper: 'blank', deepgram: 'ok', engine: 'deepgram', text: 'Turn on the lights.', fallback: /whisper non-speech on clear speech.*\[BLANK_AUDIO\].*VAD peak 0\.95/, calls: [1, 1] },
  { mode: 'local-first', whisper: 'thanks', deepgram: 'ok', engine: 'deepgram', text: 'Turn on the lights.', fallback: /whisper hallucination on clear speech/, calls: [1, 1] },
  { mode: 'local-first', whisper: 'blank', deepgram: 'ok', peak: 0.55, engine: 'whisper', text: '', drop: /non-speech: \[BLANK_AUDIO\]/, calls: [1, 0] },
  { mode: 'local-first', whisper: 'error', deepgram: 'connect', engine: 'deepgram', text: '', drop: /whisper error: boom; deepgram connect: connect happened/, calls: [1, 1] },
  { mode: 'local-first', whisper: 'error', deepgram: null, engine: 'whisper', text: '', drop: /whisper error: boom; no deepgram: DEEPGRAM_API_KEY is not set/, calls: [1, 0] },
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
  it.each(MATRIX.map((r) => [`${r.mode}: whisper ${r.whisper ?? 'absent'}, deepgram ${r.deepgram ?? 'absent'}${r.peak ? ` (VAD peak ${r.peak})` : ''}`, r] as const))('%s', async (_name, r) => {
    const whisper = r.whisper ? new FakeWhisper([r.whisper]) : null;
    const deepgram = r.deepgram ? new FakeDeepgram([r.deepgram]) : null;
    const { svc, finals, dropped } = service(r.mode, whisper, deepgram);
    const result = await svc.handleSegment(seg(3, r.peak ?? 0.95));
    const all = [...finals, ...dropped];
    expect(all).toHaveLength(1);
    const u = all[0]!;
    expect(u.engine).toBe(r.engine);
    expect(u.segmentId).toBe(3);
    expect(u.text).toBe(r.text);
    if (r.text) expect(finals).toHaveLength(1);
    else expect(u.dropReason).toMatch(r.drop!);
    if (r.fallback) expect(u.fallbackReason).toMatch(r.fallback);
    else expect(u.fallbackReason).toBeUndefined();
    expect([whisper?.calls ?? 0, deepgram?.calls ?? 0]).toEqual(r.calls);
    expect(result.utterances).toEqual(all);
  });

  it('records every attempt in order for the store, the fallback engine after the one that failed', async () => {
    const { svc, bus } = service('local-first', new FakeWhisper(['blank']), new FakeDeepgram(['ok']));
    const seen: SegmentStt[] = [];
    bus.on('stt.segment', (s) => seen.push(s));
    const r = await svc.handleSegment(seg(0));
    expect(seen).toEqual([r]);
    expect(r.engine).toBe('deepgram');
    expect(r.attempts.map((a) => [a.engine, a.outcome, a.rawText])).toEqual([
      ['whisper', 'ok', '[BLANK_AUDIO]'],
      ['deepgram', 'ok', 'Turn on the lights.'],
    ]);
    expect(r.attempts[0]!.droppedReason).toMatch(/non-speech on clear speech/);
    expect(r.attempts[1]!.fallbackReason).toMatch(/non-speech on clear speech/);
  });

  it('publishes stt.fallback with from, to and reason', async () => {
    const { svc, fallbacks } = service('cloud-first', new FakeWhisper(['ok']), new FakeDeepgram(['connect']));
    await svc.handleSegment(seg(5));
    expect(fallbacks).toEqual([{ segmentId: 5, from: 'deepgram', to: 'whisper', reason: 'deepgram connect: connect happened' }]);
  });
});

describe('circuit breaker in the service', () => {
  it('after 3 cloud failures the cloud is skipped for 30 s, then one probe', async () => {
    const clock = new VirtualClock();
    const whisper = new FakeWhisper(['error']);
    const deepgram = new FakeDeepgram(['connect', 'connect', 'connect', 'ok']);
    const { svc, dropped, finals } = service('local-first', whisper, deepgram, clock);
    for (let i = 0; i < 4; i++) await svc.handleSegment(seg(i));
    expect(deepgram.calls).toBe(3);
    expect(svc.breaker.state).toBe('open');
    expect(dropped[3]!.dropReason).toMatch(/whisper error: boom; deepgram unavailable: circuit open after deepgram connect/);
    clock.advanceBy(30_000);
    await svc.handleSegment(seg(4));
    expect(deepgram.calls).toBe(4);
    expect(svc.breaker.state).toBe('closed');
    expect(finals.map((u) => [u.segmentId, u.engine])).toEqual([[4, 'deepgram']]);
  });

  it('a rejected key opens the circuit on the first failure: the next segment goes straight to Whisper', async () => {
    const deepgram = new FakeDeepgram(['auth', 'ok']);
    const whisper = new FakeWhisper(['ok']);
    const { svc, finals } = service('cloud-first', whisper, deepgram);
    await svc.handleSegment(seg(0));
    await svc.handleSegment(seg(1));
    expect(deepgram.calls).toBe(1);
    expect(finals.map((u) => u.fallbackReason)).toEqual([expect.stringMatching(/^deepgram auth/), expect.stringMatching(/^deepgram unavailable: circuit open after deepgram auth/)]);
  });
});
