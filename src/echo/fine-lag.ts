import { applyFilter, predictionFilter } from './whiten.js';

/**
 * Where hark's sound lies in the microphone to a fraction of a sample, near a lag already known:
 * what the skew (skew.ts) is measured from. The delay tracker (delay.ts) finds the echo to a
 * millisecond or so, searching 200 ms either way; a skew of 1 ppm moves it by 1/16 of a sample in four
 * seconds. So here both signals are whitened by the reference's own prediction filter (a tone or a
 * voice then correlates only where the sound arrives: whiten.ts), correlated over a few samples either
 * side of the lag expected, and the peak is placed between samples by a parabola through it and its
 * neighbours. Which arrival it locks onto (the direct sound or a strong reflection) does not matter to
 * the slope, as long as it keeps to the same one: the caller searches close to the last lag found.
 */

export interface FineLag {
  /** Microphone sample i holds reference sample i - lag (samples, fractional). */
  lag: number;
  /** The peak's normalised correlation (0-1): how much of the microphone hark's sound explains there. */
  strength: number;
}

const ORDER = 16;

/**
 * mic[i] against ref: ref[j] is the reference at position (mic's first position - centre - reach - ORDER + j),
 * so it must hold mic.length + 2 * reach + ORDER samples. Lags in centre ± reach are tried; null when
 * the peak is at the edge of that reach (it lies beyond) or the reference is silent.
 */
export function fineLag(mic: Float32Array, ref: Float32Array, centre: number, reach: number): FineLag | null {
  const n = mic.length;
  if (ref.length < n + 2 * reach + ORDER) throw new Error(`fineLag: the reference must hold ${n + 2 * reach + ORDER} samples, not ${ref.length}`);
  const a = new Float64Array(ORDER + 1);
  predictionFilter(ref, ORDER, ref.length, ORDER, 0.01, a);
  const wr = new Float32Array(ref.length);
  applyFilter(ref, a, wr);
  // The microphone behind ORDER zeros: the filter's start-up is in front of what is summed.
  const mx = new Float32Array(n + ORDER);
  mx.set(mic, ORDER);
  const wm = new Float32Array(n + ORDER);
  applyFilter(mx, a, wm);
  // Lag l = centre + d: mic[i] ~ ref position (first - l + i) = ref index (reach - d + ORDER + i).
  const from = ORDER;
  let em = 0;
  for (let i = from; i < n + ORDER; i++) em += wm[i]! * wm[i]!;
  const corr = new Float64Array(2 * reach + 1);
  let best = -1;
  for (let d = -reach; d <= reach; d++) {
    const off = reach - d;
    let s = 0;
    for (let i = from; i < n + ORDER; i++) s += wm[i]! * wr[off + i]!;
    corr[d + reach] = s;
    if (best < 0 || Math.abs(s) > Math.abs(corr[best]!)) best = d + reach;
  }
  if (best <= 0 || best >= 2 * reach) return null;
  let er = 0;
  const off = reach - (best - reach);
  for (let i = from; i < n + ORDER; i++) er += wr[off + i]! * wr[off + i]!;
  if (em <= 0 || er <= 0) return null;
  const frac = peakBetween(corr, best);
  return { lag: centre + best - reach + frac, strength: Math.abs(corr[best]!) / Math.sqrt(em * er) };
}

/**
 * Where the peak at index `k` of `c` lies between samples (−0.5 … 0.5): the correlation of two
 * band-limited signals is band-limited, so it is rebuilt between its samples (a Hann-windowed sinc
 * over all of them) and searched in 1/256 steps. A parabola through three samples pulls a sharp,
 * whitened peak towards the nearest sample by up to 0.12 of one (measured), and that pull comes round
 * once a sample as the lag slides: a skew of its own.
 */
function peakBetween(c: Float64Array, k: number): number {
  const sign = Math.sign(c[k]!);
  const half = c.length;
  const at = (x: number) => {
    let v = 0;
    for (let j = 0; j < c.length; j++) {
      const d = x - j;
      if (Math.abs(d) >= half) continue;
      const sinc = d === 0 ? 1 : Math.sin(Math.PI * d) / (Math.PI * d);
      v += c[j]! * sinc * (0.5 + 0.5 * Math.cos((Math.PI * d) / half));
    }
    return sign * v;
  };
  let best = 0;
  let top = -Infinity;
  for (let f = -128; f <= 128; f++) {
    const v = at(k + f / 256);
    if (v > top) {
      top = v;
      best = f / 256;
    }
  }
  return best;
}

/** Taps either side of the point a stretched reference is read at (a Hann-windowed sinc). */
const STRETCH_TAPS = 16;
/** Points between two samples the sinc is tabled at: a read is placed to 1/512 of a sample at worst. */
const STRETCH_PHASES = 256;
/** Under this slide over the window (samples), the reference is read as played, sample for sample. */
const STRETCH_MIN_SLIDE = 0.05;
let stretchTable: Float32Array | null = null;

/** The windowed sinc's taps for each phase: row p reads the point p / STRETCH_PHASES past a sample. */
function sincTable(): Float32Array {
  const n = 2 * STRETCH_TAPS;
  const table = new Float32Array((STRETCH_PHASES + 1) * n);
  for (let p = 0; p <= STRETCH_PHASES; p++) {
    const f = p / STRETCH_PHASES;
    for (let t = 0; t < n; t++) {
      const d = t - STRETCH_TAPS + 1 - f;
      const w = 0.5 + 0.5 * Math.cos((Math.PI * d) / STRETCH_TAPS);
      table[p * n + t] = d === 0 ? 1 : (w * Math.sin(Math.PI * d)) / (Math.PI * d);
    }
  }
  return table;
}

/**
 * The reference for fineLag, read on the microphone's clock as a skew `ppm` says it runs: sample j is
 * the reference at `first + j + (j - centre)·ppm·1e-6`, by a Hann-windowed sinc (`read` fills integer
 * positions). Why: over a second the echo slides ppm·16e-3 samples (3.2 at 200 ppm), and against the
 * reference as played the peak found is the lag where the window's sound is loudest, not the lag at
 * its middle. A whole second's lag then sat up to 1.6 samples off the line, and the skew it gave at
 * +200 ppm was 5-12 ppm low for half a minute, a residual drift no filter follows. Read this way,
 * the echo slides only by what the skew has wrong.
 */
export function stretchedReference(
  read: (position: number, out: Int16Array) => void,
  first: number,
  length: number,
  centre: number,
  ppm: number,
): Float32Array {
  const out = new Float32Array(length);
  // A slide of a twentieth of a sample under the window (3 ppm) is as good as none.
  const g = Math.abs(ppm * 1e-6 * length) < STRETCH_MIN_SLIDE ? 0 : ppm * 1e-6;
  const reach = Math.ceil(Math.abs(g) * length) + STRETCH_TAPS + 2;
  const raw = new Int16Array(length + 2 * reach);
  read(first - reach, raw);
  if (g === 0) {
    for (let j = 0; j < length; j++) out[j] = raw[j + reach]!;
    return out;
  }
  const table = (stretchTable ??= sincTable());
  const n = 2 * STRETCH_TAPS;
  for (let j = 0; j < length; j++) {
    const x = j + (j - centre) * g + reach;
    const k = Math.floor(x);
    const p = Math.round((x - k) * STRETCH_PHASES);
    const row = p * n;
    const from = k - STRETCH_TAPS + 1;
    let v = 0;
    for (let t = 0; t < n; t++) v += raw[from + t]! * table[row + t]!;
    out[j] = v;
  }
  return out;
}
