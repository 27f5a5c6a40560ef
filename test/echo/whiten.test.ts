import { describe, expect, it } from 'vitest';
import { applyFilter, predictionFilter } from '../../src/echo/whiten.js';

/** The delay tracker's whitening filter, four outputs at a time, against the plain sum of its definition. */
describe('applyFilter', () => {
  it('gives every sample of the direct sum, for any length (the last 0-3 samples after the groups of four too)', () => {
    let seed = 5;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
    for (const n of [3, 17, 18, 19, 20, 21, 3400, 3403]) {
      const x = Float32Array.from({ length: n }, rnd);
      const a = new Float64Array(17);
      predictionFilter(x, 0, n, 16, 0.01, a);
      if (n < 17) a.set(Float64Array.from({ length: 17 }, rnd));
      const out = new Float32Array(n).fill(NaN);
      applyFilter(x, a, out);
      const want = new Float32Array(n);
      for (let i = 16; i < n; i++) {
        let s = 0;
        for (let k = 0; k <= 16; k++) s += a[k]! * x[i - k]!;
        want[i] = s;
      }
      expect(Array.from(out)).toEqual(Array.from(want));
    }
  });
});
