import { beforeAll, describe, expect, it } from 'vitest';
import { synthEarcon } from '../../src/speech/earcons.js';
import { rng } from '../support/room-sim.js';
import { espeakPhrase } from '../support/speech.js';
import { runStreamRoom, secondsUnder } from './room-run.js';

/**
 * The microphone's timeline comes from when arecord's periods reach hark, and a period can arrive
 * late, never early. Live, most periods reach hark 5-20 ms late (the event loop, a busy machine), and
 * now and then one comes through quicker than any before it. Such a period says the timeline sat a
 * few ms too late all along; but the filter has learnt the room at the timeline as it was, so moving
 * the microphone against hark's reference by those few ms undoes what it learnt.
 */
describe('a period that reaches hark quicker than any before it, mid-ring', () => {
  let ringText: Int16Array;
  const beeps = synthEarcon('timer', 0.8);
  beforeAll(async () => {
    ringText = await espeakPhrase('Timer done.');
  }, 60_000);


  it.each([1, 4, 8])('one period %i ms quicker than the rest at 30 s: every second of the ring stays cancelled 20 dB', async (quickerMs) => {
    const clips: Array<{ pcm: Int16Array; atMs: number }> = [{ pcm: ringText, atMs: 300 }];
    for (let t = 2000; t < 50_000; t += 2000) clips.push({ pcm: beeps, atMs: t }, { pcm: ringText, atMs: t + beeps.length / 16 + 20 });
    const noise = new Int16Array(160_000);
    const r = rng(7);
    for (let i = 0; i < noise.length; i++) noise[i] = Math.round((r() - 0.5) * 200);
    const late = rng(11);
    const quickAt = Math.round(30_000 / 125);
    const run = await runStreamRoom({ clips, cardMs: 10, delayMs: 55, gain: 0.7, rt60Ms: 250, noise, lateMs: (k) => (k === quickAt ? 10 - quickerMs : 10 + late() * 10) });
    expect(secondsUnder(run, 10_000, 20)).toEqual([]);
  });
});
