import { z } from 'zod';
import { between, intBetween, movedTo, ms, nonEmpty, section } from '../core/config-fields.js';
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
  voices: z
    .record(z.string().regex(/^[a-z]{2,3}(-[a-z0-9]+)?$/, 'must be a language code such as es'), z.string().trim().min(1, 'must name an espeak-ng voice'), {
      error: 'must map language codes to espeak-ng voices',
    })
    .default({}),
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
  // The echo canceller's and the echo gate's settings are the echo: section's (src/echo/config.ts).
  echoMode: movedTo('echo.mode'),
  echoFallback: movedTo('echo.fallback'),
  echoFilterMs: movedTo('echo.filterMs'),
  echoResidual: movedTo('echo.residual'),
  echoFollowSkew: movedTo('echo.followSkew'),
  denoise: movedTo('echo.denoise'),
  denoiseDb: movedTo('echo.denoiseDb'),
  echoTalkOverThreshold: movedTo('echo.talkOverThreshold'),
  echoThreshold: movedTo('echo.raiseThreshold'),
  echoTailMs: movedTo('echo.tailMs'),
  /** aplay is killed if it runs this long past its clip's length, or takes no audio this long (a wedged sound card). */
  stallMs: ms(3000, 500, 60_000),
  /**
   * With the echo canceller (echo.mode cancel), one aplay stays open for all of hark's sound, so every
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
