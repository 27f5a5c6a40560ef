import type { Utterance } from '../core/utterance.js';
import type { CircuitState } from '../core/circuit-breaker.js';
import type { EngineId } from '../core/utterance.js';
import type { AsrResult, SttToken } from './types.js';

/** One engine's try at a segment, in the order tried: what the store keeps as a transcript row. */
export interface SttAttempt {
  engine: EngineId;
  outcome: 'ok' | 'failed' | 'skipped';
  /** For a failed attempt: what the engine had finalised before it failed (never acted on). */
  rawText: string;
  text: string;
  tokens?: SttToken[];
  /** Time this engine spent on the segment. */
  sttMs: number;
  /** Set on a later engine's attempt: why the one before did not stand. */
  fallbackReason?: string;
  /** Set when this attempt's transcript was not used as heard (filtered, blank on clear speech). */
  droppedReason?: string;
  /** Set when the engine failed (error, deadline, no socket, circuit open), part-way or not. */
  error?: string;
}

/**
 * What a segment's speech came to: one utterance heard (its words passed the hallucination filter
 * and will be acted on), or nothing heard and why. A dropped segment carries no utterance at all,
 * so it cannot be dispatched by mistake.
 */
export type SegmentHeard = { kind: 'heard'; utterance: Utterance } | { kind: 'dropped'; reason: string; rawText: string; engine: EngineId | null };

/** Everything speech-to-text did with one segment. */
export interface SegmentTranscript {
  segmentId: number | string;
  attempts: SttAttempt[];
  hearing: SegmentHeard;
  /** From the segment reaching speech-to-text to its transcript. */
  sttMs: number;
  /** Seconds of audio transcribed (for the real-time factor on /metrics). */
  audioSec?: number;
}

export type AsrBusResult = Omit<AsrResult, 'kind'> & { segmentId: number | string };

declare module '../core/bus.js' {
  interface HarkEvents {
    /** A streaming engine's interim hypothesis (times relative to the segment). */
    'asr.partial': AsrBusResult;
    'asr.final': AsrBusResult;
    /** Deepgram's boundary signals, passed on for the debug page. */
    'asr.boundary': { segmentId: number | string; kind: 'utterance-end' | 'speech-started'; atSec: number; receivedAt: number };
    /** What is being heard in the open segment: the stable text and the raw hypothesis. */
    'hearing.update': { segmentId: number | string; engine: EngineId; stableText: string; rawText: string; atMs: number };
    /** The router's input: cleaned text, raw text, engine, fallback reason, timings. */
    'utterance.final': Utterance;
    /** A segment whose words are not passed on (blank, [BLANK_AUDIO], hallucination, no engine could answer). */
    'utterance.dropped': { segmentId: number | string; engine: EngineId | null; rawText: string; reason: string };
    'stt.fallback': { segmentId: number | string; from: EngineId; to: EngineId; reason: string };
    'stt.circuit': { engine: EngineId; state: CircuitState; reason: string };
    /** A speculative transcription at a pause in an open segment: started, used at the close, or thrown away (speech resumed). */
    'stt.preemptive': { segmentId: string; outcome: 'started' | 'used' | 'discarded' };
    /** A segment is done with speech-to-text: every attempt and what was heard, for the records. */
    'stt.segment': SegmentTranscript;
  }
}
