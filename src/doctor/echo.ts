import { createNativeCanceller, createNativeResampler, rebuildAddon } from '../echo/addon.js';
import { RATIO_DEN, RESAMPLER_QUALITY } from '../echo/drift.js';
import type { Check, CheckResult } from './check.js';

/**
 * Says what keeps hark from hearing itself: the echo canceller (and that it really cancels, on a
 * two-second self-test: a noise "playback" and its delayed echo), or which gate, and why.
 */
export const echoCheck: Check = {
  id: 'echo',
  title: 'echo cancellation (hark hearing itself)',
  async run(ctx): Promise<CheckResult> {
    const s = ctx.loaded?.config.echo;
    if (!s) return { status: 'warn', detail: 'config not loaded: cannot tell', fix: 'fix the config first' };
    const gate = (m: string) =>
      m === 'raise'
        ? `the VAD threshold is raised to ${s.raiseThreshold} while hark plays`
        : m === 'gate'
          ? 'hark hears only the button while it plays'
          : 'nothing: hark may hear itself';
    if (s.mode !== 'cancel') {
      return { status: 'ok', detail: `echo gate in force (echo.mode: ${s.mode}): ${gate(s.mode)}; the echo canceller is off`, data: { inForce: s.mode } };
    }
    const made = createNativeCanceller({
      frameSize: 256,
      filterLength: 2048,
      sampleRate: 16000,
      cancel: true,
      suppressResidual: false,
      denoise: false,
      noiseSuppressDb: -15,
      echoSuppressDb: -40,
      echoSuppressActiveDb: -15,
    });
    if ('error' in made) {
      return {
        status: 'warn',
        detail: `echo.mode is cancel, but ${made.error}. In force instead: the echo gate (${s.fallback}): ${gate(s.fallback)}`,
        fix: `${rebuildAddon('/opt/hark')}, then restart hark`,
        data: { inForce: s.fallback, error: made.error },
      };
    }
    const erle = selfTest(made.canceller);
    made.canceller.close();
    const clocks = clockTest(s.followSkew);
    const detail = `echo canceller in force (speexdsp, native/hark-aec): self-test removed ${erle.toFixed(0)} dB of a simulated echo; until it has converged on the room, the echo gate stands in (echo.fallback: ${s.fallback}: ${gate(s.fallback)})${s.denoise ? '; noise suppression on' : ''}; ${clocks.detail}`;
    if (erle < 10)
      return {
        status: 'fail',
        detail,
        fix: 'the canceller loaded but does not cancel: rebuild it (npm rebuild hark-aec) and report the compiler (cc --version) it was built with',
        data: { inForce: s.fallback, erleDb: erle },
      };
    const data = { inForce: 'cancel', fallback: s.fallback, erleDb: Math.round(erle), followSkew: clocks.following };
    if (clocks.fix) return { status: 'warn', detail, fix: clocks.fix, data };
    return { status: 'ok', detail, data };
  },
};

/**
 * Whether hark can follow a speaker on another clock than the microphone: its resampler loads and
 * puts a tone 100 ppm off back where it belongs. The skew itself is measured while hark plays and
 * said in the journal ("the speaker's clock runs N ppm off the microphone's").
 */
function clockTest(on: boolean): { following: boolean; detail: string; fix?: string } {
  if (!on) return { following: false, detail: "the speaker's clock is not followed (echo.followSkew: false): on two cards hark may hear itself" };
  const made = createNativeResampler(RESAMPLER_QUALITY);
  if ('error' in made)
    return { following: false, detail: `the speaker's clock cannot be followed: ${made.error}`, fix: `${rebuildAddon('/opt/hark')}, then restart hark` };
  const rs = made.resampler;
  const ratio = Math.round(RATIO_DEN * (1 + 100e-6)) / RATIO_DEN;
  rs.setRatio(Math.round(ratio * RATIO_DEN), RATIO_DEN);
  const tone = (t: number) => 8000 * Math.sin((2 * Math.PI * 1000 * t) / 16000);
  const input = Int16Array.from({ length: 16000 }, (_, i) => Math.round(tone(i)));
  const out = new Int16Array(8000);
  rs.process(input, out);
  const lag = rs.inputLatency;
  rs.close();
  let e = 0;
  let p = 0;
  for (let m = 1000; m < out.length; m++) {
    const v = tone(m * ratio - lag);
    e += (out[m]! - v) ** 2;
    p += v * v;
  }
  const snr = 10 * Math.log10(p / Math.max(1, e));
  if (snr < 40)
    return {
      following: false,
      detail: `the speaker's clock cannot be followed: the resampler's self-test came out ${snr.toFixed(0)} dB clean (40 wanted)`,
      fix: 'rebuild hark-aec (npm rebuild hark-aec) and report the compiler (cc --version) it was built with',
    };
  return {
    following: true,
    detail: "the speaker's clock is followed where it is not the microphone's (the skew is measured while hark plays; the journal says it)",
  };
}

function selfTest(c: { process(mic: Int16Array, ref: Int16Array | null, out: Int16Array): void }): number {
  const n = 16000 * 3;
  const ref = new Int16Array(n);
  let seed = 12345;
  let y = 0;
  for (let i = 0; i < n; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    y = 0.8 * y + (seed / 0x7fffffff - 0.5);
    ref[i] = Math.round(y * 4000);
  }
  const mic = new Int16Array(n);
  for (let i = 0; i < n; i++) mic[i] = Math.round(0.5 * (ref[i - 160] ?? 0) + 0.2 * (ref[i - 400] ?? 0));
  const out = new Int16Array(512);
  let em = 0;
  let eo = 0;
  for (let p = 0; p + 512 <= n; p += 512) {
    c.process(mic.subarray(p, p + 512), ref.subarray(p, p + 512), out);
    if (p < 2 * 16000) continue;
    for (let i = 0; i < 512; i++) {
      em += mic[p + i]! ** 2;
      eo += out[i]! ** 2;
    }
  }
  return 10 * Math.log10(em / Math.max(1, eo));
}
