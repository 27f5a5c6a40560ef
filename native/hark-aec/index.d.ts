export interface CancellerOptions {
  /** Samples per internal step (speexdsp's frame; 256 = 16 ms at 16 kHz). process() takes any multiple of it. */
  frameSize: number;
  /** Length of the adaptive filter in samples: how much room echo (after the bulk delay) it can model. */
  filterLength: number;
  sampleRate: number;
  /** Echo cancellation (speex_echo_*). Off: only the preprocessor runs. */
  cancel: boolean;
  /** Residual echo suppression after the adaptive filter (speex_preprocess with the echo state). */
  suppressResidual: boolean;
  /** Noise suppression (speex_preprocess denoise). */
  denoise: boolean;
  /** Maximum attenuation of noise, dB (negative). */
  noiseSuppressDb: number;
  /** Maximum attenuation of residual echo, dB (negative), with and without near-end speech. */
  echoSuppressDb: number;
  echoSuppressActiveDb: number;
}

export class Canceller {
  constructor(opts: CancellerOptions);
  /**
   * Cancel the echo of `ref` (what was played, aligned with the mic) from `mic` into `out`.
   * `ref` null: nothing was played, so the filter is left alone (it keeps what it learnt); the
   * preprocessor, if on, still runs (without the echo estimate), so the timeline stays continuous.
   * All three the same length, a multiple of frameSize.
   */
  process(mic: Int16Array, ref: Int16Array | null, out: Int16Array): void;
  /**
   * Samples `out` lags `mic` by, the same on every frame, played over or not: frameSize while the
   * preprocessor runs (residual suppression or denoise: it gives each frame back one frame later),
   * else 0.
   */
  readonly latency: number;
  /** Forget what the filter learnt (the echo path changed). */
  reset(): void;
  /** Free the native state now (also done by the garbage collector). */
  close(): void;
}

/**
 * speexdsp's resampler (resample.c), one channel, at a fractional ratio: hark's echo reference put
 * from the speaker's clock onto the microphone's.
 */
export class Resampler {
  /** quality 0-10 (speexdsp's; 5: an 80-tap filter, 91 % of the band, ~100 dB stop). Starts at 1:1. */
  constructor(quality: number);
  /**
   * Input samples per output sample = num / den (den at most 2^26, kept unreduced; both within a
   * factor 2). The phase carries over: a stream at one ratio goes on at the next without a seam.
   */
  setRatio(num: number, den: number): void;
  /** Right after reset(): the first output falls `frac` (0 <= frac < 1) of an input sample later. */
  setPhase(frac: number): void;
  /**
   * Resample `input` into `output` until `output` is full or `input` runs out: [consumed, produced].
   * Output sample m of a stream (after reset, from its first input sample) is the input at
   * m · num/den − inputLatency + phase.
   */
  process(input: Int16Array, output: Int16Array): [number, number];
  /** Forget the input so far (the phase goes back to 0). */
  reset(): void;
  /** Input samples an output lags (half the filter: 40 at quality 5). */
  readonly inputLatency: number;
  close(): void;
}

/**
 * Give malloc's free pages back to the kernel (glibc's malloc_trim(0)). True when some came back;
 * false when none did, or off glibc.
 */
export function trimHeap(): boolean;
