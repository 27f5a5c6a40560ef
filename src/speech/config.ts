import { z } from 'zod';
import { between, flag, intBetween, ms, nonEmpty, oneOf, section } from '../core/config-fields.js';
import { wyomingVoiceSection } from '../wyoming/config.js';

/** The speaking rates espeak-ng is asked for (words a minute): speech.speed, and any one item's rate. */
export const SPEED_MIN = 80;
export const SPEED_MAX = 450;

/** speech: what hark says and how (espeak-ng → aplay), and how it keeps from hearing itself. */
export const speechSection = section({
  /** ALSA playback device for aplay; prefer a stable name such as plughw:CARD=Device,DEV=0 (see `aplay -L`). */
  device: nonEmpty('default'),
  /** espeak-ng voice (`espeak-ng --voices` lists them; the voice picker offers the installed ones). */
  voice: nonEmpty('en-us'),
  /**
   * The espeak-ng voice of each other language the device speaks ({es: es-419}); a language not
   * named here speaks with its pack's `voice` (packs/<code>/pack.yaml). The first language speaks
   * with `voice` above, which the voice picker changes.
   */
  voices: z.record(z.string().regex(/^[a-z]{2,3}(-[a-z0-9]+)?$/, 'must be a language code such as es'), z.string().trim().min(1, 'must name an espeak-ng voice'), { error: 'must map language codes to espeak-ng voices' }).default({}),
  /** Words per minute (espeak-ng -s). 160 is clear in a noisy kitchen; espeak's own default is 175. */
  speed: intBetween(SPEED_MIN, SPEED_MAX, 160),
  /** espeak-ng amplitude (-a): 0 silent, 100 espeak's default, 200 loudest. */
  volume: intBetween(0, 200, 100),
  /**
   * A timer's ring (its earcon and spoken name) this many dB over the voice in a quiet room: a ring at
   * talking volume is lost under an extractor fan. See alarmQuietDb, alarmStepDb, alarmMaxDb.
   */
  alarmDb: between(0, 30, 4),
  /** Each ring that goes unanswered is this many dB louder than the last, up to alarmMaxDb. */
  alarmStepDb: between(0, 12, 2),
  /** The most a ring is raised over the voice (dB): the technician's maximum for this speaker. */
  alarmMaxDb: between(0, 30, 14),
  /**
   * The room's noise floor (dBFS at the microphone) at or under which the room adds nothing to the
   * ring; above it, the ring starts a dB louder for each dB of floor (a fan at -35 dBFS: 15 dB).
   */
  alarmQuietDb: between(-90, 0, -50),
  /** Loudness of the earcons (listening, confirmed, error, timer), 0 to 1 of full scale. */
  earconVolume: between(0, 1, 0.5),
  /** Rendered phrases kept in memory (confirmations repeat all day). 0 turns the cache off. */
  cacheEntries: intBetween(0, 10_000, 128),
  /**
   * ...and at most this much of them (MB); a phrase longer than a quarter of it (16 s at 2 MB) is not
   * kept: confirmations repeat, long answers rarely do.
   */
  cacheMb: between(0.1, 256, 2),
  /**
   * While hark plays, its own voice reaches the microphone. `cancel` takes it out of the microphone
   * with an echo canceller fed with exactly what hark plays (speexdsp, native/hark-aec), so a person
   * talking over hark is heard as if hark were silent; `raise` lifts the VAD threshold to echoThreshold
   * (a person talking over hark still gets through if loud); `gate` hears nothing but the button; `off`
   * trusts the VAD (a headset, or an echo-cancelling mic).
   */
  echoMode: oneOf(['cancel', 'raise', 'gate', 'off'] as const, 'cancel'),
  /**
   * In `cancel` mode, what stands in while the canceller is not trusted: before it has converged on
   * the room or found that hark's sound does not reach the microphone (the first second or two of
   * hark's first sound, and after the delay changes), or when it could not load. `raise` lets some of
   * a first sound's echo through (Silero scores it 0.9 or more); `gate` holds it but hears only the
   * button meanwhile, so a request said over hark's first reply is lost (test/echo/cold-start.test.ts).
   * `off`: nothing (measurements).
   */
  echoFallback: oneOf(['raise', 'gate', 'off'] as const, 'raise'),
  /**
   * Room echo the canceller models after the card's delay (ms). 384: a tiled kitchen (RT60 400-600 ms)
   * rings past 128 ms, and past 256 ms at RT60 600, loud enough for Silero to open segments on it; at
   * 384 ms no segment opened in any of six kitchens (test/echo/room-matrix.test.ts, docs/echo.md), for
   * ~0.08 ms more CPU per 32 ms frame than 128.
   */
  echoFilterMs: ms(384, 16, 500),
  /** Suppress the echo the adaptive filter leaves (speexdsp's residual echo suppressor): worth ~15 dB more. */
  echoResidual: flag(true),
  /**
   * The speaker's distortion from its spec sheet: its THD (%) for a sine peaking at
   * echoSpeakerThdAtDbfs. The canceller's reference is put through a driver's cubic of that much, so
   * a small speaker's harmonics are cancelled with the rest; at a ring's loudest, without it, a "stop"
   * said over the ring is lost under them (docs/echo.md, "A louder ring"). 0: a linear speaker.
   */
  echoSpeakerThdPct: between(0, 20, 0),
  echoSpeakerThdAtDbfs: between(-40, 0, -12),
  /**
   * Follow the speaker's clock where it is not the microphone's (a USB microphone with the headphone
   * jack, HDMI, an I2S board): the skew is measured while hark plays and the canceller's reference is
   * resampled by it (docs/echo.md, "Two clocks"). Off: the reference as played, as with one clock.
   */
  echoFollowSkew: flag(true),
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
  echoTalkOverThreshold: between(0, 1, 0.2),
  /** The VAD threshold while hark plays, in `raise` mode. */
  echoThreshold: between(0, 1, 0.9),
  /** Room echo and the sound card's buffer outlast the last sample written: keep the gate this long after. */
  echoTailMs: ms(300, 0, 5000),
  /** aplay is killed if it runs this long past its clip's length, or takes no audio this long (a wedged sound card). */
  stallMs: ms(3000, 500, 60_000),
  /**
   * With the echo canceller (echoMode cancel), one aplay stays open for all of hark's sound, so every
   * clip reaches the speaker at one latency; it is closed after this long with nothing to play and
   * opened again on the next sound (the first sound after it needs the canceller to find the latency again).
   */
  playerIdleMs: ms(60_000, 1000, 3_600_000),
  /**
   * How far ahead of the clock that aplay is fed: what a stop cannot take back (a clip stopped falls
   * silent within this, plus the card's buffer), and how long hark may stall before the card runs dry.
   */
  // 250: hark's event loop was measured stalling 130-250 ms now and then on a loaded machine (the card
  // then runs dry and the echo's latency moves); the per-clip player rode out stalls with 400.
  playerLeadMs: ms(250, 40, 1000),
  /** A natural voice from a Wyoming server (wyoming-piper); espeak-ng speaks whenever it is away (see src/wyoming/config.ts). */
  wyoming: wyomingVoiceSection,
}).superRefine((c, ctx) => {
  if (c.alarmMaxDb < c.alarmDb) ctx.addIssue({ code: 'custom', path: ['alarmMaxDb'], message: `must not be below speech.alarmDb (${c.alarmDb})` });
});

export type SpeechConfig = z.infer<typeof speechSection>;
