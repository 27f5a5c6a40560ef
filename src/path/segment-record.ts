import { samplesToMs } from '../audio/pcm.js';
import type { Effect } from '../core/effects.js';
import type { ActionInput, SegmentWrite, TranscriptInput } from '../store/records.js';
import type { SegmentTranscript } from '../stt/events.js';
import type { Segment } from '../vad/segment.js';
import type { Fate } from './fate.js';

/**
 * Stage 5 of a segment's path, the record: what one segment's handling left, and how the store keeps
 * it. In: a SegmentRecord; out: one SegmentWrite (one transaction). The bookkeeping that fills the
 * record while it is handled is record-keeper.ts.
 */

/** One segment's handling, collected while it is handled and written in one transaction at the end. */
export interface SegmentRecord {
  segment: Segment;
  transcript: SegmentTranscript | null;
  fate: Fate;
  actions: ActionInput[];
  /** Clock ms when it closed; wall ms for the store's times. */
  closedAt: number;
  closedWallAt: number;
  /**
   * When the person stopped speaking: the close, less the silence it waited out (core/speech-end.ts).
   * Stored with the segment as that silence, so replay counts the cascade from the same moment.
   */
  speechEndAt: number;
  /** Clock ms of its first fired action. */
  firstActionAt: number | null;
  /** Its rows are in the store (a later change to them is an update). */
  written: boolean;
}

/** A fired, failed or dropped action as the store keeps it; null for every other effect. */
export function actionRow(e: Effect): ActionInput | null {
  switch (e.type) {
    case 'action':
      return { name: e.name, args: e.args, outcome: 'ok' };
    case 'action.failed':
      return { name: e.name, outcome: 'error', error: e.error };
    case 'action.dropped':
      return { name: e.name, args: e.args, outcome: e.reason };
    default:
      return null;
  }
}

/**
 * A handled segment as one store write: its audio, every engine's attempt (a failed one with what
 * it had heard), the utterance when one was heard (dispatched, filtered or yielded), and its actions.
 */
export function segmentWrite(rec: SegmentRecord, source: string): SegmentWrite {
  const { segment, transcript, fate } = rec;
  const transcripts: TranscriptInput[] = (transcript?.attempts ?? []).map((a) => ({
    engine: a.engine,
    rawText: a.rawText,
    text: a.text,
    ...(a.tokens ? { tokens: a.tokens } : {}),
    sttMs: Math.round(a.sttMs),
    fallbackReason: a.fallbackReason ?? null,
    droppedReason: a.droppedReason ?? a.error ?? (a.outcome === 'skipped' ? 'skipped' : null),
  }));
  if (fate.kind === 'cancelled' || fate.kind === 'untranscribed') transcripts.push({ engine: 'none', rawText: '', text: '', droppedReason: fate.reason });
  const u = 'utterance' in fate ? fate.utterance : null;
  // Why heard words were not acted on: another device took them, or they were a backchannel or talk
  // not addressed to hark — the log says which.
  if (fate.kind === 'yielded' || fate.kind === 'filtered') transcripts.push({ engine: 'none', rawText: '', text: '', droppedReason: fate.reason });
  return {
    // From the close, not from now: the row is written after speech-to-text, which takes seconds.
    segment: {
      ...segment,
      startedAt: rec.closedWallAt - Math.round(samplesToMs(segment.pcm.length)),
      source,
      trailingSilenceMs: Math.round(rec.closedAt - rec.speechEndAt),
    },
    transcripts,
    ...(u
      ? {
          utterance: {
            id: u.id,
            text: u.text,
            rawText: u.rawText,
            engine: u.engine,
            ...(u.sttMs !== undefined ? { sttMs: Math.round(u.sttMs) } : {}),
            ...(u.fallbackReason ? { fallbackReason: u.fallbackReason } : {}),
            ...(u.language ? { language: u.language } : {}),
          },
        }
      : {}),
    actions: rec.actions.map((a) => ({ ...a, utteranceId: u?.id ?? null })),
  };
}
