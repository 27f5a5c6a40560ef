import { describe, expect, it } from 'vitest';
import { resample } from '../../src/audio/resample.js';
import { midRms, sine, snrDb } from './helpers.js';

/** Compare the middle of two signals (filter start-up at the edges excluded). */
function midSnr(ref: Float32Array, got: Float32Array, edge = 400): number {
  return snrDb(ref.subarray(edge, ref.length - edge), got.subarray(edge, got.length - edge));
}

const dB = (ratio: number) => 20 * Math.log10(ratio);

describe('resample', () => {
  it.each([
    [48000, 1000],
    [44100, 3000],
    [96000, 6000],
    [22050, 440],
    [8000, 3000],
    [11025, 2500],
    [44056, 1000], // no small common factor with 16000: the rounded-phase path
  ])('%i Hz → 16 kHz keeps a %i Hz tone in phase and at level', (rate, freq) => {
    const out = resample(sine(freq, rate, 1), rate, 16000);
    expect(out.length).toBe(16000);
    expect(midSnr(sine(freq, 16000, 1), out)).toBeGreaterThan(60);
  });

  it.each([
    [48000, 10000],
    [48000, 20000],
    [44100, 9000],
    [96000, 30000],
  ])('%i Hz → 16 kHz removes a %i Hz tone above the new Nyquist instead of folding it into the speech band', (rate, freq) => {
    const out = resample(sine(freq, rate, 1, 0.5), rate, 16000);
    const level = midRms(out, 400) / (0.5 / Math.SQRT2);
    expect(dB(level)).toBeLessThan(-70);
  });

  it('upsampling 8 kHz adds no image above the old Nyquist', () => {
    // A 3 kHz tone at 8 kHz has its mirror image at 5 kHz; a naive interpolator leaves it there.
    const out = resample(sine(3000, 8000, 1), 8000, 16000);
    const residue = new Float32Array(out.length);
    const ref = sine(3000, 16000, 1);
    for (let i = 0; i < out.length; i++) residue[i] = out[i]! - ref[i]!;
    expect(dB(midRms(residue, 400) / midRms(ref, 400))).toBeLessThan(-60);
  });

  it('keeps a constant exactly constant (unit DC gain at every phase)', () => {
    const out = resample(new Float32Array(4410).fill(0.25), 44100, 16000);
    for (let i = 200; i < out.length - 200; i++) expect(out[i]).toBeCloseTo(0.25, 6);
  });

  it('returns a copy at the same rate and handles empty input', () => {
    const x = Float32Array.from([0.1, -0.2]);
    const y = resample(x, 16000, 16000);
    expect(Array.from(y)).toEqual(Array.from(x));
    expect(y).not.toBe(x);
    expect(resample(new Float32Array(0), 48000, 16000).length).toBe(0);
  });

  it('refuses nonsense rates', () => {
    expect(() => resample(new Float32Array(1), 0, 16000)).toThrow(/positive integers/);
    expect(() => resample(new Float32Array(1), 44100.5, 16000)).toThrow(/positive integers/);
  });
});
