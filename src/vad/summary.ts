import { samplesToMsRounded as ms } from '../audio/pcm.js';
import type { Segment } from './segment.js';

/**
 * A segment without its audio, times in ms from the start of the stream: what `hark segment --json`
 * prints (exactly these keys, in this order: scripts depend on them) and what events carry.
 */
export function segmentSummary(s: Segment) {
  return {
    index: s.index,
    startMs: ms(s.startSample),
    vadStartMs: ms(s.vadStartSample),
    endMs: ms(s.endSample),
    prerollMs: ms(s.prerollSamples),
    samples: s.pcm.length,
    closeReason: s.closeReason,
    maxProb: Math.round(s.maxProb * 1000) / 1000,
  };
}

export type SegmentSummary = ReturnType<typeof segmentSummary>;
