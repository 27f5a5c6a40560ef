import { rms } from '../audio/pcm.js';
import type { SpliceView } from './records.js';

/**
 * If the pre-roll ring is indexed off by a window, the stitched audio jumps at the splice
 * and Whisper hears an artifact ([BLANK_AUDIO]). This looks at a few ms either side of the splice
 * for two signs of a bad join:
 *   - one sample step far larger than the steps around it (a click), or
 *   - a level change across the join that real speech does not make within a few ms.
 * Pure: the store runs it once when a segment is written and keeps the numbers.
 */
export const LEVEL_WINDOW_MS = 3;
export const STEP_WINDOW_MS = 10;
/** The splice step must be this many times the 90th-percentile step around it... */
export const STEP_RATIO = 4;
/** ...and at least this large in 16-bit units (~3% of full scale), so quiet noise never warns. */
export const MIN_STEP = 1000;
/** RMS either side differing by this factor (20 dB)... */
export const LEVEL_RATIO = 10;
/** ...with the louder side at least this loud (about -34 dBFS). */
export const MIN_LEVEL = 0.02;

export function checkSplice(pcm: Int16Array, prerollSamples: number, sampleRate: number): SpliceView | null {
  const at = prerollSamples;
  if (at <= 0 || at >= pcm.length) return null; // no pre-roll, or no live audio: nothing was spliced
  const levelN = Math.max(1, Math.round((LEVEL_WINDOW_MS * sampleRate) / 1000));
  const stepN = Math.max(2, Math.round((STEP_WINDOW_MS * sampleRate) / 1000));

  const step = Math.abs(pcm[at]! - pcm[at - 1]!);
  const steps: number[] = [];
  for (let i = Math.max(1, at - stepN); i < Math.min(pcm.length, at + stepN); i++) {
    if (i !== at) steps.push(Math.abs(pcm[i]! - pcm[i - 1]!));
  }
  const typicalStep = percentile(steps, 0.9);
  const levelBefore = rms(pcm, Math.max(0, at - levelN), at);
  const levelAfter = rms(pcm, at, Math.min(pcm.length, at + levelN));

  const loud = Math.max(levelBefore, levelAfter);
  const quiet = Math.min(levelBefore, levelAfter);
  const stepJump = step >= MIN_STEP && step > STEP_RATIO * typicalStep;
  const levelJump = loud >= MIN_LEVEL && loud > LEVEL_RATIO * quiet;
  return {
    warning: stepJump || levelJump,
    reason: stepJump ? 'step' : levelJump ? 'level' : null,
    step,
    typicalStep,
    levelBefore,
    levelAfter,
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}
