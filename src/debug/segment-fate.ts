import type { SegmentView } from '../store/records.js';

/** What became of a segment, as its card's headline says it; the engines' attempts are listed below it. */
export interface FateView {
  kind: 'dispatched' | 'filtered' | 'yielded' | 'dropped';
  /** The headline as shown, with the reason when it was not acted on. */
  text: string;
}

/**
 * Read back from the rows the daemon's path writes (src/path/segment-record.ts): an utterance is
 * stored only for words that were heard; heard words not acted on end with an engine `none` row that
 * says why (filtered, yielded); nothing heard ends with the row of the reason that stood — so the last
 * row decides, not the first engine's drop (Whisper's blank above words Deepgram heard).
 * Null when the rows say nothing of it: no transcript yet, or words stored without an utterance (a
 * POSTed segment never meets the command side).
 */
export function segmentFate(s: Pick<SegmentView, 'transcripts' | 'utterances'>): FateView | null {
  const last = s.transcripts[s.transcripts.length - 1];
  if (!last) return null;
  const heard = s.utterances.length > 0;
  const why = last.droppedReason;
  if (heard && last.engine === 'none' && why) {
    return why.startsWith('yielded to ') ? { kind: 'yielded', text: why } : { kind: 'filtered', text: `filtered: ${why}` };
  }
  if (heard) return { kind: 'dispatched', text: 'dispatched' };
  return why ? { kind: 'dropped', text: `dropped: ${why}` } : null;
}
