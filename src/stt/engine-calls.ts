import type { Bus } from '../core/bus.js';
import { CircuitBreaker, type CircuitBreakerOptions, type Permit } from '../core/circuit-breaker.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { cleanText } from './clean-text.js';
import type { EngineId } from '../core/utterance.js';
import type { EngineSlot, LiveStream, SttEngine } from './engine.js';
import type { SttAttempt } from './events.js';
import type { HallucinationFilter } from './hallucination-filter.js';
import type { InterimTranscript } from './interim-transcript.js';
import { EngineFailure, type AsrEvent, type SegmentAudio, type Transcript } from './types.js';
import './events.js';

export type Outcome = { transcript: Transcript } | { failure: EngineFailure };

/**
 * A segment that is streaming to the first engine while it is still open. Its hearing is for showing
 * and early decisions only; the words acted on are the engine's whole-segment transcript.
 */
export interface LiveSegment {
  readonly id: string;
  readonly engine: EngineId;
  readonly hearing: InterimTranscript;
  write(pcm: Int16Array): void;
  /**
   * The segment has closed (called at the close, before its turn to be transcribed comes): the engine
   * is told at once (LiveStream.endAudio), so a server starts on it and its deadline counts from here.
   */
  end(): void;
}

export interface Live extends LiveSegment {
  stream: LiveStream;
  permit: Permit & { allowed: true };
  done: boolean;
}

/**
 * The transcriber's calls to its engines: a circuit breaker on each remote engine, and the live
 * streams open on them. When a breaker opens, the streams still waiting on that engine are given up
 * at once (hung up on): their segments go to the next engine when their turn comes, instead of each
 * waiting out its own deadline on a server that has just been judged failing. A stream whose
 * transcript is already in is kept.
 */
export class EngineCalls {
  private readonly breakers = new Map<EngineId, CircuitBreaker>();
  private readonly lives = new Set<Live>();

  constructor(private readonly o: { engines: readonly EngineSlot[]; breaker: CircuitBreakerOptions; clock: Clock; log: Logger; bus: Bus }) {
    for (const slot of o.engines) {
      if (!slot.engine?.remote) continue;
      const id = slot.id;
      this.breakers.set(
        id,
        new CircuitBreaker(o.breaker, o.clock, (state, reason) => {
          (state === 'open' ? o.log.warn : o.log.info)(`${id} circuit ${state}`, { reason });
          o.bus.emit('stt.circuit', { engine: id, state, reason });
          if (state === 'open') this.abandon(id, reason);
        }),
      );
    }
  }

  breaker(id: EngineId): CircuitBreaker | undefined {
    return this.breakers.get(id);
  }

  permit(engine: SttEngine): Permit {
    return this.breakers.get(engine.id)?.acquire() ?? { allowed: true, probe: false };
  }

  /** Start streaming segment `key` to `engine`, when its circuit allows; null when it does not. */
  openLive(engine: SttEngine, key: string, hearing: InterimTranscript, onEvent: (e: AsrEvent) => void): Live | null {
    if (!engine.openLive) return null;
    const permit = this.permit(engine);
    if (!permit.allowed) return null;
    const stream = engine.openLive(key, onEvent);
    const live: Live = {
      id: key,
      engine: engine.id,
      hearing,
      stream,
      permit,
      done: false,
      write: (p) => {
        if (!live.done) stream.write(p);
      },
      end: () => {
        if (!live.done) stream.endAudio?.();
      },
    };
    this.lives.add(live);
    return live;
  }

  /** The segment will not be transcribed on its stream: the stream is thrown away. */
  cancel(live: Live, why: string): void {
    if (live.done) return;
    live.done = true;
    this.lives.delete(live);
    live.stream.cancel();
    // A probe that never finished must not leave the circuit half-open for ever.
    if (live.permit.probe) this.breakers.get(live.engine)?.failure(`probe not completed: ${why}`);
  }

  /** One engine on one segment (on its live stream when given): its transcript, or why not. */
  async attempt(engine: SttEngine, audio: SegmentAudio, live: Live | null, onEvent: (e: AsrEvent) => void): Promise<Outcome> {
    const breaker = this.breakers.get(engine.id);
    let permit: Permit;
    if (live) {
      live.done = true;
      this.lives.delete(live);
      permit = live.permit;
    } else {
      permit = this.permit(engine);
      if (!permit.allowed) return { failure: new EngineFailure(engine.id, 'unavailable', permit.reason) };
    }
    try {
      const transcript = await (live ? live.stream.finish() : engine.transcribe(audio, onEvent));
      breaker?.success();
      return { transcript };
    } catch (err) {
      const f = err instanceof EngineFailure ? err : new EngineFailure(engine.id, 'error', errorMessage(err));
      if (f.kind !== 'unavailable') breaker?.failure(f.reason, { trip: f.kind === 'auth' });
      else if (permit.allowed && permit.probe) breaker?.failure(f.reason);
      return { failure: f };
    }
  }

  /** The circuit of `id` opened: its streams still waiting for a transcript are hung up on. */
  private abandon(id: EngineId, reason: string): void {
    for (const live of [...this.lives]) {
      if (live.engine !== id || live.stream.answered) continue;
      this.o.log.info('speech-to-text: a segment stops waiting, its engine’s circuit opened', { segment: live.id, engine: id, reason });
      this.cancel(live, `${id} circuit opened`);
    }
  }
}

/** One attempt as the records keep it; a failed one keeps what its engine had finalised before failing. */
export function recordAttempt(
  engine: EngineId,
  outcome: Outcome,
  heard: InterimTranscript,
  fallbackReason: string | undefined,
  rejected: string | undefined,
  filter: HallucinationFilter,
): SttAttempt {
  if ('failure' in outcome) {
    const partial = heard.finalText;
    const a: SttAttempt = {
      engine,
      outcome: outcome.failure.kind === 'unavailable' ? 'skipped' : 'failed',
      rawText: partial,
      text: cleanText(partial),
      sttMs: 0,
      error: outcome.failure.reason,
    };
    if (partial) a.droppedReason = `failed part-way, not used: ${outcome.failure.reason}`;
    if (fallbackReason) a.fallbackReason = fallbackReason;
    return a;
  }
  const t = outcome.transcript;
  const a: SttAttempt = { engine, outcome: 'ok', rawText: t.rawText, text: t.text, sttMs: t.ms };
  if (t.tokens) a.tokens = t.tokens;
  if (fallbackReason) a.fallbackReason = fallbackReason;
  const drop = rejected ?? filter.check(t.rawText, t.text, t.language)?.reason;
  if (drop) a.droppedReason = drop;
  return a;
}
