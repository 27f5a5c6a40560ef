import { beforeAll, describe, expect, it } from 'vitest';
import { rms } from '../support/room-sim.js';
import { espeakPhrase } from '../support/speech.js';
import { activeWindows, runRoomClips, runStreamRoom, type RoomRun } from './room-run.js';

/**
 * A timer ringing through the stream player (one aplay, AplayStream) into the simulated room: the
 * ring's many short clips share one latency, so the canceller, once it has the room, keeps it across
 * them. The same ring through one aplay per clip, each starting 0-130 ms late, is the defect it fixes.
 */
function erleOver(run: RoomRun, from: number, to: number): number {
  let mic = 0;
  let out = 0;
  for (const [a, b] of activeWindows(run, from, to)) {
    mic += rms(run.mic, a, b) ** 2;
    out += rms(run.out, a, b) ** 2;
  }
  return 10 * Math.log10(mic / out);
}

describe('a ring through one long-lived aplay, in the simulated room', () => {
  let confirm: Int16Array;
  let name: Int16Array;
  const chime = new Int16Array(4800).map((_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 880 * i) / 16000) * Math.exp(-i / 2400)));
  beforeAll(async () => {
    confirm = await espeakPhrase('Timer set for forty seconds. I will ring when it is done.');
    name = await espeakPhrase('Pasta timer done.');
  }, 60_000);

  const ring = (jitter: number[]) => {
    const clips: Array<{ pcm: Int16Array; atMs: number; startMs: number }> = [{ pcm: confirm, atMs: 500, startMs: 30 }];
    for (let k = 0; k < 8; k++)
      clips.push(
        { pcm: chime, atMs: 6000 + k * 2500, startMs: jitter[(2 * k) % jitter.length]! },
        { pcm: name, atMs: 6400 + k * 2500, startMs: jitter[(2 * k + 1) % jitter.length]! },
      );
    return clips;
  };

  it('is cancelled 25 dB or more once the room is known, one process for all of it', async () => {
    const run = await runStreamRoom({ clips: ring([0]), cardMs: 10, delayMs: 50, gain: 0.7, rt60Ms: 250 });
    expect(run.processes).toBe(1);
    expect(erleOver(run, 11000 * 16, 27000 * 16)).toBeGreaterThanOrEqual(25);
    expect(run.stage.status.converged).toBe(true);
  });

  it('(the defect) one aplay per clip, each starting 0-130 ms late: the same ring is barely cancelled', () => {
    const run = runRoomClips({ clips: ring([0, 120, 40, 130, 10, 90, 60, 20, 110, 70, 30, 100, 50, 80, 5, 125]), delayMs: 50, gain: 0.7, rt60Ms: 250 });
    expect(erleOver(run, 11000 * 16, 27000 * 16)).toBeLessThan(15);
  });
});
