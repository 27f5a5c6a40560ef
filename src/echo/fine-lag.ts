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
