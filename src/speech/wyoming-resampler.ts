import { resample } from '../audio/resample.js';

/**
 * audio/resample.ts, chunk by chunk: a voice server's audio (Piper: 22050 Hz) comes in pieces and
 * must play as it comes, but resampling each piece on its own would click at every seam (the
 * filter would see silence past each edge). This keeps enough of the input to give every output
 * sample its whole filter, and cuts its windows at multiples of the rate ratio's denominator so each
 * output sample is computed exactly as the whole-signal resample computes it.
 *
 * Pure: no I/O.
 */
export class StreamResampler {
  private readonly up: number;
  private readonly down: number;
  /** Input samples needed past an output's position (the filter's half length, plus one for phase rounding). */
  private readonly reach: number;
  /** Input kept, starting at global input index `base` (always a multiple of `down`). */
  private buf = new Float32Array(0);
  private base = 0;
  /** Global index of the next output sample. */
  private produced = 0;
  private inputEnd = 0;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    const g = gcd(fromRate, toRate);
    this.up = toRate / g;
    this.down = fromRate / g;
    const fc = 0.5 * Math.min(1, toRate / fromRate) * 0.92;
    this.reach = Math.ceil(32 / (2 * fc)) + 2;
  }

  /** Resampled output for this input (possibly empty: the filter waits for samples ahead). */
  push(pcm: Int16Array): Int16Array {
    if (this.fromRate === this.toRate) return pcm.slice();
    const grown = new Float32Array(this.buf.length + pcm.length);
    grown.set(this.buf);
    for (let i = 0; i < pcm.length; i++) grown[this.buf.length + i] = pcm[i]!;
    this.buf = grown;
    this.inputEnd += pcm.length;
    // The last output whose filter window lies inside the input so far.
    const last = Math.floor(((this.inputEnd - this.reach) * this.up) / this.down);
    return this.emit(last);
  }

  /** The input has ended: the rest, with silence past the end (as the whole-signal resample does). */
  end(): Int16Array {
    if (this.fromRate === this.toRate) return new Int16Array(0);
    const total = Math.ceil((this.inputEnd * this.up) / this.down);
    return this.emit(total - 1);
  }

  private emit(lastOut: number): Int16Array {
    if (lastOut < this.produced) return new Int16Array(0);
    const out = resample(this.buf, this.fromRate, this.toRate);
    // Output n of this window is global output n + base·up/down (base is a multiple of down).
    const offset = (this.base / this.down) * this.up;
    const from = this.produced - offset;
    const to = Math.min(out.length, lastOut - offset + 1);
    const result = new Int16Array(Math.max(0, to - from));
    for (let i = 0; i < result.length; i++) result[i] = clamp(out[from + i]!);
    this.produced += result.length;
    // Keep only what the next outputs can still reach back to.
    const firstNeeded = Math.floor((this.produced * this.down) / this.up) - this.reach;
    const newBase = Math.max(this.base, Math.floor(Math.max(0, firstNeeded) / this.down) * this.down);
    if (newBase > this.base) {
      this.buf = this.buf.slice(newBase - this.base);
      this.base = newBase;
    }
    return result;
  }
}

function clamp(v: number): number {
  const r = Math.round(v);
  return r > 32767 ? 32767 : r < -32768 ? -32768 : r;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
