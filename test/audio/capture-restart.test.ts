import { describe, expect, it } from 'vitest';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Segment } from '../../src/vad/segment.js';
import type { Vad } from '../../src/vad/vad.js';

/**
 * At the pipeline: a capture restart closes the open segment ('capture-lost') and the
 * next one starts fresh — no pre-roll or opening run reaching back across the gap — while positions
 * and indexes carry on, unique and increasing. The VAD is a stand-in: a frame is speech when loud.
 */
const loudVad = (): Vad & { resets: number } => {
  const v = {
    name: 'webrtc' as const,
    resets: 0,
    process: async (f: Int16Array) => (Math.abs(f[0]!) > 1000 ? 1 : 0),
    reset: () => void v.resets++,
    close: async () => {},
  };
  return v;
};
const opts = { threshold: 0.5, releaseThreshold: 0.35, prerollMs: 500, minSpeechMs: 96, hangoverMs: 600, maxSegmentMs: 12_000, minSegmentMs: 250 };
const chunk = (ms: number, loud: boolean) => new Int16Array((ms * 16) | 0).fill(loud ? 5000 : 0);

describe('SegmentPipeline.captureLost', () => {
  it('closes the open segment with capture-lost and starts the next one after the gap', async () => {
    const vad = loudVad();
    const p = new SegmentPipeline({ vad, segmenter: opts });
    const segments: Segment[] = [];
    p.on('segment', (s) => segments.push(s));
    await p.push(chunk(1000, false));
    await p.push(chunk(1000, true)); // speech, still open when the mic dies
    await p.captureLost();
    expect(segments).toHaveLength(1);
    expect(segments[0]).toMatchObject({ closeReason: 'capture-lost', index: 0, endSample: 32_000 });
    expect(vad.resets).toBe(1);
    // after the restart: 192 ms (6 frames) of silence, then speech; its pre-roll may not reach before the restart
    await p.push(chunk(192, false));
    await p.push(chunk(1000, true));
    await p.push(chunk(1000, false));
    expect(segments).toHaveLength(2);
    const next = segments[1]!;
    expect(next.index).toBe(1);
    expect(next.closeReason).toBe('hangover');
    expect(next.startSample).toBeGreaterThanOrEqual(32_000);
    expect(next.vadStartSample).toBe(32_000 + 3072);
    expect(next.prerollSamples).toBe(3072);
    expect(next.pcm.length).toBe(next.endSample - next.startSample);
    expect(p.position).toBeGreaterThanOrEqual(next.endSample);
  });

  it('with nothing open, still keeps the next segment from reaching back across the gap', async () => {
    const p = new SegmentPipeline({ vad: loudVad(), segmenter: opts });
    const segments: Segment[] = [];
    p.on('segment', (s) => segments.push(s));
    await p.push(chunk(1000, false));
    await p.push(chunk(64, true)); // an opening run cut short by the outage
    await p.captureLost();
    await p.push(chunk(64, true));
    await p.push(chunk(1000, true));
    await p.push(chunk(1000, false));
    expect(segments).toHaveLength(1);
    expect(segments[0]!.startSample).toBe(16_000 + 1024);
    expect(segments[0]!.prerollSamples).toBe(0);
  });
});
