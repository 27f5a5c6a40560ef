import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { createNativeCanceller, createNativeResampler } from './addon.js';
import { RESAMPLER_QUALITY } from './drift.js';
import { EchoStage, type EchoStageOptions } from './canceller.js';
import type { EchoReference } from './reference.js';
import type { EchoConfig } from './config.js';
import { FRAME_SAMPLES, SAMPLE_RATE } from '../audio/pcm.js';

/** The canceller's settings: the echo: section's (config.ts), and the skew known before. */
export type EchoCancelSettings = Pick<EchoConfig, 'filterMs' | 'residual' | 'denoise' | 'denoiseDb'> & {
  /** Resample the reference by the measured skew of the two clocks (drift.ts); absent: on. */
  followSkew?: boolean;
  /** The skew measured before on this pair of cards (the store's echo_skew), followed from the start; absent: measured afresh. */
  knownSkewPpm?: number;
  /** The speaker's THD (%) for a sine peaking at speakerThdAtDbfs, modelled on the reference (speaker-model.ts); absent or 0: linear. */
  speakerThdPct?: number;
  speakerThdAtDbfs?: number;
};

/**
 * What the capture pipeline calls: the stage plus the clock that stamps each chunk's arrival.
 * now() is read when a chunk is pushed, arrived() when it is processed, so the restart after a
 * capture outage lands between the right chunks.
 */
export interface EchoCleaner {
  now(): number;
  arrived(samples: number, atMs: number): void;
  process(frame: Int16Array, position: number): Int16Array;
  restart(): void;
  /**
   * The raw microphone that lines up with the cleaned audio over [from, to) (the segment's positions),
   * and where hark's sound was in it; null when hark played none of it.
   */
  rawTrack(from: number, to: number): { raw: Int16Array; playback: Array<{ start: number; end: number }> } | null;
  /** Samples the cleaned audio lags the microphone by, the same on every frame (0 or 256: 16 ms). */
  readonly latency: number;
  readonly trusted: boolean;
  /** The frame just cleaned held hark's own sound and nothing more (EchoStage.echoOnly). */
  readonly echoOnly: boolean;
  /** Someone is talking over hark in the frame just cleaned, as the canceller can vouch (EchoStage.talkOver). */
  readonly talkOver: boolean;
  readonly stage: EchoStage;
}

const round2 = (x: number | null) => (x === null ? null : Math.round(x * 100) / 100);

/**
 * What to do about a skew no crystal has (drift.ts, MAX_FOLLOWED_PPM): the card does not play at the
 * rate it says, or the two are not what hark thinks they are.
 */
export function skewTooFar(ppm: number): string {
  return `echo canceller: the speaker's clock runs ${Math.round(ppm)} ppm off the microphone's, more than two crystals do: one card does not play or record at the rate it says. hark cannot follow it and will hear itself while it speaks. Fix: one USB speakerphone for both (one clock), or name the cards in capture.device and speech.device (arecord -l, aplay -l) so both are the ones meant`;
}

/** A skew is kept for the next start once its standard error is under this (ppm), and written again once it has moved this far. */
const SKEW_KEPT_ERROR_PPM = 1;
const SKEW_KEPT_STEP_PPM = 0.25;

/** speexdsp steps in 16 ms (256-sample) frames: measured as converging faster than 32 ms steps for the same CPU. */
const NATIVE_FRAME = 256;

export function createEchoCleaner(
  s: EchoCancelSettings,
  reference: EchoReference,
  clock: Clock,
  opts: Partial<EchoStageOptions> = {},
  logger?: Pick<Logger, 'info'>,
  keepSkew?: (ppm: number, errorPpm: number) => void,
): { cleaner: EchoCleaner } | { error: string } {
  const filterSamples = Math.ceil((s.filterMs * SAMPLE_RATE) / 1000 / NATIVE_FRAME) * NATIVE_FRAME;
  const made = createNativeCanceller({
    frameSize: NATIVE_FRAME,
    filterLength: filterSamples,
    sampleRate: SAMPLE_RATE,
    cancel: true,
    suppressResidual: s.residual,
    denoise: s.denoise,
    noiseSuppressDb: -s.denoiseDb,
    echoSuppressDb: -40,
    echoSuppressActiveDb: -15,
  });
  if ('error' in made) return made;
  // Without the resampler (an addon built before it) the canceller runs as with one clock.
  const resampler = s.followSkew === false ? { error: 'off' } : createNativeResampler(RESAMPLER_QUALITY);
  const stage = new EchoStage(
    made.canceller,
    reference,
    {
      frameSamples: FRAME_SAMPLES,
      filterSamples,
      ...(s.knownSkewPpm !== undefined ? { knownSkewPpm: s.knownSkewPpm } : {}),
      ...(s.speakerThdPct ? { speakerThd: { pct: s.speakerThdPct, atDbfs: s.speakerThdAtDbfs ?? -12 } } : {}),
      ...opts,
    },
    'resampler' in resampler ? resampler.resampler : null,
  );
  // The residual suppressor hands back each 16 ms one step late, on every frame alike (hark-aec), so
  // the cleaned audio at a position is the microphone `latency` samples earlier: the raw track read
  // that much earlier is what lines up with it on the debug page and in segment_raw_audio.
  const latency = made.canceller.latency;
  const rawTrack = (from: number, to: number): ReturnType<EchoCleaner['rawTrack']> => {
    // Before the microphone's first sample the cleaned audio is the suppressor's silence: so is this.
    const lead = Math.max(0, latency - from);
    const track = stage.rawTrack(from - latency + lead, to - latency);
    if (!track || lead === 0) return track;
    const raw = new Int16Array(to - from);
    raw.set(track.raw, lead);
    return { raw, playback: track.playback.map((p) => ({ start: p.start + lead, end: p.end + lead })) };
  };
  // One line when the alignment or the trust changes (a technician reading the journal sees the card's latency).
  let said = { delayMs: NaN, converged: false, lateMs: 0, noEcho: false, followedPpm: 0, unfollowable: false, keptPpm: s.knownSkewPpm ?? NaN };
  // atSec: the microphone's timeline (seconds since capture started), as the debug page's segments show it.
  const report = (position: number) => {
    const st = stage.status;
    const atSec = Math.round(position / (SAMPLE_RATE / 10)) / 10;
    if (st.lateReferenceMs > said.lateMs) {
      logger?.info('echo reference came after its microphone: that sound was not cancelled', {
        atSec,
        ms: st.lateReferenceMs - said.lateMs,
        totalMs: st.lateReferenceMs,
      });
      said.lateMs = st.lateReferenceMs;
    }
    if (st.noEcho !== said.noEcho) {
      said.noEcho = st.noEcho;
      logger?.info(
        st.noEcho
          ? "echo canceller: hark's sound is not reaching the microphone (not found in its first seconds): nothing to cancel"
          : "echo canceller: hark's sound now reaches the microphone",
        { atSec },
      );
    }
    const c = st.clocks;
    if (c.unfollowable && !said.unfollowable) {
      logger?.info(skewTooFar(c.ppm ?? 0), { atSec, skewPpm: round2(c.ppm), errorPpm: round2(c.errorPpm) });
    }
    said.unfollowable = c.unfollowable;
    // A skew followed and known to 1 ppm is handed on to be kept for the next start (the store, per pair
    // of cards): what a start from it leaves, the filter follows itself, and the estimator refines it
    // (at 150 ppm it is known to 1 ppm after ~50 s of hark's sound, to 0.3 only minutes later). Again
    // when it moves by a quarter of a ppm: a crystal's rate moves with its temperature over the day.
    if (
      keepSkew &&
      c.followedPpm !== 0 &&
      c.ppm !== null &&
      c.errorPpm !== null &&
      c.errorPpm <= SKEW_KEPT_ERROR_PPM &&
      !(Math.abs(c.ppm - said.keptPpm) < SKEW_KEPT_STEP_PPM)
    ) {
      said.keptPpm = c.ppm;
      keepSkew(c.ppm, c.errorPpm);
    }
    // A line when the skew is first followed and when it moves by 1 ppm or more (it is refined every second).
    if (c.followedPpm !== 0 && Math.abs(c.followedPpm - said.followedPpm) >= 1) {
      said.followedPpm = c.followedPpm;
      logger?.info(`echo canceller: the speaker's clock runs ${round2(c.followedPpm)} ppm off the microphone's; hark's reference is resampled to follow it`, {
        atSec,
        skewPpm: round2(c.ppm),
        errorPpm: round2(c.errorPpm),
        lags: c.lags,
        captureVsClockPpm: round2(c.captureVsClockPpm),
      });
    }
    // The delay takes sub-ms steps with the microphone's timeline (EchoStage.arrived): a line for a move
    // of a millisecond or more, not for each of those.
    if (Math.abs(st.delayMs - said.delayMs) < 1 && st.converged === said.converged) return;
    said = { ...said, delayMs: st.delayMs, converged: st.converged };
    logger?.info(st.converged ? 'echo canceller converged' : 'echo canceller aligning', {
      atSec,
      delayMs: Math.round(st.delayMs * 10) / 10,
      correlation: st.estimate ? Math.round(st.estimate.correlation * 100) / 100 : null,
      erleDb: Math.round(st.erleDb),
      ...(st.converged ? {} : { why: st.distrustedFor ?? 'not yet converged' }),
    });
  };
  return {
    cleaner: {
      now: () => clock.now(),
      arrived: (n, at) => stage.arrived(n, at),
      process: (frame, position) => {
        const out = stage.process(frame, position);
        if (logger || keepSkew) report(position);
        return out;
      },
      restart: () => stage.restart(),
      rawTrack,
      latency,
      get trusted() {
        return stage.trusted;
      },
      get echoOnly() {
        return stage.echoOnly;
      },
      get talkOver() {
        return stage.talkOver;
      },
      stage,
    },
  };
}
