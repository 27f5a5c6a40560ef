import { FRAME_SAMPLES } from './pcm.js';

/**
 * Cuts a stream of arbitrary-sized chunks into fixed frames. The recorder hands over whatever
 * the pipe had; VAD models need exact 512-sample windows, so the remainder is carried over.
 *
 * frames() yields the same internal buffer each time: the consumer must use (or copy) a frame before
 * asking for the next one. That keeps the per-frame path free of allocation.
 */
export class Framer {
  readonly frameSamples: number;
  private readonly frame: Int16Array;
  private fill = 0;

  constructor(frameSamples = FRAME_SAMPLES) {
    this.frameSamples = frameSamples;
    this.frame = new Int16Array(frameSamples);
  }

  /** Samples waiting for the next full frame. */
  get pending(): number {
    return this.fill;
  }

  *frames(chunk: Int16Array): Generator<Int16Array, void, void> {
    let i = 0;
    while (i < chunk.length) {
      const take = Math.min(this.frameSamples - this.fill, chunk.length - i);
      this.frame.set(chunk.subarray(i, i + take), this.fill);
      this.fill += take;
      i += take;
      if (this.fill === this.frameSamples) {
        this.fill = 0;
        yield this.frame;
      }
    }
  }

  /** The partial frame left at end of stream, zero-padded to a full frame, or null if none. */
  flush(): { frame: Int16Array; realSamples: number } | null {
    if (this.fill === 0) return null;
    const realSamples = this.fill;
    this.frame.fill(0, this.fill);
    this.fill = 0;
    return { frame: this.frame, realSamples };
  }

  reset(): void {
    this.fill = 0;
  }
}
