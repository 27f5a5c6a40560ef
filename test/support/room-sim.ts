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
 * A room's impulse response: the direct path, a few early reflections, then a noise tail decaying
 * by 60 dB over rt60Ms (a small tiled kitchen: 200-300 ms). Normalised so the direct path is 1.
 */
export function roomResponse(opts: { rt60Ms: number; lengthMs: number; seed?: number; rate?: number }): Float32Array {
  const rate = opts.rate ?? 16000;
  const n = Math.round((opts.lengthMs * rate) / 1000);
  const ir = new Float32Array(n);
  const rand = rng(opts.seed ?? 7);
  ir[0] = 1;
  // Early reflections: worktop, wall, ceiling.
  for (const [ms, g] of [
    [2.5, 0.5],
    [4.1, -0.35],
    [7.3, 0.3],
    [11.2, -0.2],
  ] as const) {
    const k = Math.round((ms * rate) / 1000);
    if (k < n) ir[k] = (ir[k] ?? 0) + g;
  }
  const decayPerSample = Math.log(1000) / ((opts.rt60Ms * rate) / 1000); // -60 dB = 1/1000
  const start = Math.round((12 * rate) / 1000);
  for (let i = start; i < n; i++) ir[i] = (ir[i] ?? 0) + 0.08 * (rand() * 2 - 1) * Math.exp(-decayPerSample * i);
  return ir;
}

/** y = x * ir, delayed by `delay` samples, scaled by `gain`; `out` has x.length + delay + ir.length - 1 samples. */
export function throughRoom(x: Int16Array | Float32Array, ir: Float32Array, delay: number, gain: number): Float32Array {
  const out = new Float32Array(x.length + delay + ir.length - 1);
  // Sparse enough to skip zeros in x (silences between phrases).
  for (let i = 0; i < x.length; i++) {
    const v = x[i]! * gain;
    if (v === 0) continue;
    const o = i + delay;
    for (let k = 0; k < ir.length; k++) out[o + k]! += v * ir[k]!;
  }
  return out;
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
