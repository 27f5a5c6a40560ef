import type { AudioState } from './records.js';

/** A short summary of a transcript, enough for metrics without reading the row back. */
export interface TranscriptSummary {
  engine: string;
  sttMs: number | null;
  droppedReason: string | null;
  fallbackReason: string | null;
}

export type StoredRowKind = 'transcript' | 'utterance' | 'intent' | 'action' | 'list-item';

/**
 * What the store tells the rest of hark. Emitted after the transaction commits, so a listener that
 * reads the row back (the debug page's event stream) always finds it.
 */
declare module '../core/bus.js' {
  interface HarkEvents {
    'store.segment': { id: number; audio: AudioState; transcripts: TranscriptSummary[] };
    /** A row that arrived after its segment (e.g. an intent committed after confirmation). */
    'store.row': { kind: StoredRowKind; id: number | string; segmentId: number | null; transcript?: TranscriptSummary };
    /** Audio storage stopped (disk full); text rows go on being written if they fit. */
    'store.audio-paused': { reason: string; path: string };
    'store.audio-resumed': { path: string };
    /** A write was lost altogether (not even the text fitted, or SQLite failed). */
    'store.write-failed': { what: string; error: string };
    /** The file failed its start-up check and was moved aside; a fresh one is in use. */
    'store.corrupt': { path: string; movedTo: string; detail: string };
    /** Disk full: the audio of the oldest segments was deleted to make room for text rows (their rows stay). */
    'store.audio-reclaimed': { segments: number; bytes: number };
    /** Disk full: a row that fits nowhere yet waits in memory (`pending` rows now) until there is room. */
    'store.row-queued': { what: string; pending: number };
    'store.retention': { deleted: number; byAge: number; bySize: number; freedBytes: number };
  }
}

export {};
