import type { VadConfig } from './config.js';
import type { SegmenterOptions } from './segmenter.js';

/** The segmenter's settings, taken from the config's `vad` section. */
export function segmenterOptions(vad: VadConfig): SegmenterOptions {
  return {
    threshold: vad.threshold,
    releaseThreshold: vad.releaseThreshold,
    prerollMs: vad.prerollMs,
    minSpeechMs: vad.minSpeechMs,
    stateResetMs: vad.stateResetMs,
    hangoverMs: vad.hangoverMs,
    maxSegmentMs: vad.maxSegmentMs,
    minSegmentMs: vad.minSegmentMs,
  };
}
