import { rng } from '../support/room-sim.js';

/**
 * A second simulated kitchen for the echo tests, independent of room-sim.ts's Schroeder reverberator:
 * a shoebox room by the image-source method (Allen & Berkley), so its early reflections come from where
 * the walls, the ceiling and the worktop put them (a few ms to tens of ms after the direct path, some
 * nearly as strong as it), not from a fixed pattern. Each seed places the speaker and the microphone
 * somewhere else on the worktop; rt60Ms sets how much of each bounce the surfaces give back (Sabine).
 * Deterministic: the same seed and RT60 give the same room on every run.
 */
export interface Kitchen {
  /** The impulse response, 16 kHz, from the speaker's sound leaving it (tap 0) on. */
  ir: Float32Array;
  /** Where the direct path arrives (ms after the sound leaves the speaker). */
  directMs: number;
}

const C = 343;
const RATE = 16000;

export function kitchen(opts: { rt60Ms: number; seed: number; size?: [number, number, number]; directivity?: number }): Kitchen {
  const [lx, ly, lz] = opts.size ?? [4.5, 3.5, 2.6];
  const r = rng(opts.seed * 7919 + 17);
  const pick = (a: number, b: number) => a + (b - a) * r();
  // The speaker on the worktop near a wall; the microphone beside it, 0.3-1.2 m away (one appliance or two).
  const src = [pick(0.3, 0.8), pick(0.5, ly - 0.5), pick(0.95, 1.2)];
  const away = pick(0.3, 1.2);
  const angle = pick(0, 2 * Math.PI);
  const mic = [
    Math.min(lx - 0.2, Math.max(0.2, src[0]! + away * Math.cos(angle))),
    Math.min(ly - 0.2, Math.max(0.2, src[1]! + away * Math.sin(angle))),
    pick(0.95, 1.5),
  ];
  const volume = lx * ly * lz;
  const surface = 2 * (lx * ly + lx * lz + ly * lz);
  const absorption = Math.min(0.95, (0.161 * volume) / (surface * (opts.rt60Ms / 1000)));
  const beta = Math.sqrt(1 - absorption);
  const lengthMs = opts.rt60Ms;
  const n = Math.round((lengthMs * RATE) / 1000);
  const ir = new Float32Array(n);
  const maxDist = (C * lengthMs) / 1000;
  const L = [lx, ly, lz];
  const direct = Math.hypot(src[0]! - mic[0]!, src[1]! - mic[1]!, src[2]! - mic[2]!);
  const orders = L.map((l) => Math.ceil(maxDist / (2 * l)) + 1);
  // For each axis: the image's coordinate and its wall hits, for each (n, p).
  const axis = (k: number) => {
    const out: Array<{ d: number; hits: number; mirrored: boolean }> = [];
    for (let m = -orders[k]!; m <= orders[k]!; m++)
      for (const p of [0, 1]) out.push({ d: 2 * m * L[k]! + (1 - 2 * p) * src[k]! - mic[k]!, hits: Math.abs(m - p) + Math.abs(m), mirrored: p === 1 });
    return out;
  };
  const [ax, ay, az] = [axis(0), axis(1), axis(2)];
  for (const x of ax)
    for (const y of ay) {
      const dxy = x.d * x.d + y.d * y.d;
      if (dxy > maxDist * maxDist) continue;
      for (const z of az) {
        const dist = Math.sqrt(dxy + z.d * z.d);
        if (dist > maxDist) continue;
        const t = (dist / C) * RATE;
        const k = Math.floor(t);
        if (k + 1 >= n) continue;
        // Spread over two taps (linear interpolation): no reflection lands on the sample grid exactly.
        // The speaker faces into the room (+x, away from the wall it stands by); an image of it faces
        // the mirrored way. Off its axis it is quieter by up to `directivity` (0: all round, 1: cardioid).
        const facing = x.mirrored ? -1 : 1;
        const cos = (facing * -x.d) / dist;
        const gain = 1 - ((opts.directivity ?? 0) * (1 - cos)) / 2;
        const a = (gain * Math.pow(beta, x.hits + y.hits + z.hits) * direct) / dist;
        ir[k] += a * (1 - (t - k));
        ir[k + 1] += a * (t - k);
      }
    }
  // The image method with one reflection coefficient for every surface decays slower than Sabine says
  // (measured 25-45 % longer here): the tail is brought to the RT60 asked for, measured as T20.
  const decay = 60 / opts.rt60Ms - 60 / t20(ir);
  if (decay > 0) for (let i = 0; i < n; i++) ir[i] *= Math.pow(10, (-decay * (i / 16)) / 20);
  return { ir, directMs: (direct / C) * 1000 };
}

/** The reverberation time (ms) of an impulse response: its backward-integrated energy's fall from -5 to -25 dB, times 3. */
export function t20(ir: Float32Array): number {
  const e = new Float64Array(ir.length + 1);
  for (let i = ir.length - 1; i >= 0; i--) e[i] = e[i + 1]! + ir[i]! * ir[i]!;
  const at = (db: number) => {
    let i = 0;
    while (i < ir.length && 10 * Math.log10(e[i]! / e[0]!) > db) i++;
    return i;
  };
  return ((at(-25) - at(-5)) / 16) * 3;
}

/** In-place radix-2 FFT (inverse when `inv`, unscaled). */
function fft(re: Float64Array, im: Float64Array, inv: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j]!, re[i]!];
      [im[i], im[j]] = [im[j]!, im[i]!];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = ((inv ? 2 : -2) * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b]! * cr - im[b]! * ci;
        const ti = re[b]! * ci + im[b]! * cr;
        re[b] = re[a]! - tr;
        im[b] = im[a]! - ti;
        re[a] += tr;
        im[a] += ti;
        const nr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = nr;
      }
    }
  }
}

/** x through the impulse response `ir` (the first x.length samples of the result), by FFT overlap-add. */
export function convolve(x: ArrayLike<number>, ir: Float32Array): Float32Array {
  let size = 1;
  while (size < 2 * ir.length) size <<= 1;
  size = Math.max(size, 16384);
  const block = size - ir.length + 1;
  const hr = new Float64Array(size);
  const hi = new Float64Array(size);
  hr.set(ir);
  fft(hr, hi, false);
  const out = new Float32Array(x.length);
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let at = 0; at < x.length; at += block) {
    re.fill(0);
    im.fill(0);
    for (let i = 0; i < block && at + i < x.length; i++) re[i] = x[at + i]!;
    fft(re, im, false);
    for (let k = 0; k < size; k++) {
      const a = re[k]! * hr[k]! - im[k]! * hi[k]!;
      im[k] = re[k]! * hi[k]! + im[k]! * hr[k]!;
      re[k] = a;
    }
    fft(re, im, true);
    for (let i = 0; i < size && at + i < x.length; i++) out[at + i] += re[i]! / size;
  }
  return out;
}
