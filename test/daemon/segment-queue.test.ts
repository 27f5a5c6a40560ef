import { describe, expect, it } from 'vitest';
import { SegmentQueue, type JobInput, type Lane } from '../../src/path/segment-queue.js';

/** The waiting line in front of speech-to-text: lanes, lateness and the audio bound, on a virtual timeline. */

const seg = (value: string, lane: Lane = 'normal', bytes = 32_000): JobInput<string> => ({ value, lane, bytes, audioSec: bytes / 32_000 });
const text = (value: string): JobInput<string> => ({ value, lane: 'normal', bytes: 0, audioSec: 0 });

function drain(q: SegmentQueue<string>, now: number): string[] {
  const out: string[] = [];
  for (let t = q.take(now); t; t = q.take(now)) out.push(t.job.value);
  return out;
}

describe('SegmentQueue order', () => {
  it.each([
    { name: 'first in, first out in one lane', pushes: [seg('a'), seg('b'), seg('c')], order: ['a', 'b', 'c'] },
    {
      name: 'a push-to-talk segment goes before radio queued earlier',
      pushes: [seg('radio1'), seg('radio2'), seg('ptt', 'first')],
      order: ['ptt', 'radio1', 'radio2'],
    },
    { name: 'two first-lane jobs keep their order', pushes: [seg('r'), seg('answer', 'first'), seg('ptt', 'first')], order: ['answer', 'ptt', 'r'] },
    { name: 'text and taps stay in order with segments of their lane', pushes: [seg('a'), text('tap'), seg('b')], order: ['a', 'tap', 'b'] },
  ])('$name', ({ pushes, order }) => {
    const q = new SegmentQueue<string>({ maxWaitMs: 10_000, maxBytes: 10_000_000 });
    for (const p of pushes) q.push(p, 0);
    expect(drain(q, 0)).toEqual(order);
    expect(q.depth).toBe(0);
    expect(q.bytes).toBe(0);
  });
});

describe('SegmentQueue lateness', () => {
  it.each([
    { waited: 9_999, late: false },
    { waited: 10_000, late: false },
    { waited: 10_001, late: true },
  ])('a job taken after $waited ms is late=$late', ({ waited, late }) => {
    const q = new SegmentQueue<string>({ maxWaitMs: 10_000, maxBytes: 1e9 });
    q.push(seg('a'), 1000);
    const t = q.take(1000 + waited)!;
    expect(t.waitedMs).toBe(waited);
    expect(t.late).toBe(late);
  });

  it('is behind while the oldest waits past the bound, and for one bound after a late take', () => {
    const q = new SegmentQueue<string>({ maxWaitMs: 10_000, maxBytes: 1e9 });
    expect(q.behind(0)).toBe(false);
    q.push(seg('a'), 0);
    q.push(seg('b'), 5_000);
    expect(q.behind(10_000)).toBe(false);
    expect(q.behind(10_001)).toBe(true);
    expect(q.oldestWaitMs(12_000)).toBe(12_000);
    expect(q.take(12_000)!.late).toBe(true);
    expect(q.take(12_000)!.late).toBe(false);
    expect(q.behind(22_000)).toBe(true);
    expect(q.behind(22_001)).toBe(false);
  });
});

describe('SegmentQueue audio bound', () => {
  it.each([
    { name: 'under the bound nothing is evicted', pushes: [seg('a'), seg('b')], maxBytes: 64_000, evicted: [], left: ['a', 'b'] },
    { name: 'past it the oldest goes', pushes: [seg('a'), seg('b'), seg('c')], maxBytes: 64_000, evicted: ['a'], left: ['b', 'c'] },
    { name: 'normal lane before first lane', pushes: [seg('ptt', 'first'), seg('r1'), seg('r2')], maxBytes: 64_000, evicted: ['r1'], left: ['ptt', 'r2'] },
    {
      name: 'several go for one big segment',
      pushes: [seg('a'), seg('b'), seg('big', 'normal', 90_000)],
      maxBytes: 100_000,
      evicted: ['a', 'b'],
      left: ['big'],
    },
    { name: 'the last audio job is never evicted', pushes: [seg('huge', 'normal', 500_000)], maxBytes: 100_000, evicted: [], left: ['huge'] },
    { name: 'text is never evicted', pushes: [text('t'), seg('a'), seg('b'), seg('c')], maxBytes: 64_000, evicted: ['a'], left: ['t', 'b', 'c'] },
  ])('$name', ({ pushes, maxBytes, evicted, left }) => {
    const q = new SegmentQueue<string>({ maxWaitMs: 10_000, maxBytes });
    const out: string[] = [];
    for (const p of pushes) out.push(...q.push(p, 0).map((j) => j.value));
    expect(out).toEqual(evicted);
    expect(q.bytes).toBeLessThanOrEqual(Math.max(maxBytes, ...pushes.map((p) => p.bytes)));
    expect(drain(q, 0)).toEqual(left);
  });

  it('counts depth, seconds waiting and the peak depth', () => {
    const q = new SegmentQueue<string>({ maxWaitMs: 10_000, maxBytes: 1e9 });
    q.push(seg('a', 'normal', 64_000), 0);
    q.push(seg('b'), 0);
    expect(q.depth).toBe(2);
    expect(q.audioSec).toBe(3);
    q.take(0);
    expect(q.takePeakDepth()).toBe(2);
    expect(q.takePeakDepth()).toBe(1);
    expect(q.audioSec).toBe(1);
  });
});
