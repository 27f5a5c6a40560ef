import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import type { EngineSlot, SttEngine } from '../../src/stt/engine.js';
import { engineOrder, type SttMode } from '../../src/stt/fallback-policy.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import type { SegmentAudio, Transcript } from '../../src/stt/types.js';
import { ScriptedEngine } from '../kit/stt.js';

/**
 * Two defects of a loud room:
 * - the opening check asked the cloud about the opening and then again about the whole segment; it is
 *   now asked of the local engine only, and a local blank or failure sends the whole to the cloud once;
 * - a segment waited behind Whisper inferences already given up on (whisper.cpp cannot be stopped),
 *   then overran its own deadline; with a fallback engine it now goes there at once.
 */

type Answer = 'words' | 'blank' | 'deadline';

/** Whisper's place: the kit's scripted engine, with what it reports when asked whether it would answer in time. */
class LocalDouble extends ScriptedEngine {
  /** What the engine reports (see SttEngine.unavailableFor): calls past their deadline it still runs, or a forecast of its own. */
  abandoned = 0;
  forecast: string | null = null;
  /** (samples, waitedMs) of each unavailableFor question. */
  asked: Array<[number, number]> = [];
  /** Virtual ms each call takes (advanced on the transcriber's clock as it answers). */
  work: { clock: VirtualClock; ms: number } | null = null;
  unavailableFor(samples: number, waitedMs: number): string | null {
    this.asked.push([samples, waitedMs]);
    return this.abandoned > 0
      ? `busy with ${this.abandoned === 1 ? 'an inference' : `${this.abandoned} inferences`} past the deadline (it cannot be stopped)`
      : this.forecast;
  }
  constructor(answer: Answer, text = 'computer set a timer') {
    super({
      script: [
        answer === 'deadline' ? { fail: 'deadline', message: 'no result within 4300 ms' } : { raw: answer === 'blank' ? '[BLANK_AUDIO]' : text, ms: 30 },
      ],
    });
  }
  override transcribe(audio: SegmentAudio): Promise<Transcript> {
    if (this.work) this.work.clock.advanceTo(this.work.clock.now() + this.work.ms);
    return super.transcribe(audio);
  }
}

/** The cloud: hears the whole command in 200 ms, or cannot be reached. */
const cloudDouble = (fail = false) =>
  new ScriptedEngine({
    id: 'deepgram',
    script: [fail ? { fail: 'connect', message: 'no socket within 1500 ms' } : { raw: 'Computer, set a timer for five minutes.', ms: 200 }],
  });
type CloudDouble = ScriptedEngine;

function service(mode: SttMode, whisper: LocalDouble, deepgram: CloudDouble | null) {
  const bus = new Bus();
  const clock = new VirtualClock();
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  bus.onAny((type, payload) => events.push({ type, payload: payload as Record<string, unknown> }));
  const available: Record<string, SttEngine | null> = { whisper, deepgram };
  const engines: EngineSlot[] = engineOrder(mode).map((id) => {
    const engine = available[id];
    return engine ? { id, engine } : { id, engine: null, missing: 'DEEPGRAM_API_KEY is not set' };
  });
  const svc = new Transcriber({
    engines,
    clearSpeechProb: 0.8,
    breaker: { failures: 1, openMs: 30_000 },
    filter: { phrases: DEFAULT_HALLUCINATIONS },
    stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
    clock,
    logger: memoryLogger(),
    bus,
  });
  return { svc, clock, of: (type: string) => events.filter((e) => e.type === type).map((e) => e.payload) };
}

const WHOLE = 6 * 16_000;
const OPENING = 2.3 * 16_000;
const seg = (index: number, samples = WHOLE) => ({ index, pcm: new Int16Array(samples), maxProb: 0.95 });

describe("the opening check is the local engine's alone", () => {
  it('local words: judged on them; the cloud is not asked', async () => {
    const whisper = new LocalDouble('words');
    const deepgram = cloudDouble();
    const { svc } = service('local-first', whisper, deepgram);
    const check = await svc.opening({ ...seg(1, OPENING), maxTokens: 12 });
    expect(check).toMatchObject({ kind: 'judged', transcript: { hearing: { kind: 'heard', utterance: { text: 'computer set a timer' } } } });
    expect(deepgram.heard).toEqual([]);
  });

  it('local blank on clear speech: the cloud never hears the opening; the whole goes to it once, past Whisper', async () => {
    const whisper = new LocalDouble('blank');
    const deepgram = cloudDouble();
    const { svc, of } = service('local-first', whisper, deepgram);
    const check = await svc.opening({ ...seg(1, OPENING), maxTokens: 12 });
    expect(check.kind).toBe('whole');
    expect(deepgram.heard).toEqual([]);
    if (check.kind !== 'whole') return;
    const t = await svc.transcribe(seg(1), null, undefined, check.handOver!);
    expect(whisper.heard).toEqual([OPENING]);
    expect(deepgram.heard).toEqual([WHOLE]);
    expect(t.hearing).toMatchObject({
      kind: 'heard',
      utterance: { engine: 'deepgram', fallbackReason: expect.stringMatching(/^whisper non-speech on clear speech .*, on its opening$/) },
    });
    // The records: Whisper's opening, then the cloud's whole; one transcript event for the segment.
    expect(t.attempts.map((a) => [a.engine, a.outcome])).toEqual([
      ['whisper', 'ok'],
      ['deepgram', 'ok'],
    ]);
    expect(of('stt.segment')).toHaveLength(1);
    expect(of('stt.fallback')).toEqual([{ segmentId: 1, from: 'whisper', to: 'deepgram', reason: expect.stringMatching(/on its opening$/) }]);
  });

  it('a local failure on the opening (its deadline): the whole goes to the cloud once', async () => {
    const whisper = new LocalDouble('deadline');
    const deepgram = cloudDouble();
    const { svc } = service('local-first', whisper, deepgram);
    const check = await svc.opening({ ...seg(1, OPENING), maxTokens: 12 });
    expect(check).toMatchObject({ kind: 'whole', handOver: { after: 'whisper', reason: 'whisper deadline: no result within 4300 ms, on its opening' } });
    expect(deepgram.heard).toEqual([]);
  });

  it('local-only: the local answer on the opening stands (there is no one else to ask)', async () => {
    const whisper = new LocalDouble('blank');
    const { svc } = service('local-only', whisper, null);
    const check = await svc.opening({ ...seg(1, OPENING), maxTokens: 12 });
    expect(check).toMatchObject({ kind: 'judged', transcript: { hearing: { kind: 'dropped' } } });
  });

  it('a cloud engine first: no opening check at all (it would only cost a request)', async () => {
    const whisper = new LocalDouble('words');
    const deepgram = cloudDouble();
    const { svc } = service('cloud-first', whisper, deepgram);
    expect(await svc.opening({ ...seg(1, OPENING), maxTokens: 12 })).toEqual({ kind: 'whole', handOver: null });
    expect([whisper.heard, deepgram.heard]).toEqual([[], []]);
  });

  it('the local engine still busy with abandoned work: no opening check; the chain sends the whole past it', async () => {
    const whisper = new LocalDouble('words');
    whisper.abandoned = 1;
    const deepgram = cloudDouble();
    const { svc } = service('local-first', whisper, deepgram);
    const check = await svc.opening({ ...seg(1, OPENING), maxTokens: 12 });
    expect(check).toMatchObject({
      kind: 'whole',
      handOver: { after: 'whisper', reason: 'whisper unavailable: busy with an inference past the deadline (it cannot be stopped)', askLast: true },
    });
    expect(whisper.heard).toEqual([]);
    if (check.kind !== 'whole') return;
    await svc.transcribe(seg(1), null, undefined, check.handOver!);
    expect([whisper.heard, deepgram.heard]).toEqual([[], [WHOLE]]);
  });
});

// Measured: in a CPU quota, "computer set a timer for 10 minutes" closed while Whisper still
// worked on the talk before it; it waited, then Whisper took 4.7 s on it, and the timer was set 7.0 s
// after the words (target 6 s). The engine now forecasts from what its calls cost, counting the wait
// since the segment closed, and the transcriber asks the fallback first when it would be too late.
describe('a local engine that would answer past the deadline (its forecast)', () => {
  const LATE = 'it would answer past its deadline (waited 900 ms, 800 ms of work ahead, ~4700 ms for this segment; 5100 ms allowed)';

  it("the wait since the segment closed reaches the engine: the caller's queue and its turn here", async () => {
    const whisper = new LocalDouble('words');
    const { svc } = service('local-first', whisper, cloudDouble());
    await svc.transcribe({ ...seg(1), waitedMs: 2500 });
    await svc.opening({ ...seg(2, OPENING), maxTokens: 12, waitedMs: 700 });
    expect(whisper.asked).toEqual([
      [WHOLE, 2500],
      [OPENING, 700],
    ]);
  });

  it("the wait for its turn here counts for the daemon's segments, not for a file's (nobody waits on those)", async () => {
    const whisper = new LocalDouble('words');
    const { svc, clock } = service('local-first', whisper, cloudDouble());
    whisper.work = { clock, ms: 1200 };
    const first = svc.transcribe(seg(1));
    const live = svc.transcribe({ ...seg(2), waitedMs: 300 });
    const file = svc.transcribe(seg(3));
    await Promise.all([first, live, file]);
    expect(whisper.asked).toEqual([
      [WHOLE, 0],
      [WHOLE, 1500],
      [WHOLE, 0],
    ]);
  });

  it('a whole segment goes to the fallback at once; Whisper is not started on it', async () => {
    const whisper = new LocalDouble('words');
    whisper.forecast = LATE;
    const deepgram = cloudDouble();
    const { svc } = service('local-first', whisper, deepgram);
    const t = await svc.transcribe({ ...seg(3), waitedMs: 900 });
    expect([whisper.heard, deepgram.heard]).toEqual([[], [WHOLE]]);
    expect(t.hearing).toMatchObject({ kind: 'heard', utterance: { engine: 'deepgram', fallbackReason: `whisper unavailable: ${LATE}` } });
  });

  it('a long one skips its opening check: the whole goes to the fallback once, and Whisper is asked last only if that fails', async () => {
    const whisper = new LocalDouble('words');
    whisper.forecast = LATE;
    const deepgram = cloudDouble(true);
    const { svc } = service('local-first', whisper, deepgram);
    const check = await svc.opening({ ...seg(5, OPENING), maxTokens: 12 });
    expect(check.kind).toBe('whole');
    if (check.kind !== 'whole') return;
    const t = await svc.transcribe(seg(5), null, undefined, check.handOver!);
    expect(deepgram.heard).toEqual([WHOLE]);
    expect(whisper.heard).toEqual([WHOLE]);
    expect(t.attempts.map((a) => [a.engine, a.outcome])).toEqual([
      ['whisper', 'skipped'],
      ['deepgram', 'failed'],
      ['whisper', 'ok'],
    ]);
    expect(t.attempts[0]!.error).toBe(`whisper unavailable: ${LATE}`);
  });

  it('no fallback: the forecast is not asked, and Whisper takes the segment as before', async () => {
    const alone = new LocalDouble('words');
    alone.forecast = LATE;
    const { svc } = service('local-only', alone, null);
    expect((await svc.transcribe({ ...seg(1), waitedMs: 9000 })).hearing).toMatchObject({ kind: 'heard', utterance: { engine: 'whisper' } });
    expect(alone.asked).toEqual([]);
  });
});

describe('a local engine busy with inferences past their deadline', () => {
  it('with a fallback: the segment goes to it at once, with a clear reason in the records and events', async () => {
    const whisper = new LocalDouble('words');
    whisper.abandoned = 1;
    const deepgram = cloudDouble();
    const { svc, of } = service('local-first', whisper, deepgram);
    const t = await svc.transcribe(seg(4));
    expect(whisper.heard).toEqual([]);
    expect(deepgram.heard).toEqual([WHOLE]);
    const reason = 'whisper unavailable: busy with an inference past the deadline (it cannot be stopped)';
    expect(t.hearing).toMatchObject({ kind: 'heard', utterance: { engine: 'deepgram', fallbackReason: reason } });
    expect(t.attempts).toMatchObject([
      { engine: 'whisper', outcome: 'skipped', error: reason },
      { engine: 'deepgram', outcome: 'ok', fallbackReason: reason },
    ]);
    expect(of('stt.fallback')).toEqual([{ segmentId: 4, from: 'whisper', to: 'deepgram', reason }]);
  });

  it('the fallback fails too: the local engine is asked last after all (the segment waits, rather than be lost)', async () => {
    const whisper = new LocalDouble('words');
    whisper.abandoned = 2;
    const deepgram = cloudDouble(true);
    const { svc } = service('local-first', whisper, deepgram);
    const t = await svc.transcribe(seg(4));
    expect(deepgram.heard).toEqual([WHOLE]);
    expect(whisper.heard).toEqual([WHOLE]);
    expect(t.hearing).toMatchObject({ kind: 'heard', utterance: { engine: 'whisper', fallbackReason: 'deepgram connect: no socket within 1500 ms' } });
    expect(t.attempts.map((a) => [a.engine, a.outcome])).toEqual([
      ['whisper', 'skipped'],
      ['deepgram', 'failed'],
      ['whisper', 'ok'],
    ]);
    expect(t.attempts[0]!.error).toMatch(/busy with 2 inferences past the deadline/);
  });

  it("no fallback (local-only, or the cloud's circuit open): it waits for the local engine as before", async () => {
    const alone = new LocalDouble('words');
    alone.abandoned = 1;
    const { svc } = service('local-only', alone, null);
    expect((await svc.transcribe(seg(1))).hearing).toMatchObject({ kind: 'heard', utterance: { engine: 'whisper' } });

    const whisper = new LocalDouble('words');
    const deepgram = cloudDouble(true);
    const two = service('cloud-first', whisper, deepgram);
    await two.svc.transcribe(seg(1));
    expect(two.svc.breaker('deepgram')!.state).toBe('open');
    whisper.abandoned = 1;
    const t = await two.svc.transcribe(seg(2));
    expect(t.hearing).toMatchObject({ kind: 'heard', utterance: { engine: 'whisper' } });
  });
});
