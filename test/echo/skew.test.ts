import { describe, expect, it } from 'vitest';
import { fineLag, stretchedReference } from '../../src/echo/fine-lag.js';
import { SkewEstimator, pooledSlope } from '../../src/echo/skew.js';
import { gaussian, sampleAt } from '../support/room-acoustics.js';
import { rng } from '../support/prng.js';

/**
 * The skew estimator against the truth: lags on a line of known slope (the speaker `ppm` off the
 * microphone), measured once a second with the fine lag's own scatter, across restarts that move the
 * echo by whole milliseconds, with the odd search locked onto another reflection.
 */
describe("the two clocks' skew, from the echo's lag", () => {
  const cases = [
    { ppm: 0, noiseMs: 0.002, restarts: [], outliers: 0 },
    { ppm: 20, noiseMs: 0.002, restarts: [], outliers: 0 },
    { ppm: -20, noiseMs: 0.004, restarts: [12_000], outliers: 0 },
    { ppm: 150, noiseMs: 0.004, restarts: [7000, 19_000], outliers: 2 },
    { ppm: -200, noiseMs: 0.006, restarts: [15_000], outliers: 3 },
    { ppm: 5, noiseMs: 0.006, restarts: [], outliers: 3 },
  ];
  it.each(cases)(
    '$ppm ppm, scatter $noiseMs ms, restarts at $restarts, $outliers strays: within 0.3 ppm after 30 s',
    ({ ppm, noiseMs, restarts, outliers }) => {
      const g = gaussian(rng(ppm + 1000));
      const e = new SkewEstimator();
      let offset = 80;
      const stray = new Set(Array.from({ length: outliers }, (_, k) => 3 + k * 7));
      const settledAt: number[] = [];
      for (let s = 0; s <= 30; s++) {
        const t = 2000 + s * 1000;
        if (restarts.some((r) => r > t - 1000 && r <= t)) {
          offset += 23;
          e.breakRun();
        }
        const lag = offset - ppm * 1e-6 * t + g() * noiseMs + (stray.has(s) ? 0.19 : 0);
        e.lag(t, lag);
        if (e.reading().settled) settledAt.push(s);
      }
      const r = e.reading();
      expect(Math.abs(r.ppm! - ppm)).toBeLessThan(0.3);
      expect(r.settled).toBe(true);
      // It says so within seconds: sooner the tighter the lags.
      expect(settledAt[0]).toBeLessThanOrEqual(noiseMs <= 0.004 ? 20 : 30);
    },
  );

  it('says nothing before a few seconds of lags, and keeps what it measured across a restart with no lag since', () => {
    const e = new SkewEstimator();
    e.lag(1000, 50);
    e.lag(2000, 50 - 0.002);
    expect(e.reading().ppm).toBeNull();
    for (let s = 3; s <= 12; s++) e.lag(s * 1000, 50 - 0.002 * (s - 1));
    const before = e.reading().ppm!;
    expect(before).toBeCloseTo(2, 1);
    e.breakRun();
    expect(e.reading().ppm).toBe(before);
    e.lag(13_000, 70);
    expect(e.reading().ppm).toBeCloseTo(before, 6);
  });

  it("the capture's count against the monotonic clock: a card 100 ppm fast, periods 0-15 ms late", () => {
    const e = new SkewEstimator();
    const r = rng(5);
    let samples = 0;
    for (let k = 1; k <= 8 * 120; k++) {
      samples += 2000;
      // The card's 2000 samples take 125 ms of its own, (1 - 100e-6) of the host's.
      e.captured(samples, k * 125 * (1 - 100e-6) + r() * 15, 16000);
    }
    expect(e.reading().captureVsClockPpm).toBeGreaterThan(60);
    expect(e.reading().captureVsClockPpm).toBeLessThan(140);
  });

  it('leaves out lags read on a clock far from the skew, once enough are read near it', () => {
    const e = new SkewEstimator();
    // Ten seconds read against the reference as played: each a sample or so off a line 200 ppm steep.
    const off = [0.9, -0.4, 1.2, -1.1, 0.3, 1.5, -0.8, 0.6, -1.3, 1.0];
    off.forEach((d, s) => e.lag(1000 + s * 1000, 80 - 200e-6 * (1000 + s * 1000) + d / 16, 0));
    const early = e.reading().ppm!;
    // Then read on the clock those gave (within 20 ppm of 200): a hundredth of a sample off.
    for (let s = 10; s < 20; s++) e.lag(1000 + s * 1000, 80 - 200e-6 * (1000 + s * 1000) + ((s % 3) - 1) * 0.0006, early);
    expect(Math.abs(early - 200)).toBeGreaterThan(2);
    expect(Math.abs(e.reading().ppm! - 200)).toBeLessThan(0.3);
  });

  it('pooledSlope takes one slope across runs with their own offsets', () => {
    const pts = [0, 1, 2, 3].flatMap((k) => [0, 1, 2].map((run) => ({ t: k * 10 + run * 100, y: run * 50 + 0.5 * (k * 10 + run * 100), run })));
    expect(pooledSlope(pts)!.slope).toBeCloseTo(0.5, 9);
  });
});

describe('the fine lag', () => {
  const white = (n: number, seed: number) => {
    const g = gaussian(rng(seed));
    return Float32Array.from({ length: n }, () => g() * 3000);
  };
  it.each([
    { lag: 1280.3, reflection: 0 },
    { lag: 1280.77, reflection: 0.6 },
    { lag: 1279.5, reflection: -0.5 },
    { lag: 640.1, reflection: 0.6 },
  ])("hark's sound $lag samples late (a reflection at $reflection 3 ms after): found within 0.05 of a sample", ({ lag, reflection }) => {
    const n = 16000;
    const reach = 8;
    const centre = Math.round(lag) + 2;
    const src = white(40_000, 9);
    // Reference positions from p0; the microphone from m0 = p0 + 20000.
    const m0 = 20_000;
    const mic = Float32Array.from({ length: n }, (_, i) => 0.7 * sampleAt(src, m0 + i - lag) + 0.7 * reflection * sampleAt(src, m0 + i - lag - 48));
    const first = m0 - centre - reach - 16;
    const ref = src.slice(first, first + n + 2 * reach + 16);
    const got = fineLag(mic, ref, centre, reach)!;
    expect(got.lag).toBeCloseTo(lag, 1);
    expect(Math.abs(got.lag - lag)).toBeLessThan(0.05);
    expect(got.strength).toBeGreaterThan(0.5);
  });

  it.each([
    { readAt: 200, within: 0.05 },
    { readAt: 190, within: 0.1 },
  ])(
    'an echo sliding at 200 ppm, its sound in the first third of the second: read at $readAt ppm, the lag at the middle within $within',
    ({ readAt, within }) => {
      const n = 16000;
      const reach = 8;
      const lagMid = 1280.4;
      const src = white(40_000, 11);
      const m0 = 20_000;
      // The speaker 200 ppm fast: the lag shrinks by 3.2 samples over the second. The sound is loud
      // only in its first third (a reply's word, then the room), as a second of hark often is.
      const mic = Float32Array.from({ length: n }, (_, i) => (i < n / 3 ? 1 : 0.05) * sampleAt(src, m0 + i - (lagMid - 200e-6 * (i - n / 2))));
      const centre = Math.round(lagMid);
      const first = m0 - centre - reach - 16;
      const read = (p: number, out: Int16Array) => out.forEach((_, j) => (out[j] = src[p + j] ?? 0));
      const at = (ppm: number) => fineLag(mic, stretchedReference(read, first, n + 2 * reach + 16, n / 2 + reach + 16, ppm), centre, reach)!.lag;
      expect(Math.abs(at(readAt) - lagMid)).toBeLessThan(within);
      // Against the reference as played, the lag found is the first third's: a sample off.
      expect(Math.abs(at(0) - lagMid)).toBeGreaterThan(0.8);
    },
  );

  it('null when the peak lies beyond the reach, or the reference is silent', () => {
    const src = white(40_000, 3);
    const mic = src.slice(20_000 - 100, 20_000 - 100 + 8000);
    const ref = src.slice(20_000 - 50 - 8 - 16, 20_000 - 50 - 8 - 16 + 8000 + 32);
    expect(fineLag(mic, ref, 50, 8)).toBeNull();
    expect(fineLag(mic, new Float32Array(8000 + 32), 50, 8)).toBeNull();
  });
});
