import { describe, expect, it } from 'vitest';
import { rng } from '../support/room-sim.js';
import { hiss, ringClips, runStreamRoom, secondsUnder } from './room-run.js';

/**
 * The microphone's timeline comes from when arecord's periods reach hark, and a period can arrive
 * late, never early. Live, most periods reach hark 5-20 ms late (the event loop, a busy machine), and
 * now and then one comes through quicker than any before it. Such a period says the timeline sat a
 * few ms too late all along; but the filter has learnt the room at the timeline as it was, so moving
 * the microphone against hark's reference by those few ms undoes what it learnt.
 */
describe('a period that reaches hark quicker than any before it, mid-ring', () => {
  it.each([1, 4, 8])('one period %i ms quicker than the rest at 30 s: every second of the ring stays cancelled 20 dB', async (quickerMs) => {
    const late = rng(11);
    const quickAt = Math.round(30_000 / 125);
    const run = await runStreamRoom({
      clips: await ringClips(50_000, true),
      cardMs: 10,
      delayMs: 55,
      gain: 0.7,
      rt60Ms: 250,
      noise: hiss(),
      lateMs: (k) => (k === quickAt ? 10 - quickerMs : 10 + late() * 10),
    });
    expect(secondsUnder(run, 10_000, 20)).toEqual([]);
  });
});
