import { describe, expect, it } from 'vitest';
import { AplayPlayer } from '../../src/speech/aplay.js';

const tone = (ms: number) => Int16Array.from({ length: Math.round(ms * 16) }, (_, i) => Math.round(Math.sin((2 * Math.PI * 440 * i) / 16_000) * 8000));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// AplayPlayer.playStream (added for the Wyoming voice): a real aplay on ALSA's null device.
describe('aplay, fed as audio arrives', () => {
  it('plays what is pushed, waits when the stream runs dry, ends when told, with the whole length', async () => {
    const pb = new AplayPlayer({ device: 'null' }).playStream();
    await pb.started;
    pb.push(tone(200));
    await sleep(400); // longer than what was pushed: the stream runs dry, aplay waits
    pb.push(tone(300));
    pb.push(new Int16Array(0));
    pb.end();
    pb.push(tone(1000)); // after end(): ignored
    const result = await pb.done;
    expect(result).toEqual({ outcome: 'ended', playedMs: 500 });
  });

  it('a stream that has run dry does not count silence as played', async () => {
    const pb = new AplayPlayer({ device: 'null' }).playStream();
    await pb.started;
    pb.push(tone(100));
    await sleep(500);
    expect(pb.playedMs()).toBeLessThanOrEqual(100);
    await pb.stop();
  });

  it('stop() mid-stream silences it and reports stopped', async () => {
    const pb = new AplayPlayer({ device: 'null' }).playStream();
    await pb.started;
    pb.push(tone(5000));
    await sleep(200);
    await pb.stop();
    const result = await pb.done;
    expect(result.outcome).toBe('stopped');
    expect(result.playedMs).toBeLessThan(5000);
  });

  it('end() before aplay is up still plays everything', async () => {
    const pb = new AplayPlayer({ device: 'null' }).playStream();
    pb.push(tone(150));
    pb.end();
    expect(await pb.done).toEqual({ outcome: 'ended', playedMs: 150 });
  });
});
