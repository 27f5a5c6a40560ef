import { describe, expect, it } from 'vitest';
import { EchoReference } from '../../src/echo/reference.js';
import { AplayPlayer } from '../../src/speech/aplay.js';

/** The echo canceller's reference is exactly what aplay was given, from when it started to where it was cut. */
describe('AplayPlayer reference (real aplay on the null device)', () => {
  it('reports each clip with its samples and start, and where stop() cut it', async () => {
    const reference = new EchoReference();
    const player = new AplayPlayer({ device: 'null', reference: reference });
    const pcm = new Int16Array(16000).map((_, i) => Math.round(5000 * Math.sin(i / 5)));
    const t0 = performance.now();
    const pb = player.play(pcm);
    await pb.started;
    const start = reference.latestStart;
    expect(reference.clipCount).toBe(1);
    expect(start / 16).toBeGreaterThanOrEqual(t0 - 1);
    // The reference over the clip's first 512 samples is the clip itself.
    const out = new Int16Array(512);
    expect(reference.render(start, out)).toBe(true);
    expect(Array.from(out)).toEqual(Array.from(pcm.subarray(0, 512)));
    await new Promise((r) => setTimeout(r, 200));
    await pb.stop();
    const cutAt = reference.endPosition;
    // Cut where it stopped: well before the clip's end (1 s), after what played (200 ms): what had been
    // handed to aplay (the lead) still sounds, so the reference keeps it.
    expect(cutAt - start).toBeGreaterThanOrEqual(200 * 16 - 16);
    expect(cutAt - start).toBeLessThan(16000);
    expect(reference.render(cutAt, out)).toBe(false);
    player.close();
  });

  it('a clip played to its end stays whole', async () => {
    const reference = new EchoReference();
    const player = new AplayPlayer({ device: 'null', reference: reference });
    const pcm = new Int16Array(3200).fill(1000);
    const r = await player.play(pcm).done;
    expect(r.outcome).toBe('ended');
    expect(reference.endPosition - reference.latestStart).toBe(3200);
    player.close();
  });
});
