/**
 * What goes into the segment log and what comes back out. Inputs are what the daemon (and the debug
 * POST endpoint) hand to the Store; views are what the debug API serves. Free-form fields (engine,
 * outcome, reasons) stay strings so later issues can add values without a migration.
 */

/** A proposal is non-binding, ambiguous failed validation, commit and discard close it. */
export type IntentKind = 'proposal' | 'ambiguous' | 'commit' | 'discard';
export const INTENT_KINDS: readonly IntentKind[] = ['proposal', 'ambiguous', 'commit', 'discard'];

/**
 * Whether a segment's PCM is in the file: `disk-full` means it was dropped to keep the text rows;
 * `reclaimed` means it was stored, then deleted (oldest first) to make room on a full disk.
 */
export type AudioState = 'stored' | 'disk-full' | 'off' | 'reclaimed';

/**
 * One segment of audio. A VAD `Segment` (src/vad/segment.ts) plus `startedAt` fits as it is.
 */
export interface SegmentInput {
  /** 16-bit samples, pre-roll included. */
  pcm: Int16Array;
  /** Samples at the front of `pcm` that came from the pre-roll ring (the splice is at this index). */
  prerollSamples: number;
  /** Wall-clock time (ms since the epoch) of the first sample, pre-roll included. */
  startedAt: number;
  sampleRate?: number;
  /** Where it came from: `mic` (default), `post` (the debug endpoint), `file`, ... */
  source?: string;
  /** The segmenter's per-stream index. */
  index?: number;
  startSample?: number;
  vadStartSample?: number;
  endSample?: number;
  closeReason?: string;
  maxProb?: number;
  openedBy?: string;
  /** How long before the close the words ended (the hangover in force, an early close's pause). */
  trailingSilenceMs?: number;
  /**
   * Only for a segment heard while hark played: the raw microphone over the same samples
   * as `pcm` (which is then the echo-cancelled signal) and where hark's playback was, in samples from
   * the segment's first sample. See echo-track.ts for what is accepted.
   */
  echo?: EchoTrackInput;
}

export interface EchoTrackInput {
  raw: Int16Array;
  playback: ReadonlyArray<{ start: number; end: number }>;
}

export interface TranscriptInput {
  engine: string;
  /** Engine output as it came, special tokens such as [BLANK_AUDIO] kept. */
  rawText: string;
  /** Cleaned text; empty when nothing usable was heard. */
  text: string;
  /** Engine tokens (ids, text, probabilities): stored as JSON. */
  tokens?: unknown;
  sttMs?: number | null;
  /** Set when another engine was tried first and failed, and why. */
  fallbackReason?: string | null;
  /** Set when the transcript was thrown away (blank audio, hallucination, ...), and why. */
  droppedReason?: string | null;
}

export interface UtteranceInput {
  id: string;
  text: string;
  rawText?: string;
  engine: string;
  sttMs?: number;
  fallbackReason?: string;
  /** The language it was heard in (a pack code), when speech-to-text or the line named one. */
  language?: string;
}

export interface IntentInput {
  kind: IntentKind;
  intent?: string | null;
  target?: string | null;
  slots?: unknown;
  confidence?: number | null;
  model?: string | null;
  latencyMs?: number | null;
  reason?: string | null;
  utteranceId?: string | null;
}

export interface ActionInput {
  name: string;
  args?: unknown;
  /** ok, error, suppressed, cooldown, ... */
  outcome: string;
  error?: string | null;
  latencyMs?: number | null;
  utteranceId?: string | null;
}

export interface ListItemInput {
  list: string;
  item: string;
  quantity?: number | null;
  unit?: string | null;
  op?: 'add' | 'remove' | 'set';
  note?: string | null;
  utteranceId?: string | null;
}

/** Rows that arrive after their segment name it by the stored id, or by the utterance they belong to. */
export interface RowLink {
  segmentId?: number | null;
  utteranceId?: string | null;
}

/** Everything known about a segment when its action has been dispatched: written in one transaction. */
export interface SegmentWrite {
  segment: SegmentInput;
  /** In the order they were produced (a fallback engine's transcript after the one that failed). */
  transcripts?: TranscriptInput[];
  utterance?: UtteranceInput;
  intents?: IntentInput[];
  actions?: ActionInput[];
  listItems?: ListItemInput[];
}

export interface RecordedSegment {
  id: number;
  audio: AudioState;
}

/** The level either side of the pre-roll / live splice (see splice.ts). */
export interface SpliceView {
  warning: boolean;
  reason: 'step' | 'level' | null;
  /** |sample step| across the splice, in 16-bit units. */
  step: number;
  /** 90th percentile of the sample steps around it. */
  typicalStep: number;
  /** RMS (0..1 of full scale) of a few ms before and after. */
  levelBefore: number;
  levelAfter: number;
}

/** A segment heard over hark's playback: where the playback was, and whether its raw microphone is stored. */
export interface EchoTrackView {
  /** Stretches of hark's playback, in samples from the segment's first sample (and in ms). */
  playback: Array<{ start: number; end: number; startMs: number; endMs: number }>;
  /** The raw microphone is stored (false: audio off, disk full, reclaimed, or damaged). */
  raw: boolean;
  rawBytes: number;
  /** What is wrong with the stored track (a damaged or hand-edited file), else null. */
  problem: string | null;
}

export interface TranscriptView {
  id: number;
  createdAt: number;
  engine: string;
  rawText: string;
  text: string;
  tokens: unknown;
  sttMs: number | null;
  fallbackReason: string | null;
  droppedReason: string | null;
}

export interface UtteranceView {
  id: string;
  createdAt: number;
  engine: string;
  text: string;
  rawText: string;
  sttMs: number | null;
  fallbackReason: string | null;
  language: string | null;
}

export interface IntentView {
  id: number;
  createdAt: number;
  utteranceId: string | null;
  kind: IntentKind;
  intent: string | null;
  target: string | null;
  slots: unknown;
  confidence: number | null;
  model: string | null;
  latencyMs: number | null;
  reason: string | null;
}

export interface ActionView {
  id: number;
  createdAt: number;
  utteranceId: string | null;
  name: string;
  args: unknown;
  outcome: string;
  error: string | null;
  latencyMs: number | null;
}

/** What a list_items row says, named the same in the table and in the view (queries.ts reads one into the other). */
export interface ListItemFields {
  list: string;
  item: string;
  quantity: number | null;
  unit: string | null;
  op: string;
  note: string | null;
}

export interface ListItemView extends ListItemFields {
  id: number;
  createdAt: number;
  segmentId: number | null;
  utteranceId: string | null;
}

export interface SegmentView {
  id: number;
  createdAt: number;
  startedAt: number;
  /** Wall-clock time the live part began (the VAD trigger or PTT press). */
  vadAt: number;
  endedAt: number;
  source: string;
  streamIndex: number | null;
  sampleRate: number;
  sampleCount: number;
  durationMs: number;
  prerollSamples: number;
  prerollMs: number;
  startSample: number | null;
  vadStartSample: number | null;
  endSample: number | null;
  closeReason: string | null;
  openedBy: string | null;
  /** How long before the close the words ended; null for a row written before hark kept it. */
  trailingSilenceMs: number | null;
  maxProb: number | null;
  /** 0..1 of full scale. */
  rms: number;
  peak: number;
  splice: SpliceView | null;
  audio: AudioState;
  /** PCM bytes stored for it: the segment's audio plus, when there is one, the raw track. */
  audioBytes: number;
  /** Heard while hark played; null for every other segment. */
  echo: EchoTrackView | null;
  transcripts: TranscriptView[];
  utterances: UtteranceView[];
  intents: IntentView[];
  actions: ActionView[];
  listItems: ListItemView[];
}

export interface SegmentQuery {
  /** Only segments with an id below this (paging backwards). */
  before?: number;
  limit: number;
  /** Substring of any transcript (raw or cleaned) or utterance text. */
  q?: string;
  engine?: string;
  /** true: some transcript was dropped; false: none was; a string: dropped for that reason. */
  dropped?: boolean | string;
}

export interface SegmentPage {
  segments: SegmentView[];
  /** Pass as `before` for the next (older) page; null when there is none. */
  nextBefore: number | null;
}
