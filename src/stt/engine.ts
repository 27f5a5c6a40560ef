import type { EngineId } from '../core/utterance.js';
import type { AsrEvent, SegmentAudio, Transcript } from './types.js';

/** A segment streaming to an engine while it is still open (cloud engines). */
export interface LiveStream {
  /** Audio for the segment, in order (pre-roll first). */
  write(pcm: Int16Array): void;
  /**
   * The segment has closed (at its close, before its turn to be transcribed): no more audio. An engine
   * that can starts on it now, and counts its deadline from here. finish() calls it if nobody did.
   */
  endAudio?(): void;
  /** Its whole transcript is in: finish() would not wait. */
  readonly answered?: boolean;
  /** Resolves with its whole transcript, or rejects with an EngineFailure. */
  finish(): Promise<Transcript>;
  /** The segment will not be transcribed (too short, cancelled): flush and forget it. */
  cancel(): void;
}

/**
 * One speech-to-text engine as the segment transcriber uses it. Engines are a list ordered by
 * stt.mode (or stt.engines): the first that gives a transcript that stands is used.
 */
export interface SttEngine {
  readonly id: EngineId;
  /** Reached over the network: its failures go through a circuit breaker. */
  readonly remote: boolean;
  /**
   * Its blank answer is believed. A local Whisper blank (or hallucination) on audio the VAD was sure
   * held speech is Whisper failing quietly, and the next engine is asked; a cloud model's blank is not.
   */
  readonly trustBlank: boolean;
  /**
   * Why a call made now, on `samples` of audio that has already waited `waitedMs` for speech-to-text
   * since its segment closed, would not answer within its deadline; null when it would, or when there
   * is no telling. For an engine that works one call at a time and cannot be stopped (whisper.cpp):
   * busy with work its callers gave up on, or with work that leaves this call too little of its time.
   * The transcriber then asks a fallback engine first, and this one last. Absent: always null.
   */
  unavailableFor?(samples: number, waitedMs: number): string | null;
  /** Stream a segment while it is open; absent for engines that only take whole segments. */
  openLive?(segmentId: string, onEvent: (e: AsrEvent) => void): LiveStream;
  /** A whole closed segment. Rejects with an EngineFailure; `onEvent` gets interim results, if any. */
  transcribe(audio: SegmentAudio, onEvent?: (e: AsrEvent) => void): Promise<Transcript>;
  close(): Promise<void>;
}

/** A configured engine, or why it is not there (no API key, ...): the records say which. */
export type EngineSlot = { id: EngineId; engine: SttEngine } | { id: EngineId; engine: null; missing: string };
