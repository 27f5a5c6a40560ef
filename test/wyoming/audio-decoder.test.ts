import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { audioFormat, AudioFormatError, WyomingAudioDecoder } from '../../src/speech/wyoming-audio.js';

/** The voice's audio-chunks → 16 kHz: any cut of the bytes gives what one whole chunk gives. */
function decode(bytes: Buffer, cuts: number[], format = { rate: 22050, width: 2, channels: 1 }): Int16Array {
  const d = new WyomingAudioDecoder(format, 16_000);
  const out: number[] = [];
  let at = 0;
  let i = 0;
  while (at < bytes.length) {
    const n = cuts[i++ % cuts.length]!;
    out.push(...d.push(bytes.subarray(at, at + n)));
    at += n;
  }
  out.push(...d.end());
  return Int16Array.from(out);
}

describe('WyomingAudioDecoder', () => {
  it('chunks cut anywhere, even inside a sample, decode as the whole', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { minLength: 1, maxLength: 2000 }),
        fc.array(fc.integer({ min: 1, max: 999 }), { minLength: 1, maxLength: 12 }),
        (samples, cuts) => {
          const bytes = Buffer.from(Int16Array.from(samples).buffer);
          expect([...decode(bytes, cuts)]).toEqual([...decode(bytes, [bytes.length])]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('stereo frames split across chunks: the first channel', () => {
    const frames = Int16Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? i : -1));
    const bytes = Buffer.from(frames.buffer);
    const format = { rate: 16_000, width: 2, channels: 2 };
    expect([...decode(bytes, [3, 5, 1], format)]).toEqual(Array.from({ length: 100 }, (_, i) => 2 * i));
  });

  it('a partial frame at the very end is dropped, not played as noise', () => {
    const d = new WyomingAudioDecoder({ rate: 16_000, width: 2, channels: 1 }, 16_000);
    expect([...d.push(Buffer.from([1, 0, 2]))]).toEqual([1]);
    expect(d.pending).toBe(1);
    expect([...d.end()]).toEqual([]);
  });

  it.each([
    [{ rate: 22050, width: 4, channels: 1 }, /4 bytes wide; hark plays 16-bit/],
    [{ rate: 'fast', width: 2, channels: 1 }, /rate "fast"/],
    [{ rate: 22050, width: 2, channels: 0 }, /0 channels/],
  ])('refuses a format it cannot play, saying what it was: %j', (data, why) => {
    expect(() => audioFormat(data)).toThrow(AudioFormatError);
    expect(() => audioFormat(data)).toThrow(why);
  });
});
