/**
 * Pre-whitening for the delay tracker (delay.ts). hark's sound is far from white: the timer's beeps are
 * one tone, and a tone correlates with itself nearly as well a few ms either side of any lag (a broad
 * hump of fine peaks 85-98 % as high over ±20 ms); a reverberant room tips which of those fine peaks
 * wins, so the correlation's peak wandered 3-18 ms late from one search to the next on the ring. Speech
 * has the same problem, milder (its formants). Filtering both the reference and the microphone by the
 * reference's own prediction-error filter (linear prediction) flattens the reference's spectrum: what is
 * left correlates only at the lags where the sound really arrives (the direct path, the room's
 * reflections), a few decimated samples wide. Filtering the microphone by the same filter keeps the
 * room between them as it was.
 */

/**
 * The prediction-error filter a[0..order] (a[0] = 1) of `x` over [from, to), by Levinson-Durbin.
 * `floor`: the white-noise correction (the zero-lag autocorrelation raised by that fraction), which
 * limits how far the filter whitens (a pure tone is not inverted into its own numerical noise).
 */
export function predictionFilter(x: Float32Array, from: number, to: number, order: number, floor: number, out: Float64Array): void {
  const r = new Float64Array(order + 1);
  for (let k = 0; k <= order; k++) {
    let s = 0;
    for (let i = from + k; i < to; i++) s += x[i]! * x[i - k]!;
    r[k] = s;
  }
  out.fill(0);
  out[0] = 1;
  if (r[0]! <= 0) return;
  r[0] *= 1 + floor;
  let err = r[0]!;
  const prev = new Float64Array(order + 1);
  for (let i = 1; i <= order; i++) {
    let acc = r[i]!;
    for (let j = 1; j < i; j++) acc += out[j]! * r[i - j]!;
    const k = -acc / err;
    prev.set(out);
    for (let j = 1; j < i; j++) out[j] = prev[j]! + k * prev[i - j]!;
    out[i] = k;
    err *= 1 - k * k;
    if (err <= 0) return;
  }
}

/**
 * `x` through the FIR `a` into `out` (samples before `order` are left 0: they lack a full history).
 * Four outputs at a time, each with its own sum: one running sum is a chain of dependent additions the
 * CPU cannot overlap, and this was most of a delay search's time outside its FFTs (0.3 of ~2 ms here,
 * now ~0.17). Each output is summed in the same order as one at a time, so the result is the same to the bit.
 */
export function applyFilter(x: Float32Array, a: Float64Array, out: Float32Array): void {
  const p = a.length - 1;
  const n = x.length;
  out.fill(0, 0, Math.min(p, out.length));
  let i = p;
  for (; i + 3 < n; i += 4) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let k = 0; k <= p; k++) {
      const c = a[k]!;
      const j = i - k;
      s0 += c * x[j]!;
      s1 += c * x[j + 1]!;
      s2 += c * x[j + 2]!;
      s3 += c * x[j + 3]!;
    }
    out[i] = s0;
    out[i + 1] = s1;
    out[i + 2] = s2;
    out[i + 3] = s3;
  }
  for (; i < n; i++) {
    let s = 0;
    for (let k = 0; k <= p; k++) s += a[k]! * x[i - k]!;
    out[i] = s;
  }
}
