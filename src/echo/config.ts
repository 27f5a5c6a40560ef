import { between, flag, intBetween, ms, oneOf, section } from '../core/config-fields.js';
import type { z } from 'zod';

/**
 * echo: how hark keeps from hearing itself — the echo canceller (speexdsp, native/hark-aec) fed with
 * what hark plays, and the echo gate that stands in where the canceller is off or not yet trusted.
 * Owned here, beside the canceller (create.ts) and the gate (gate.ts); docs/echo.md.
 */
export const echoSection = section({
  /**
   * While hark plays, its own voice reaches the microphone. `cancel` takes it out of the microphone
   * with an echo canceller fed with exactly what hark plays (speexdsp, native/hark-aec), so a person
   * talking over hark is heard as if hark were silent; `raise` lifts the VAD threshold to raiseThreshold
   * (a person talking over hark still gets through if loud); `gate` hears nothing but the button; `off`
   * trusts the VAD (a headset, or an echo-cancelling mic).
   */
  mode: oneOf(['cancel', 'raise', 'gate', 'off'] as const, 'cancel'),
  /**
   * In `cancel` mode, what stands in while the canceller is not trusted: before it has converged on
   * the room or found that hark's sound does not reach the microphone (the first second or two of
   * hark's first sound, and after the delay changes), or when it could not load. `raise` lets some of
   * a first sound's echo through (Silero scores it 0.9 or more); `gate` holds it but hears only the
   * button meanwhile, so a request said over hark's first reply is lost (test/echo/cold-start.test.ts).
   * `off`: nothing (measurements).
   */
  fallback: oneOf(['raise', 'gate', 'off'] as const, 'raise'),
  /**
   * Room echo the canceller models after the card's delay (ms). 384: a tiled kitchen (RT60 400-600 ms)
   * rings past 128 ms, and past 256 ms at RT60 600, loud enough for Silero to open segments on it; at
   * 384 ms no segment opened in any of six kitchens (test/echo/room-matrix.test.ts, docs/echo.md), for
   * ~0.08 ms more CPU per 32 ms frame than 128.
   */
  filterMs: ms(384, 16, 500),
  /** Suppress the echo the adaptive filter leaves (speexdsp's residual echo suppressor): worth ~15 dB more. */
  residual: flag(true),
  /**
   * The speaker's distortion from its spec sheet: its THD (%) for a sine peaking at
   * speakerThdAtDbfs. The canceller's reference is put through a driver's cubic of that much, so
   * a small speaker's harmonics are cancelled with the rest; at a ring's loudest, without it, a "stop"
   * said over the ring is lost under them (docs/echo.md, "A louder ring"). 0: a linear speaker.
   */
  speakerThdPct: between(0, 20, 0),
  speakerThdAtDbfs: between(-40, 0, -12),
  /**
   * Follow the speaker's clock where it is not the microphone's (a USB microphone with the headphone
   * jack, HDMI, an I2S board): the skew is measured while hark plays and the canceller's reference is
   * resampled by it (docs/echo.md, "Two clocks"). Off: the reference as played, as with one clock.
   */
  followSkew: flag(true),
  /** Noise suppression on the microphone (speexdsp's preprocessor): fans, extractors, hum. */
  denoise: flag(false),
  /** The most noise suppression may take off, in dB. */
  denoiseDb: intBetween(1, 60, 15),
  /**
   * In `cancel` mode, the VAD threshold for a frame the trained canceller says is someone talking over
   * hark (it stands clear of hark's residual). A "stop" 6 dB under a reverberant answer keeps its level
   * through the canceller but Silero scores it 0.3-0.6, and its first frames less. At 0.2 it opened
   * within 305 ms at every point tried in six kitchens (0.25: 373 ms in the 600 ms tail), with no
   * segment from hark's own sound in them or in the 24 rooms whose card restarts (0.15 added one);
   * docs/echo.md, docs/decisions.md#the-talk-over-threshold-is-02. 0.5 (vad.threshold): off.
   */
  talkOverThreshold: between(0, 1, 0.2),
  /** The VAD threshold while hark plays, in `raise` mode. */
  raiseThreshold: between(0, 1, 0.9),
  /** Room echo and the sound card's buffer outlast the last sample written: keep the gate this long after. */
  tailMs: ms(300, 0, 5000),
});

export type EchoConfig = z.infer<typeof echoSection>;
