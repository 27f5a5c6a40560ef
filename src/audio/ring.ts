/**
 * The pre-roll ring: a fixed window of the most recent samples, addressed by absolute stream
 * position so that a splice is a copy of exact indices, never "the last N of whatever is there".
 *
 * If the history index is off by one window the splice jumps in level and Whisper answers
 * [BLANK_AUDIO]. Addressing by absolute sample number makes that class of bug a RangeError instead.
 *
 * One typed array allocated at construction; write() and copyRange() allocate nothing.
 * Why: docs/decisions.md#the-pre-roll-ring-is-addressed-by-absolute-sample.
 */
export class PreRollRing {
  readonly capacity: number;
  private readonly buf: Int16Array;
  /** Total samples ever written: the absolute position one past the newest sample. */
  private written = 0;

  constructor(capacitySamples: number) {
    if (!Number.isInteger(capacitySamples) || capacitySamples < 1) {
      throw new RangeError(`ring capacity must be a positive whole number of samples, got ${capacitySamples}`);
    }
    this.capacity = capacitySamples;
    this.buf = new Int16Array(capacitySamples);
  }

  /** Absolute position one past the newest sample. */
  get end(): number {
    return this.written;
  }

  /** Absolute position of the oldest sample still held. */
  get start(): number {
    return Math.max(0, this.written - this.capacity);
  }

  write(samples: Int16Array): void {
    const n = samples.length;
    if (n === 0) return;
    // Only the newest `capacity` samples can survive; skip the rest without copying them.
    const skip = n > this.capacity ? n - this.capacity : 0;
    let src = skip;
    let pos = (this.written + skip) % this.capacity;
    while (src < n) {
      const run = Math.min(n - src, this.capacity - pos);
      this.buf.set(samples.subarray(src, src + run), pos);
      src += run;
      pos = (pos + run) % this.capacity;
    }
    this.written += n;
  }

  /** Copy samples [from, to) (absolute positions) into dest at destOffset. */
  copyRange(from: number, to: number, dest: Int16Array, destOffset = 0): void {
    if (from > to) throw new RangeError(`ring range is reversed: ${from} > ${to}`);
    if (from < this.start || to > this.written) {
      throw new RangeError(`ring holds samples ${this.start}..${this.written}, asked for ${from}..${to}`);
    }
    let remaining = to - from;
    let pos = from % this.capacity;
    let out = destOffset;
    while (remaining > 0) {
      const run = Math.min(remaining, this.capacity - pos);
      dest.set(this.buf.subarray(pos, pos + run), out);
      out += run;
      remaining -= run;
      pos = (pos + run) % this.capacity;
    }
  }

  reset(): void {
    this.written = 0;
  }
}
