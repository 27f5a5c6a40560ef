import type { SegmentView, TranscriptView, UtteranceView } from '../store/records.js';
import { segmentFate, type FateView } from './segment-fate.js';
import { splitSpecialTokens, type TextSpan } from './special-tokens.js';

export type PresentedSegment = Omit<SegmentView, 'transcripts' | 'utterances'> & {
  transcripts: (TranscriptView & { rawSpans: TextSpan[] })[];
  utterances: (UtteranceView & { rawSpans: TextSpan[] })[];
  audioUrl: string | null;
  /** The raw microphone of a segment heard over hark's playback, when it is stored. */
  rawAudioUrl: string | null;
  /** What became of it, for the card's headline (null when the rows do not say). */
  fate: FateView | null;
};

/**
 * A segment as the page gets it: raw text pre-split into plain and special-token spans (so the one
 * token rule lives here, in tested TypeScript, and the page only has to colour spans), and the
 * audio links when there is audio (and the raw microphone's, for a segment heard over playback),
 * and what became of it, read from its rows here rather than guessed at by the page.
 */
export function presentSegment(s: SegmentView): PresentedSegment {
  return {
    ...s,
    transcripts: s.transcripts.map((t) => ({ ...t, rawSpans: splitSpecialTokens(t.rawText) })),
    utterances: s.utterances.map((u) => ({ ...u, rawSpans: splitSpecialTokens(u.rawText) })),
    audioUrl: s.audio === 'stored' ? `/api/segments/${s.id}/audio.wav` : null,
    rawAudioUrl: s.audio === 'stored' && s.echo?.raw ? `/api/segments/${s.id}/raw.wav` : null,
    fate: segmentFate(s),
  };
}
