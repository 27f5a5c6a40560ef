import { describe, expect, it } from 'vitest';
import { loadEchoAddon, type NativeCancellerOptions } from '../../src/echo/addon.js';

/**
 * hark-aec runs speexdsp's FFTs on PFFFT (native/hark-aec/src/fftwrap-pffft.c), with speexdsp's own
 * smallft for the sizes PFFFT does not take. Both must keep the contract mdf.c and preprocess.c were
 * written for (the packing of the spectrum, the 1/N on the forward transform): a wrong bin or scale
 * does not crash, it stops the filter from cancelling. So each size is judged by what a cook hears
 * through it: how much of a known echo is left.
 */
const added = loadEchoAddon();
if ('error' in added) throw new Error(added.error);
const { Canceller } = added.addon;
const RATE = 16000;

function options(frameSize: number, residual: boolean, denoise: boolean): NativeCancellerOptions {
  return {
    frameSize,
    filterLength: 8 * frameSize,
    sampleRate: RATE,
    cancel: true,
    suppressResidual: residual,
    denoise,
    noiseSuppressDb: -15,
    echoSuppressDb: -40,
    echoSuppressActiveDb: -15,
  };
}

/** Energy taken out of hark's echo over the last second of `seconds` (dB). */
function erle(frameSize: number, residual: boolean, seconds = 6): number {
  let seed = 11;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  const n = Math.floor((seconds * RATE) / frameSize) * frameSize;
  const played = new Int16Array(n);
  for (let i = 0; i < n; i++) played[i] = Math.round(6000 * rnd() * (0.6 + 0.4 * Math.sin((2 * Math.PI * i) / (RATE * 0.5))));
  // The echo: 3 ms of direct path and a reflection 20 ms later, plus a quiet room.
  const mic = new Int16Array(n);
  for (let i = 0; i < n; i++) mic[i] = Math.round(0.6 * (played[i - 48] ?? 0) - 0.25 * (played[i - 368] ?? 0) + 30 * rnd());
  const c = new Canceller(options(frameSize, residual, false));
  const out = new Int16Array(n);
  c.process(mic, played, out);
  const lag = c.latency;
  let inE = 0;
  let outE = 0;
  for (let i = n - RATE; i < n - lag; i++) {
    inE += mic[i]! ** 2;
    outE += out[i + lag]! ** 2;
  }
  c.close();
  return 10 * Math.log10(inE / Math.max(outE, 1));
}

/** A voice (a 220 Hz tone, swelling 3 times a second) through the noise suppressor alone: the dB of it kept (out over in) after the first 10 frames. */
function voiceKeptDb(frameSize: number): number {
  const voice = new Int16Array(frameSize * 60);
  for (let i = 0; i < voice.length; i++)
    voice[i] = Math.round(4000 * Math.sin((2 * Math.PI * 220 * i) / RATE) * (0.6 + 0.4 * Math.sin((2 * Math.PI * 3 * i) / RATE)));
  const c = new Canceller({ ...options(frameSize, false, true), cancel: false });
  const out = new Int16Array(voice.length);
  c.process(voice, null, out);
  const lag = c.latency;
  let vIn = 0;
  let vKept = 0;
  for (let i = 10 * frameSize; i < voice.length - lag; i++) {
    vIn += voice[i]! ** 2;
    vKept += out[i + lag]! ** 2;
  }
  c.close();
  return 10 * Math.log10(vKept / vIn);
}

describe('hark-aec cancels whatever FFT size speexdsp asks for', () => {
  // 512 (the echo stage's frame) and 256 go through PFFFT (FFTs of 1024 and 512); 200 and 160 give
  // FFTs of 400 and 320, 400 not a size PFFFT takes, so smallft does it. Right, each cancels 36-38 dB
  // here; a wrong Nyquist bin cost 7-15 dB of that, a lost 1/N all of it.
  for (const frame of [512, 256, 200, 160]) {
    it(`frame ${frame}: the filter alone takes the echo down by more than 33 dB, and residual suppression more again`, () => {
      const plain = erle(frame, false);
      expect(plain).toBeGreaterThan(33);
      expect(erle(frame, true)).toBeGreaterThan(plain + 6);
    });
    it(`frame ${frame}: the noise suppressor takes less than 3 dB off a voice`, () => {
      // 0.2-1.9 dB with smallft and PFFFT alike (the most at 512); a lost 1/N made it 25 dB louder.
      expect(Math.abs(voiceKeptDb(frame))).toBeLessThan(3);
    });
  }
});
