import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { HarkError } from '../../src/core/errors.js';
import { WavFileSource } from '../../src/audio/capture-wav.js';
import { JFK_WAV, outputDir } from '../support/paths.js';
import { soxSamples } from './helpers.js';
import { concatPcm } from '../../src/audio/pcm.js';

function collect(src: WavFileSource) {
  const events: string[] = [];
  const chunks: Int16Array[] = [];
  src.on('up', () => events.push('up'));
  src.on('data', (c) => {
    events.push('data');
    chunks.push(c.slice());
  });
  src.on('end', () => events.push('end'));
  const joined = () => concatPcm(chunks);
  return { events, chunks, joined };
}

describe('WavFileSource', () => {
  it('fast: plays the whole file in 512-sample chunks, in order, then ends', async () => {
    const src = new WavFileSource(JFK_WAV, { pace: 'fast' });
    const { events, chunks, joined } = collect(src);
    await src.start();
    await src.finished;
    expect(events[0]).toBe('up');
    expect(events.at(-1)).toBe('end');
    expect(chunks.length).toBe(Math.ceil(176_000 / 512));
    expect(chunks.slice(0, -1).every((c) => c.length === 512)).toBe(true);
    expect(Buffer.from(joined().buffer).equals(Buffer.from(soxSamples(JFK_WAV).buffer))).toBe(true);
    expect(src.description).toBe('file jfk.wav');
  });

  it('fast: yields to the event loop between chunks, so other work is not starved', async () => {
    const src = new WavFileSource(new Int16Array(512 * 200), { pace: 'fast' });
    let seenWhenTimerRan = -1;
    let seen = 0;
    src.on('data', () => {
      // Other macrotask work queued during the first chunk must run before the last one. A
      // setTimeout(0) probe was flaky: 200 chunks can all go out within its 1 ms on a fast run.
      if (seen++ === 0) setImmediate(() => (seenWhenTimerRan = seen));
    });
    await src.start();
    await src.finished;
    expect(seen).toBe(200);
    expect(seenWhenTimerRan).toBeGreaterThan(0);
    expect(seenWhenTimerRan).toBeLessThan(200);
  });

  it('realtime: each chunk arrives when its last sample would have been spoken', async () => {
    const clock = new VirtualClock();
    const pcm = Int16Array.from({ length: 1024 * 3 + 100 }, (_, i) => i);
    const src = new WavFileSource(pcm, { pace: 'realtime', chunkSamples: 1024, clock });
    const { events, chunks, joined } = collect(src);
    const times: number[] = [];
    src.on('data', () => times.push(clock.now()));
    await src.start();
    expect(events).toEqual(['up']);
    clock.advanceBy(63);
    expect(chunks).toHaveLength(0);
    clock.advanceBy(1); // 1024 samples = 64 ms
    expect(chunks).toHaveLength(1);
    clock.advanceBy(10_000);
    expect(times).toEqual([64, 128, 192, 198.25]);
    expect(events.at(-1)).toBe('end');
    expect(Array.from(joined())).toEqual(Array.from(pcm));
    expect(clock.pending()).toBe(0);
  });

  it('stop: no more data and no end after it, and no timer left', async () => {
    const clock = new VirtualClock();
    const src = new WavFileSource(new Int16Array(16000), { pace: 'realtime', clock });
    const { events } = collect(src);
    await src.start();
    clock.advanceBy(100);
    await src.stop();
    await src.finished;
    const count = events.length;
    clock.advanceBy(5000);
    expect(events.length).toBe(count);
    expect(events).not.toContain('end');
    expect(clock.pending()).toBe(0);
    await src.stop(); // twice is fine
  });

  it('a file that is not a usable WAV rejects start() with the file and the problem', async () => {
    const bad = join(outputDir('audio-capture-wav'), 'not-audio.wav');
    writeFileSync(bad, 'hello');
    const src = new WavFileSource(bad);
    const err = await src.start().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toMatch(/not-audio\.wav: not a WAV file/);
  });

  it('refuses a nonsense chunk size', () => {
    expect(() => new WavFileSource(new Int16Array(1), { chunkSamples: 0 })).toThrow(/chunkSamples/);
  });
});
