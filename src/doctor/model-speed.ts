import { existsSync } from 'node:fs';
import { SystemClock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { resolveModelPath } from '../stt/whisper/model-file.js';
import { WhisperEngine } from '../stt/whisper/engine.js';
import type { Check } from './check.js';

const RATE = 16_000;
/** A typical VAD segment of room talk, and what the opening check transcribes of it (pre-roll + stt.opening.seconds). */
const SEGMENT_SEC = 6;
const PREROLL_SEC = 0.5;

/**
 * Seconds of talk per minute this device keeps up with, from the time one segment takes: 60 while
 * speech-to-text is at least as fast as speech, else the share of a minute it can get through. Pure.
 */
export function keepsUpWith(computeSec: number, audioSec: number): number {
  if (computeSec <= 0) return 60;
  return Math.min(60, Math.round((60 * audioSec) / computeSec));
}

/** Speech-shaped noise (a deterministic pseudo-random signal in bursts): costs Whisper what speech does in the encoder. */
function testSignal(seconds: number): Int16Array {
  const pcm = new Int16Array(Math.round(seconds * RATE));
  let x = 12345;
  for (let i = 0; i < pcm.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    const envelope = 0.5 + 0.5 * Math.sin((2 * Math.PI * i) / (RATE * 0.25));
    pcm[i] = Math.round(((x / 0x7fffffff) * 2 - 1) * 6000 * envelope);
  }
  return pcm;
}

/**
 * Time the installed model on this CPU, the way hark calls it (audio_ctx scaled), on a
 * whole 6 s segment and on its opening, and say how many seconds of talk per minute the device
 * keeps up with — whole (always-listen, push-to-talk) and with the opening check (wake-word mode,
 * where radio costs only its opening).
 */
export const modelSpeedCheck: Check = {
  id: 'whisper-speed',
  title: 'Whisper speed on this CPU',
  async run(ctx) {
    const stt = ctx.loaded?.config.stt;
    if (!stt) return { status: 'warn', detail: 'not checked: the config is invalid', fix: 'fix the config first' };
    if (stt.mode === 'cloud-only') return { status: 'ok', detail: 'not used (stt.mode cloud-only)' };
    const path = resolveModelPath(stt.whisper.model, stt.whisper.modelsDir);
    if (!existsSync(path)) return { status: 'warn', detail: 'not timed: no model (see the Whisper model check)' };
    const w = stt.whisper;
    let engine: WhisperEngine | null = null;
    try {
      engine = await WhisperEngine.load({
        modelPath: path,
        language: w.language,
        threads: w.threads,
        scaleAudioCtx: w.scaleAudioCtx,
        audioCtxPad: w.audioCtxPad,
        maxTokensPerSecond: w.maxTokensPerSecond,
        // Timing, not judging: no deadline cuts a slow CPU's run short.
        deadlineBaseMs: 600_000,
        deadlinePerSecondMs: 0,
        temperatureFallback: w.temperatureFallback,
        nativeLog: false,
        logger: createLogger({ level: 'error', json: false }),
        clock: new SystemClock(),
      });
      const openingSec = PREROLL_SEC + stt.opening.seconds;
      // The better of two runs: on a busy machine one run can be slowed by others.
      const time = async (seconds: number): Promise<number> => {
        let best = Infinity;
        for (let i = 0; i < 2; i++) best = Math.min(best, (await engine!.transcribe({ id: `doctor-${seconds}`, pcm: testSignal(seconds) })).ms / 1000);
        return best;
      };
      await time(1); // warm-up: first-call allocations are not the steady state
      const whole = await time(SEGMENT_SEC);
      const opening = await time(openingSec);
      const wholeKeeps = keepsUpWith(whole, SEGMENT_SEC);
      const openingKeeps = keepsUpWith(opening, SEGMENT_SEC);
      const detail =
        `${SEGMENT_SEC} s segment: ${whole.toFixed(2)} s (real-time factor ${(whole / SEGMENT_SEC).toFixed(2)}), its ${openingSec} s opening: ${opening.toFixed(2)} s. ` +
        `Keeps up with ${wholeKeeps} s of talk per minute transcribed whole, ${openingKeeps} s per minute with the opening check (wake-word mode)`;
      const data = {
        segmentSec: SEGMENT_SEC,
        wholeSec: whole,
        openingSec: opening,
        keepsUpWholeSecPerMin: wholeKeeps,
        keepsUpOpeningSecPerMin: openingKeeps,
        model: path,
      };
      if (openingKeeps < 60)
        return {
          status: 'warn',
          detail,
          fix: 'a loud room will back up: a smaller model (hark model fetch tiny.en-q5_1), scripts/build-whisper.sh for this CPU, or a cloud engine first',
          data,
        };
      return { status: 'ok', detail, data };
    } catch (err) {
      return { status: 'warn', detail: `could not time the model: ${errorMessage(err)}` };
    } finally {
      await engine?.close();
    }
  },
};
