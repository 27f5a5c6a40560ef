import type { DelayEstimate, DelayEstimatorOptions } from './delay.js';
import type { ClockFollowerStatus } from './drift.js';

/**
 * What the echo stage is built from and what it reports: the native canceller it drives, its options
 * and their defaults, and its status (read by the journal, /healthz and the debug page).
 */

/** The native canceller's surface (hark-aec's Canceller): speexdsp behind it. */
export interface NativeCanceller {
  process(mic: Int16Array, ref: Int16Array | null, out: Int16Array): void;
  /** Samples its output lags the microphone by (hark-aec: 256 with the residual suppressor); absent: 0. */
  readonly latency?: number;
  reset(): void;
  close(): void;
}

export interface EchoStageOptions {
  frameSamples: number;
  /** The adaptive filter's length: the room echo it models after the bulk delay. */
  filterSamples: number;
  /**
   * Start of the filter this far before the estimated delay, so a late estimate still leaves the echo
   * causal; moves of the estimate smaller than half of it are left to the adaptive filter. 20 ms: live
   * (the simulated kitchen on a loaded machine) the estimate wanders ±5-10 ms on a ring, and with 6 ms an
   * estimate 10 ms late put the direct path before the filter's start, where nothing cancels it.
   */
  marginMs: number;
  /** The delay assumed before the first estimate (a USB card's typical latency). */
  initialDelayMs: number;
  /** ERLE (dB) the canceller must show on hark's sound before the echo gate stands down. */
  convergedDb: number;
  /** Ms of played sound at that ERLE before it counts as converged. */
  convergedMs: number;
  /** Raw microphone kept for the debug page's second track. */
  historyMs: number;
  /**
   * When the filter starts over at a new alignment (the first estimate), the last this-many ms of
   * microphone with hark's sound in it are run through it once more at that alignment: it learns the
   * room from what it has already heard instead of only from what comes next (a second or more passes
   * were measured to gain nothing). 0: off.
   */
  catchUpMs: number;
  delay?: Partial<DelayEstimatorOptions>;
  /** The skew (ppm) measured by an earlier run on the same pair of cards: followed from the first frame (ClockFollower.seed). */
  knownSkewPpm?: number;
  /** The speaker's distortion as its spec sheet gives it (THD of a sine peaking at atDbfs), modelled on the reference; absent or 0: linear. */
  speakerThd?: { pct: number; atDbfs: number };
}

export const ECHO_STAGE_DEFAULTS: EchoStageOptions = {
  frameSamples: 512,
  filterSamples: 2048,
  marginMs: 20,
  initialDelayMs: 0,
  convergedDb: 10,
  convergedMs: 500,
  historyMs: 40_000,
  catchUpMs: 3000,
};

export interface EchoStatus {
  /** idle: nothing played recently; converging: cancelling, not yet trusted; cancelling: trusted. */
  state: 'idle' | 'converging' | 'cancelling';
  /** The bulk delay in use (ms), and the last believed estimate. */
  delayMs: number;
  estimate: DelayEstimate | null;
  /** Smoothed echo return loss enhancement over recent frames with reference (dB). */
  erleDb: number;
  converged: boolean;
  /** Why it last stopped being trusted (null before it ever was doubted). */
  distrustedFor: string | null;
  /** Ms of hark's sound whose reference reached the canceller after the microphone it belonged to (should stay 0). */
  lateReferenceMs: number;
  /** hark's sound has been searched for in the microphone and not found (a far speaker, a headset, a file). */
  noEcho: boolean;
  /** The speaker's clock against the microphone's, and what the reference is resampled by (drift.ts). */
  clocks: ClockFollowerStatus;
}
