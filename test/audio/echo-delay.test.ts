import { describe, expect, it } from 'vitest';
import { DelayEstimator } from '../../src/audio/echo-delay.js';
import { rng } from '../support/room-sim.js';

/**
 * The delay estimator takes the direct path, the earliest arrival, over a room reflection that
 * correlates as well or a little better later on: an estimate late by a reflection puts the direct
 * path before the canceller's filter, where nothing cancels it.
 */
describe('DelayEstimator', () => {
  function run(paths: Array<{ ms: number; gain: number }>): number | null {
    const est = new DelayEstimator();
    const rand = rng(7);
    const n = 16000 * 4;
    const ref = new Int16Array(n).map(() => Math.round((rand() - 0.5) * 12000));
    const mic = new Int16Array(n);
    for (const p of paths) {
      const d = Math.round(p.ms * 16);
      for (let i = d; i < n; i++) mic[i] = Math.max(-32768, Math.min(32767, mic[i]! + Math.round(ref[i - d]! * p.gain)));
    }
    let believed: number | null = null;
    for (let i = 0; i + 512 <= n; i += 512) {
      const e = est.push(mic.subarray(i, i + 512), ref.subarray(i, i + 512), true);
      if (e) believed = e.lagMs;
    }
    return believed;
  }

  it('finds a single path', () => {
    expect(run([{ ms: 50, gain: 0.7 }])).toBeCloseTo(50, 0);
  });

  it('takes the direct path (50 ms) over a reflection 12 ms later that is a little stronger', () => {
    expect(run([{ ms: 50, gain: 0.6 }, { ms: 62, gain: 0.65 }])).toBeCloseTo(50, 0);
  });

  it('but not a faint early echo far below the main one', () => {
    expect(run([{ ms: 20, gain: 0.1 }, { ms: 60, gain: 0.7 }])).toBeCloseTo(60, 0);
  });
});
