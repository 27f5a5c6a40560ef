import { describe, expect, it } from 'vitest';
import { CrossCorrelation } from '../../src/echo/xcorr.js';
import { rng } from '../support/prng.js';

/** The direct sum the delay tracker used to run: Σ a[i]·b[i−lag] over [from, to). */
function direct(a: Float32Array, b: Float32Array, from: number, to: number, lag: number): number {
  let s = 0;
  for (let i = from; i < to; i++) s += a[i]! * b[i - lag]!;
  return s;
}

describe("cross-correlation by FFT (the delay tracker's search)", () => {
  it('gives the direct sums at every lag, for both pairs at once', () => {
    const rand = rng(7);
    const len = 3400;
    const maxLag = 400;
    const sig = () => Float32Array.from({ length: len }, () => (rand() - 0.5) * 20000);
    const [a1, b1, a2, b2] = [sig(), sig(), sig(), sig()];
    // b1 carries a1 130 samples late, so c1 has a clear peak there.
    for (let i = 130; i < len; i++) a1[i]! += b1[i - 130]! * 0.5;
    const x = new CrossCorrelation(len);
    const c1 = new Float64Array(maxLag + 1);
    const c2 = new Float64Array(maxLag + 1);
    for (const from of [maxLag, 1000]) {
      x.correlate(a1, b1, a2, b2, from, len, maxLag, c1, c2);
      for (let lag = 0; lag <= maxLag; lag++) {
        const d1 = direct(a1, b1, from, len, lag);
        const d2 = direct(a2, b2, from, len, lag);
        const scale = Math.sqrt(direct(a1, a1, from, len, 0) * direct(b1, b1, from, len, 0));
        expect(Math.abs(c1[lag]! - d1) / scale).toBeLessThan(1e-9);
        expect(Math.abs(c2[lag]! - d2) / scale).toBeLessThan(1e-9);
      }
      expect(c1.indexOf(Math.max(...c1))).toBe(130);
    }
  });

  it('refuses lags that would reach before the arrays', () => {
    const x = new CrossCorrelation(1000);
    const z = new Float32Array(1000);
    const out = new Float64Array(101);
    expect(() => x.correlate(z, z, z, z, 50, 1000, 100, out, out)).toThrow(/outside the arrays/);
  });
});
