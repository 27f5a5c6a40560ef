import { SAMPLE_RATE } from '../audio/pcm.js';

/**
 * The sound `hark clocks` plays to measure the speaker's clock against the microphone's: noise, soft
 * (about −24 dBFS), its highs rolled off. Noise has every
 * frequency at once, so the echo canceller's delay search and fine lag find hark's echo in it every
 * second, where speech leaves gaps and tones leave look-alike peaks. Faded in and out over 50 ms, as
 * the earcons are, so it starts and stops without a click. Seeded: every hark plays the same sound.
 */
export function measuringSound(ms: number, seed = 0x2f6e2b1): Int16Array {
  const n = Math.round((ms * SAMPLE_RATE) / 1000);
  const out = new Int16Array(n);
  const fade = Math.min(n / 2, SAMPLE_RATE / 20);
  let s = seed >>> 0;
  let low = 0;
  for (let i = 0; i < n; i++) {
    // xorshift32: fast, and the same on every machine.
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    const white = s / 0x80000000 - 1;
    // One pole at about 1 kHz: a hiss, not a screech.
    low += 0.35 * (white - low);
    const edge = Math.min(1, i / fade, (n - 1 - i) / fade);
    out[i] = Math.round(low * 8000 * edge);
  }
  return out;
}
