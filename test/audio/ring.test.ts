import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PreRollRing } from '../../src/audio/ring.js';
import { Framer } from '../../src/audio/framer.js';

/** A stream whose every sample names its own position, so any misplaced copy shows. */
function streamSample(i: number): number {
  return ((i * 7919 + 13) % 65536) - 32768;
}
function stream(from: number, n: number): Int16Array {
  const a = new Int16Array(n);
  for (let k = 0; k < n; k++) a[k] = streamSample(from + k);
  return a;
}

describe('PreRollRing', () => {
  it('hands back exactly the samples before the trigger at every wrap-around offset', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }), // capacity
        fc.array(fc.integer({ min: 0, max: 150 }), { minLength: 1, maxLength: 30 }), // write sizes
        fc.integer({ min: 0, max: 64 }), // how far back to copy
        (capacity, writes, back) => {
          const ring = new PreRollRing(capacity);
          let pos = 0;
          for (const n of writes) {
            ring.write(stream(pos, n));
            pos += n;
          }
          const want = Math.min(back, capacity, pos);
          const dest = new Int16Array(want);
          ring.copyRange(pos - want, pos, dest);
          expect(Array.from(dest)).toEqual(Array.from(stream(pos - want, want)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('covers every offset of the write head exhaustively for a small ring', () => {
    const capacity = 7;
    for (let offset = 0; offset < capacity * 3; offset++) {
      for (let writeLen = 1; writeLen <= capacity + 2; writeLen++) {
        const ring = new PreRollRing(capacity);
        ring.write(stream(0, offset));
        ring.write(stream(offset, writeLen));
        const end = offset + writeLen;
        const n = Math.min(capacity, end);
        const dest = new Int16Array(n);
        ring.copyRange(end - n, end, dest);
        expect(Array.from(dest), `offset ${offset}, write ${writeLen}`).toEqual(Array.from(stream(end - n, n)));
      }
    }
  });

  it('refuses a range it no longer holds instead of returning the wrong samples', () => {
    const ring = new PreRollRing(10);
    ring.write(stream(0, 25));
    expect(ring.start).toBe(15);
    expect(() => ring.copyRange(14, 25, new Int16Array(11))).toThrow(/holds samples 15\.\.25/);
    expect(() => ring.copyRange(20, 26, new Int16Array(6))).toThrow(RangeError);
  });

  it('writes into the destination at an offset', () => {
    const ring = new PreRollRing(8);
    ring.write(stream(0, 12));
    const dest = new Int16Array(6).fill(99);
    ring.copyRange(8, 12, dest, 2);
    expect(Array.from(dest)).toEqual([99, 99, ...Array.from(stream(8, 4))]);
  });
});

describe('Framer', () => {
  it('cuts chunks of any size into exact frames, carrying the remainder', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2000 }), { maxLength: 20 }), (sizes) => {
        const framer = new Framer(512);
        const got: number[] = [];
        let pos = 0;
        for (const n of sizes) {
          for (const f of framer.frames(stream(pos, n))) got.push(...f);
          pos += n;
        }
        const whole = Math.floor(pos / 512) * 512;
        expect(got.length).toBe(whole);
        expect(got).toEqual(Array.from(stream(0, whole)));
        expect(framer.pending).toBe(pos - whole);
      }),
      { numRuns: 100 },
    );
  });

  it('flushes the partial last frame with its real length', () => {
    const framer = new Framer(512);
    for (const _ of framer.frames(stream(0, 700))) void _;
    const rest = framer.flush();
    expect(rest?.realSamples).toBe(188);
    expect(Array.from(rest!.frame.subarray(0, 188))).toEqual(Array.from(stream(512, 188)));
    expect(framer.flush()).toBeNull();
  });
});
