import type { Clock } from '../core/clock.js';
import { HarkError } from '../core/errors.js';
import type { Speech } from '../speech/create.js';
import { measuringSound } from '../speech/measuring-sound.js';
import { cardPair } from '../store/echo-skew.js';
import type { Store } from '../store/store.js';
import { measureClocks, type ClockReading, type ClockVerdict } from './clock-measure.js';

/**
 * `hark clocks` on the running daemon's own parts: the measuring sound played through its speech
 * queue, as hark plays anything, and its echo canceller's reading of the two clocks. A skew to follow
 * the canceller keeps itself for these cards (as any run does); one clock is kept here, so that later
 * starts know these cards were measured.
 */
export async function measureCardClocks(d: {
  speech: Speech | null;
  store: Store | null;
  config: { capture: { device: string }; speech: { device: string } };
  clock: Clock;
  timeoutMs: number;
  onProgress?: (r: ClockReading | null, elapsedMs: number) => void;
}): Promise<ClockVerdict> {
  const speech = d.speech;
  const echo = speech?.echo;
  if (!speech || !echo)
    throw new HarkError(`hark clocks needs the echo canceller: ${speech?.echoProblem ?? 'set echo.mode: cancel, with a speaker in speech.device'}`);
  const verdict = await measureClocks({
    clock: d.clock,
    timeoutMs: d.timeoutMs,
    ...(d.onProgress ? { onProgress: d.onProgress } : {}),
    read: () => {
      const st = echo.stage.status;
      const c = st.clocks;
      return { ppm: c.ppm, errorPpm: c.errorPpm, followedPpm: c.followedPpm, unfollowable: c.unfollowable, noEcho: st.noEcho };
    },
    play: (ms) => speech.queue.clip(measuringSound(ms), 'the measuring sound', { priority: 'normal' }).done,
  });
  if (verdict.kind === 'one-clock') d.store?.echoSkew().save(cardPair(d.config.capture.device, d.config.speech.device), verdict.ppm, verdict.errorPpm);
  return verdict;
}
