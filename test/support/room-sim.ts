/**
 * A simulated kitchen for the echo tests: what hark plays comes back into the microphone late
 * (the USB card's latency), smeared by the room (a decaying impulse response) and louder than the
 * person, over kitchen noise. Pure functions on 16 kHz samples; the fake arecord/aplay pair
 * (room-devices.ts) and the benchmark both build their microphone signal with these.
 */

/** A small deterministic PRNG (mulberry32), so every run hears the same room. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A room, streaming: the direct path, early reflections (worktop, wall, ceiling), and a late
 * reverberant tail decaying by 60 dB over rt60Ms (Schroeder's reverberator: four feedback combs into
 * two allpasses). A few operations a sample, so the simulated microphone keeps up in real time on a
 * loaded machine. Deterministic: the same input gives the same echo on every run.
 */
export class Reverb {
  private readonly early: Array<[number, number]> = [
    [40, 0.5],
    [66, -0.35],
    [117, 0.3],
    [179, -0.2],
  ];
  private readonly combs: Array<{ buf: Float32Array; i: number; g: number }>;
  private readonly aps: Array<{ buf: Float32Array; i: number; g: number }>;
  private readonly hist = new Float32Array(256);
  private h = 0;
  private readonly wet: number;

  constructor(rt60Ms: number, wet = 0.2) {
    this.wet = wet;
    this.combs = [475, 594, 658, 699].map((d) => ({ buf: new Float32Array(d), i: 0, g: Math.pow(10, (-3 * (d / 16)) / rt60Ms) }));
    this.aps = [80, 27].map((d) => ({ buf: new Float32Array(d), i: 0, g: 0.7 }));
  }

  process(x: ArrayLike<number>): Float32Array {
    const out = new Float32Array(x.length);
    const H = this.hist.length;
    for (let n = 0; n < x.length; n++) {
      const v = x[n]!;
      this.hist[this.h] = v;
      let y = v;
      for (const [d, g] of this.early) y += g * this.hist[(this.h - d + H) % H]!;
      let late = 0;
      for (const c of this.combs) {
        const o = c.buf[c.i]!;
        c.buf[c.i] = v + o * c.g;
        c.i = (c.i + 1) % c.buf.length;
        late += o;
      }
      for (const a of this.aps) {
        const b = a.buf[a.i]!;
        const w = late + a.g * b;
        a.buf[a.i] = w;
        a.i = (a.i + 1) % a.buf.length;
        late = b - a.g * w;
      }
      out[n] = y + this.wet * late;
      this.h = (this.h + 1) % H;
    }
    return out;
  }
}

/** x through a fresh room, `delay` samples late and scaled by `gain`, with the tail let ring out (tailMs). */
export function throughRoom(x: Int16Array | Float32Array, opts: { delay: number; gain: number; rt60Ms: number; tailMs?: number }): Float32Array {
  const n = x.length + opts.delay + Math.round((opts.tailMs ?? 500) * 16);
  const input = new Float32Array(n);
  for (let i = 0; i < x.length; i++) input[i + opts.delay] = x[i]! * opts.gain;
  return new Reverb(opts.rt60Ms).process(input);
}

export function rms(x: ArrayLike<number>, from = 0, to = x.length): number {
  let e = 0;
  for (let i = from; i < to; i++) e += x[i]! * x[i]!;
  return Math.sqrt(e / Math.max(1, to - from));
}

/** Sum float signals into s16 with clipping. */
export function toS16(x: Float32Array): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(x[i]!)));
  return out;
}

/** Energy ratio in dB of a over b over [from, to). */
export function ratioDb(a: ArrayLike<number>, b: ArrayLike<number>, from: number, to: number): number {
  return 20 * Math.log10(rms(a, from, to) / Math.max(1e-9, rms(b, from, to)));
}
