import { describe, expect, it } from 'vitest';
import { AplayPlayer } from '../../src/speech/aplay.js';

/** A tone, so a wrong byte order or rate would at least be audible on a real device. */
function tone(ms: number, hz = 440): Int16Array {
  const n = Math.round(ms * 16);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.round(Math.sin((2 * Math.PI * hz * i) / 16_000) * 8000);
  return out;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Real aplay processes playing to ALSA's `null` device: it takes audio like a sound card and discards it.
describe('aplay playback', () => {
  it('plays a clip to its end, paced like real time', async () => {
    const player = new AplayPlayer({ device: 'null' });
    const t0 = performance.now();
    const pb = player.play(tone(600));
    await pb.started;
    const result = await pb.done;
    const took = performance.now() - t0;
    expect(result).toEqual({ outcome: 'ended', playedMs: 600 });
    // fed in step with the clock (the null device itself would swallow it at once): most of 600 ms passes
    expect(took).toBeGreaterThan(600 - 400 - 50);
  });

  it('stop() silences it: the aplay process is gone within 50 ms', async () => {
    const player = new AplayPlayer({ device: 'null' });
    const pb = player.play(tone(10_000));
    await pb.started;
    await new Promise((r) => setTimeout(r, 300));
    const pid = pb.pid!;
    expect(alive(pid)).toBe(true);
    const t0 = performance.now();
    await pb.stop();
    const elapsed = performance.now() - t0;
    expect(alive(pid)).toBe(false);
    expect(elapsed).toBeLessThan(50);
    const result = await pb.done;
    expect(result.outcome).toBe('stopped');
    expect(result.playedMs).toBeGreaterThanOrEqual(250);
    expect(result.playedMs).toBeLessThan(2000);
  });

  it('a device that does not exist is an error naming the device', async () => {
    const pb = new AplayPlayer({ device: 'plughw:CARD=NoSuchCard,DEV=0' }).play(tone(200));
    const result = await pb.done;
    expect(result.outcome).toBe('error');
    expect(result.error).toMatch(/^aplay could not play on "plughw:CARD=NoSuchCard,DEV=0": /);
  });

  it('a missing aplay says how to install it', async () => {
    const result = await new AplayPlayer({ device: 'null', bin: 'aplay-not-installed' }).play(tone(100)).done;
    expect(result).toMatchObject({ outcome: 'error', error: 'aplay-not-installed is not installed (sudo apt-get install alsa-utils)' });
  });
});
