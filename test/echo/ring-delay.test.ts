import { describe, expect, it } from 'vitest';
import { hiss, ringClips, runStreamRoom, secondsUnder } from './room-run.js';

/**
 * A timer ringing for a minute through the stream player: hark's ring (three bright beeps twice, then
 * "Timer done.") every 2 s. The beeps are one tone keyed on and off, so the reference correlates with
 * the microphone almost as well 15-20 ms either side of the true delay as at it. Live, the delay
 * tracker took such a shoulder for the direct path and moved the canceller's alignment from 55 to
 * 37 ms mid-ring: the filter, learnt at 55, cancelled nothing until it learnt the room again, and the
 * ring opened segments (11-18 in a minute).
 */
describe('a minute of ringing through the stream player, in the simulated room', () => {
  it.each([
    [55, true],
    [55, false],
    [38, false],
    [72, false],
  ])('at %i ms (named: %s) the alignment holds once the room is known, and every second of the ring stays cancelled', async (delayMs, named) => {
    const run = await runStreamRoom({ clips: await ringClips(62_000, named), cardMs: 10, delayMs, gain: 0.7, rt60Ms: 250, noise: hiss() });
    const delays = run.delays!;
    const after = delays.slice(Math.round(10_000 / 32));
    const moves = after.filter((d, i) => i > 0 && d !== after[i - 1]).length;
    expect({ moves, settled: after[0] }).toEqual({ moves: 0, settled: after[0] });
    expect(secondsUnder(run, 10_000, 20)).toEqual([]);
  });
});
