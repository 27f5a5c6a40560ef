/**
 * What the speech-to-text side hands to the router: one kind of utterance, whichever engine made it.
 * Why: docs/decisions.md#one-close-reason-the-segments-end.
 */
/**
 * A speech-to-text engine's name as configured and recorded ("whisper", "deepgram", ...), and
 * "text" for typed input: the one name of an engine everywhere. A string, not a closed union: a new
 * engine is one file that implements SttEngine plus its entry in stt/engines/registry.ts.
 */
export type EngineId = string;

/**
 * Why an utterance closed. hark hands the router one utterance per VAD segment, so the segment's end
 * is the only reason produced (stt/transcriber.ts). Reasons that were declared and never produced
 * were removed; a new close rule adds its reason here together with its producer.
 */
export type UtteranceCloseReason = 'segment-end';

export interface Utterance {
  id: string;
  /** Cleaned text (special tokens stripped). May be empty when dropped. */
  text: string;
  /** Engine output as it came, special tokens such as [BLANK_AUDIO] kept. */
  rawText: string;
  engine: EngineId;
  /** The language speech-to-text heard it in (a pack code), or a text line named: read in it first. */
  language?: string;
  /** The segment this came from, when it came from audio. */
  segmentId?: number | string;
  /** Speech-to-text time in ms. */
  sttMs?: number;
  /** Set when another engine was tried first and failed, and why. */
  fallbackReason?: string;
  /** Clock time (ms) at which the utterance was final. */
  atMs: number;
  closeReason?: UtteranceCloseReason;
  /** Set on a dropped utterance (blank, [BLANK_AUDIO], hallucination): why it was not passed on. */
  dropReason?: string;
  /**
   * Whisper's raw tokens (ids, text, probability), special tokens included; t0/t1 (ms from the
   * segment's first sample) when whisper.cpp timed them.
   */
  tokens?: { text: string; id: number; p: number; t0?: number; t1?: number }[];
  /** Words as a streaming engine timed them (Deepgram): start/end in seconds from the segment's first sample. */
  words?: { word: string; start: number; end: number }[];
}
