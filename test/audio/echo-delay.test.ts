import { describe, expect, it } from 'vitest';
import { DelayEstimator } from '../../src/echo/delay.js';
import { synthEarcon } from '../../src/speech/earcons.js';
import { Reverb, rng } from '../support/room-sim.js';

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
    expect(
      run([
        { ms: 50, gain: 0.6 },
        { ms: 62, gain: 0.65 },
      ]),
    ).toBeCloseTo(50, 0);
  });

  it('but not a faint early echo far below the main one', () => {
    expect(
      run([
        { ms: 20, gain: 0.1 },
        { ms: 60, gain: 0.7 },
      ]),
    ).toBeCloseTo(60, 0);
  });

  // Live: mid-ring the tracker moved the canceller from 55 to 37 ms, and the ring leaked
  // into the microphone until the filter had learnt the room again. The beeps (one tone keyed on and
  // off) correlate at 85 % of the peak 18 ms early: a shoulder of the true delay, not an earlier path.
  it.each([38, 55, 72])("on the timer's beeps alone, through the room, finds %i ms, not the shoulder before it", (ms) => {
    const beeps = synthEarcon('timer', 0.8);
    const n = 16000 * 12;
    const ref = new Int16Array(n);
    for (let t = 0; t + beeps.length < n; t += 32000) ref.set(beeps, t);
    const x = new Float32Array(n);
    const d = Math.round(ms * 16);
    for (let i = d; i < n; i++) x[i] = ref[i - d]! * 0.7;
    const mic = Int16Array.from(new Reverb(250).process(x), (v) => Math.max(-32768, Math.min(32767, Math.round(v))));
    const est = new DelayEstimator();
    const seen = new Set<number>();
    for (let i = 0; i + 512 <= n; i += 512) {
      est.push(mic.subarray(i, i + 512), ref.subarray(i, i + 512), true);
      if (est.latest) seen.add(est.latest.lagMs);
    }
    // Every search lands within the canceller's margin's half of the truth (the room's reverb skews it a little).
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(ms - 5);
    expect(Math.max(...seen)).toBeLessThanOrEqual(ms + 5);
    expect(est.estimate!.lagMs).toBeCloseTo(ms, -1);
  });
});
