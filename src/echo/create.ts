import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { createNativeCanceller } from './addon.js';
import { EchoStage, type EchoStageOptions } from './canceller.js';
import type { EchoReference } from './reference.js';
import { FRAME_SAMPLES, SAMPLE_RATE } from '../audio/pcm.js';

export interface EchoCancelSettings {
  echoFilterMs: number;
  echoResidual: boolean;
  denoise: boolean;
  denoiseDb: number;
}

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
  rawTrack(from: number, to: number): { raw: Int16Array; playback: Array<{ start: number; end: number }> } | null;
  readonly trusted: boolean;
  /** The frame just cleaned held hark's own sound and nothing more (EchoStage.echoOnly). */
  readonly echoOnly: boolean;
  readonly stage: EchoStage;
}

/** speexdsp steps in 16 ms (256-sample) frames: measured as converging faster than 32 ms steps for the same CPU. */
const NATIVE_FRAME = 256;

export function createEchoCleaner(
  s: EchoCancelSettings,
  reference: EchoReference,
  clock: Clock,
  opts: Partial<EchoStageOptions> = {},
  logger?: Pick<Logger, 'info'>,
): { cleaner: EchoCleaner } | { error: string } {
  const filterSamples = Math.ceil((s.echoFilterMs * SAMPLE_RATE) / 1000 / NATIVE_FRAME) * NATIVE_FRAME;
  const made = createNativeCanceller({
    frameSize: NATIVE_FRAME,
    filterLength: filterSamples,
    sampleRate: SAMPLE_RATE,
    cancel: true,
    suppressResidual: s.echoResidual,
    denoise: s.denoise,
    noiseSuppressDb: -s.denoiseDb,
    echoSuppressDb: -40,
    echoSuppressActiveDb: -15,
  });
  if ('error' in made) return made;
  const stage = new EchoStage(made.canceller, reference, { frameSamples: FRAME_SAMPLES, filterSamples, ...opts });
  // One line when the alignment or the trust changes (a technician reading the journal sees the card's latency).
  let said = { delayMs: NaN, converged: false, lateMs: 0, noEcho: false };
  // atSec: the microphone's timeline (seconds since capture started), as the debug page's segments show it.
  const report = (position: number) => {
    const st = stage.status;
    const atSec = Math.round(position / (SAMPLE_RATE / 10)) / 10;
    if (st.lateReferenceMs > said.lateMs) {
      logger?.info('echo reference came after its microphone: that sound was not cancelled', { atSec, ms: st.lateReferenceMs - said.lateMs, totalMs: st.lateReferenceMs });
      said.lateMs = st.lateReferenceMs;
    }
    if (st.noEcho !== said.noEcho) {
      said.noEcho = st.noEcho;
      logger?.info(st.noEcho ? "echo canceller: hark's sound is not reaching the microphone (not found in its first seconds): nothing to cancel" : "echo canceller: hark's sound now reaches the microphone", { atSec });
    }
    // The delay takes sub-ms steps with the microphone's timeline (EchoStage.arrived): a line for a move
    // of a millisecond or more, not for each of those.
    if (Math.abs(st.delayMs - said.delayMs) < 1 && st.converged === said.converged) return;
    said = { ...said, delayMs: st.delayMs, converged: st.converged };
    logger?.info(st.converged ? 'echo canceller converged' : 'echo canceller aligning', { atSec, delayMs: Math.round(st.delayMs * 10) / 10, correlation: st.estimate ? Math.round(st.estimate.correlation * 100) / 100 : null, erleDb: Math.round(st.erleDb), ...(st.converged ? {} : { why: st.distrustedFor ?? 'not yet converged' }) });
  };
  return {
    cleaner: {
      now: () => clock.now(),
      arrived: (n, at) => stage.arrived(n, at),
      process: (frame, position) => {
        const out = stage.process(frame, position);
        if (logger) report(position);
        return out;
      },
      restart: () => stage.restart(),
      rawTrack: (from, to) => stage.rawTrack(from, to),
      get trusted() {
        return stage.trusted;
      },
      get echoOnly() {
        return stage.echoOnly;
      },
      stage,
    },
  };
}
