import { describe, expect, it } from 'vitest';
import { checkSplice } from '../../src/store/splice.js';
import { JFK_PHRASES, cutSegment, jfkPcm, splicedWithJump } from './fixtures.js';

describe('the pre-roll splice check', () => {
  it('does not warn on a correct splice anywhere in real speech (contiguous audio, every 23rd sample)', async () => {
    const pcm = await jfkPcm();
    const warned: number[] = [];
    for (let at = 200; at < pcm.length - 200; at += 23) if (checkSplice(pcm, at, 16000)!.warning) warned.push(at);
    expect(warned).toEqual([]);
  });

  it('does not warn on the JFK phrases cut as the segmenter cuts them', async () => {
    const pcm = await jfkPcm();
    for (const p of JFK_PHRASES) {
      const cut = cutSegment(pcm, p.vad, p.end);
      expect(checkSplice(cut.pcm, cut.prerollSamples, 16000)!.warning).toBe(false);
    }
  });

  it('warns when a quiet pre-roll is spliced onto the middle of a word', async () => {
    const seg = splicedWithJump(await jfkPcm());
    const c = checkSplice(seg.pcm, seg.prerollSamples, 16000)!;
    expect(c.warning).toBe(true);
    expect(c.levelAfter / c.levelBefore).toBeGreaterThan(10);
    expect(c.step).toBeGreaterThan(1000);
  });

  it('warns on a click: one sample step far above its neighbours', () => {
    const pcm = new Int16Array(1600);
    for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(800 * Math.sin(i / 5)) + (i >= 800 ? 6000 : 0);
    expect(checkSplice(pcm, 800, 16000)).toMatchObject({ warning: true, reason: 'step' });
  });

  it('has nothing to say without a splice (no pre-roll, or no live audio)', () => {
    const pcm = new Int16Array(100);
    expect(checkSplice(pcm, 0, 16000)).toBeNull();
    expect(checkSplice(pcm, 100, 16000)).toBeNull();
  });
});
