import type { EngineId } from '../core/utterance.js';

/**
 * The speech-to-text side's shared vocabulary: what an engine is given, what it returns, and the
 * normalised ASR events the streaming path produces.
 */

/** The audio of one segment as the engines take it (16 kHz mono s16, pre-roll included). */
export interface SegmentAudio {
  /** The segment's id (the segmenter's index for audio from the microphone or a file). */
  id: number | string;
  pcm: Int16Array;
  /** Highest VAD probability inside the segment; undefined when no VAD scored it (--no-vad). */
  maxProb?: number;
  /**
   * Only the first words matter (the opening check): an engine that decodes token by token
   * stops after this many. Undefined: the whole segment's words.
   */
  maxTokens?: number;
}

/** One Whisper token as whisper.cpp produced it, special tokens ([_BEG_], [_TT_42], ...) included. */
export interface SttToken {
  text: string;
  id: number;
  /** Token probability. */
  p: number;
  /** Start and end in ms from the segment's first sample (whisper.cpp token timestamps), when timed. */
  t0?: number;
  t1?: number;
}

/** One word as Deepgram timed it (seconds on the socket's audio timeline). */
export interface AsrWord {
  word: string;
  /** With smart_format: the word as it should be shown (capitalised, punctuated). */
  punctuated?: string;
  start: number;
  end: number;
  confidence: number;
}

/** A whole-segment result from an engine, before the hallucination filter. */
export interface Transcript {
  engine: EngineId;
  /** The engine's output as it came ([BLANK_AUDIO], (music) kept). */
  rawText: string;
  /** Special tokens stripped, whitespace collapsed. */
  text: string;
  tokens?: SttToken[];
  words?: AsrWord[];
  confidence?: number;
  /** The language the engine heard (a pack code: en, es), when it names one. */
  language?: string;
  /** Wall time the engine spent on this segment. */
  ms: number;
}

/** Why an engine could not give a transcript; `kind` is what the fallback policy and breaker act on. */
export type EngineFailureKind =
  | 'error' // the engine threw or returned garbage
  | 'deadline' // it took longer than the segment's deadline
  | 'connect' // the cloud socket could not be opened in time
  | 'auth' // the cloud rejected the key (401/403): retrying will not help
  | 'no-final' // no final result arrived after Finalize
  | 'closed' // the socket closed under a segment
  | 'unavailable'; // not configured, circuit open, reconnect backoff

export class EngineFailure extends Error {
  readonly kind: EngineFailureKind;
  readonly engine: EngineId;
  constructor(engine: EngineId, kind: EngineFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EngineFailure';
    this.engine = engine;
    this.kind = kind;
  }
  /** Short form for records and logs: "deadline: took over 3200 ms". */
  get reason(): string {
    return `${this.engine} ${this.kind}: ${this.message}`;
  }
}

/** Normalised events from a streaming engine (the AsrEventSource output). */
export type AsrEvent =
  | {
      kind: 'partial' | 'final';
      text: string;
      words: AsrWord[];
      confidence: number;
      /** Seconds on the socket's audio timeline. */
      start: number;
      duration: number;
      speechFinal: boolean;
      fromFinalize: boolean;
      receivedAt: number;
      /** With language=multi: the language Deepgram heard (the alternative's first `languages`). */
      language?: string;
    }
  | { kind: 'utterance-end'; lastWordEnd: number; receivedAt: number }
  | { kind: 'speech-started'; timestamp: number; receivedAt: number }
  | { kind: 'metadata'; requestId: string; receivedAt: number };

export type AsrResult = Extract<AsrEvent, { kind: 'partial' | 'final' }>;
