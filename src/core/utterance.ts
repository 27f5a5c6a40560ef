/**
 * What the speech-to-text side hands to the router: one kind of utterance, whichever engine made it.
 */
export type SttEngineName = 'whisper' | 'deepgram' | 'text';

export interface Utterance {
  id: string;
  /** Cleaned text (special tokens stripped). May be empty when dropped. */
  text: string;
  /** Engine output as it came, special tokens such as [BLANK_AUDIO] kept. */
  rawText: string;
  engine: SttEngineName;
  /** The segment this came from, when it came from audio. */
  segmentId?: number | string;
  /** Speech-to-text time in ms. */
  sttMs?: number;
  /** Set when another engine was tried first and failed, and why. */
  fallbackReason?: string;
  /** Clock time (ms) at which the utterance was final. */
  atMs: number;
}
