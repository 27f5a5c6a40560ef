import type { Bus } from '../core/bus.js';
import type { CircuitBreakerOptions } from '../core/circuit-breaker.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { EngineId } from '../core/utterance.js';
import type { EngineSlot } from './engine.js';
import type { SegmentTranscript, SttAttempt } from './events.js';
import type { FilterOptions } from './hallucination-filter.js';
import type { StabilizerOptions } from './stabilizer.js';

export interface TranscriberOptions {
  /** The engines in the order they are asked (stt.mode or stt.engines); a missing one says why. */
  engines: readonly EngineSlot[];
  clearSpeechProb: number;
  /** One circuit breaker per remote engine, all with these settings. */
  breaker: CircuitBreakerOptions;
  filter: FilterOptions;
  stabilizer: StabilizerOptions;
  clock: Clock;
  logger: Logger;
  bus: Bus;
  newId?: () => string;
}

/** A segment as the transcriber takes it: the VAD's Segment fits. */
export interface SttSegment {
  index: number | string;
  pcm: Int16Array;
  maxProb?: number;
  /** Only its first words matter (see SegmentAudio.maxTokens). */
  maxTokens?: number;
  /** Ms it already waited for speech-to-text since it closed (the caller's queue): its deadline counts from the close. */
  waitedMs?: number;
}

/**
 * The opening check's answer: the local engine's words on the opening, judged as usual
 * (`judged`: its transcript, possibly a believed blank), or no judgement to be had from the local
 * engine (`whole`): transcribe the whole segment instead, through the rest of the chain.
 */
export type OpeningCheck = { kind: 'judged'; transcript: SegmentTranscript } | { kind: 'whole'; handOver: HandOver | null };

/** What the opening's local engine did, carried into the whole segment's transcription. */
export interface HandOver {
  /** The engine that heard the opening: the whole goes to the engines after it. */
  after: EngineId;
  reason: string;
  attempts: SttAttempt[];
  sttMs: number;
  /** The opening's engine could not take it in time (SttEngine.unavailableFor): it is asked last, if every engine after it fails. */
  askLast?: boolean;
}
