import { describe, expect, it } from 'vitest';
import { createNativeResampler } from '../../src/echo/addon.js';
import { RATIO_DEN, RESAMPLER_QUALITY } from '../../src/echo/drift.js';

/**
 * speexdsp's resampler as hark-aec builds it (native/hark-aec/src/resample-ext.c): hark's reference
 * moved onto the microphone's clock by fractions of a ppm, starting between two samples, its ratio
 * changed as the skew is measured. Judged by what the canceller needs: each output sample is the
 * signal where the clocks put it, 80 dB clean, across a change of ratio.
 */
const signal = (t: number) => 8000 * Math.sin((2 * Math.PI * 1000 * t) / 16000 + 0.3 * Math.sin(t * 0.001)) + 4000 * Math.sin((2 * Math.PI * 3100 * t) / 16000);

describe("the reference's resampler", () => {
  it.each([
    { ppm: 200, then: 200, at: 3000.3 },
    { ppm: -200, then: -150, at: 3000.77 },
    { ppm: 20, then: -20, at: 5000 },
    { ppm: 1, then: 3, at: 4000.5 },
  ])('$ppm then $then ppm from $at: every sample where the clocks put it', ({ ppm, then, at }) => {
    const made = createNativeResampler(RESAMPLER_QUALITY);
    if ('error' in made) throw new Error(made.error);
    const rs = made.resampler;
    const x = Int16Array.from({ length: 16000 * 8 }, (_, i) => Math.round(signal(i)));
    const set = (p: number) => {
      const num = Math.round(RATIO_DEN * (1 + p * 1e-6));
      rs.setRatio(num, RATIO_DEN);
      return num / RATIO_DEN;
    };
    let ratio = set(ppm);
    rs.reset();
    const warm = 2 * rs.inputLatency;
    const start = at + rs.inputLatency - warm * ratio;
    let cursor = Math.floor(start);
    rs.setPhase(start - cursor);
    cursor += rs.process(x.subarray(cursor, cursor + warm + 8), new Int16Array(warm))[0];
    let pos = at;
    const snr: number[] = [];
    const out = new Int16Array(512);
    for (let k = 0; k < 150; k++) {
      if (k === 75) ratio = set(then);
      const [used, made] = rs.process(x.subarray(cursor, cursor + 600), out);
      expect(made).toBe(512);
      cursor += used;
      let e = 0;
      let s = 0;
      for (let m = 0; m < 512; m++) {
        const v = signal(pos + m * ratio);
        e += (out[m]! - v) ** 2;
        s += v * v;
      }
      pos += 512 * ratio;
      snr.push(10 * Math.log10(s / e));
    }
    rs.close();
    expect(Math.min(...snr)).toBeGreaterThan(78);
  });

  it('a ratio it cannot take is refused with a reason', () => {
    const made = createNativeResampler(RESAMPLER_QUALITY);
    if ('error' in made) throw new Error(made.error);
    expect(() => made.resampler.setRatio(RATIO_DEN * 3, RATIO_DEN)).toThrow(/within a factor 2/);
    expect(() => made.resampler.setPhase(1.5)).toThrow(/fraction/);
    made.resampler.close();
  });
});
