import type { SttEngineName, Utterance } from '../core/utterance.js';
import type { CircuitState } from '../core/circuit-breaker.js';
import type { EngineId } from './fallback-policy.js';
import type { AsrResult, SttToken } from './types.js';

/** One engine's try at a segment, in the order tried: what the store keeps as a transcript row. */
export interface SttAttempt {
  engine: EngineId;
  outcome: 'ok' | 'failed' | 'skipped';
  rawText: string;
  text: string;
  tokens?: SttToken[];
  /** Time this engine spent on the segment. */
  sttMs: number;
  /** Set on the second engine's attempt: why the first one did not stand. */
  fallbackReason?: string;
  /** Set when this attempt's transcript was not used as heard (filtered, blank on clear speech). */
  droppedReason?: string;
  /** Set when the engine failed (error, deadline, no socket, circuit open). */
  error?: string;
}

/** Everything speech-to-text did with one segment. */
export interface SegmentStt {
  segmentId: number | string;
  /** The engine whose answer was used, or null when none could answer. */
  engine: EngineId | null;
  fallbackReason?: string;
  attempts: SttAttempt[];
  /** utterance.final and utterance.dropped payloads produced from this segment, in order. */
  utterances: Utterance[];
  /** From the segment reaching STT to its last utterance. */
  sttMs: number;
}

export type AsrBusResult = Omit<AsrResult, 'kind'> & { segmentId: number | string };

declare module '../core/bus.js' {
  interface HarkEvents {
    /** Deepgram interim hypothesis (times relative to the segment). */
    'asr.partial': AsrBusResult;
    'asr.final': AsrBusResult;
    /** Deepgram's boundary signals, passed on for the debug page. */
    'asr.boundary': { segmentId: number | string; kind: 'utterance-end' | 'speech-started'; atSec: number; receivedAt: number };
    'utterance.open': { id: string; segmentId: number | string; engine: Exclude<SttEngineName, 'text'>; atMs: number };
    'utterance.update': { id: string; segmentId: number | string; stableText: string; rawText: string; durationMs: number };
    /** The router's input: cleaned text, raw text, engine, fallback reason, timings. */
    'utterance.final': Utterance;
    /** A transcript not passed on (blank, [BLANK_AUDIO], hallucination, no engine could answer): `dropReason` says why. */
    'utterance.dropped': Utterance;
    'stt.fallback': { segmentId: number | string; from: EngineId; to: EngineId; reason: string };
    'stt.circuit': { state: CircuitState; reason: string };
    /** A segment is done with speech-to-text: every attempt and utterance, for the store. */
    'stt.segment': SegmentStt;
  }
}
