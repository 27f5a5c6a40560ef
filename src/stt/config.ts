import { z } from 'zod';
import { between, flag, intBetween, ms, nonEmpty, oneOf, section, text } from '../core/config-fields.js';
import { DEFAULT_HALLUCINATIONS } from './hallucination-filter.js';
import { wyomingSttSection } from '../wyoming/config.js';

export const STT_MODES = ['local-first', 'cloud-first', 'local-only', 'cloud-only'] as const;

const whisperSection = section({
  /**
   * A model name from `hark model fetch` (tiny.en-q5_1, base.en-q5_1, ...), looked up in modelsDir
   * as ggml-<name>.bin, or a path to a ggml file.
   */
  model: nonEmpty('base.en-q5_1'),
  /** Where `hark model fetch` puts models and where a model name is looked up. */
  modelsDir: nonEmpty('/var/lib/hark/models'),
  /**
   * Spoken language told to Whisper. '' : the device's (language.languages) when it has one, `auto`
   * (detected in the same pass) when several; a `.en` model needs English alone.
   */
  language: text(''),
  /** Inference threads; 0 picks min(4, CPU cores). */
  threads: intBetween(0, 64, 0),
  /**
   * Scale whisper.cpp's encoder context to the segment (audio_ctx) instead of always encoding 30 s:
   * the difference between seconds and a fraction of a second for a two-word command on a Pi 4.
   */
  scaleAudioCtx: flag(true),
  /** Extra encoder positions (20 ms each) beyond the segment's length when scaling; too tight and Whisper repeats itself. */
  audioCtxPad: intBetween(0, 1500, 128),
  /** Decoded tokens allowed per second of audio (plus 16): a runaway repetition loop is cut short. 0: no cap. */
  maxTokensPerSecond: intBetween(0, 100, 8),
  /** Whisper fails over when it takes longer than deadlineBaseMs + deadlinePerSecondMs × segment seconds. */
  deadlineBaseMs: ms(2000, 100, 600_000),
  deadlinePerSecondMs: ms(1000, 0, 60_000),
  /** Fixed text prepended to the prompt (vocabulary biasing); the router's words are appended when vocabularyPrompt is on. */
  initialPrompt: text(''),
  /** Bias Whisper toward the words the router is listening for, via the initial prompt. */
  vocabularyPrompt: flag(true),
  /** Retry a failed decode at higher temperature (whisper.cpp's default): more robust, up to 6× slower. */
  temperatureFallback: flag(false),
  /** Let whisper.cpp print its own load/inference log to stderr. */
  nativeLog: flag(false),
});

const deepgramSection = section({
  /** Deepgram's API base URL (a ws:// URL points hark at a local test server). */
  url: nonEmpty('wss://api.deepgram.com'),
  model: nonEmpty('nova-3'),
  /**
   * Deepgram's language. '' : the device's (language.languages): one → that code; several → `multi`
   * (Nova-3's multilingual model, which names the language of each result).
   */
  language: text(''),
  interimResults: flag(true),
  /** Silence after the last word before Deepgram sends UtteranceEnd (needs interimResults); 0 disables. */
  utteranceEndMs: ms(1000, 0, 5000),
  vadEvents: flag(true),
  /** Deepgram's own endpointing silence in ms; 0 disables. */
  endpointingMs: ms(300, 0, 10_000),
  smartFormat: flag(true),
  /** A socket that is not open by then counts as a failure. */
  connectTimeoutMs: ms(1500, 100, 60_000),
  /** No final within this long after Finalize counts as a failure. */
  finalizeTimeoutMs: ms(1500, 100, 60_000),
  /** KeepAlive period on an open, idle socket (Deepgram closes after ~10 s without audio or KeepAlive). */
  keepAliveMs: ms(4000, 500, 9000),
  /** Close the socket after this long without a segment. */
  idleCloseMs: ms(30_000, 1000, 3_600_000),
  /** Reconnect backoff after a failed connection: doubles from initial up to max. */
  reconnectInitialMs: ms(500, 0, 600_000),
  reconnectMaxMs: ms(15_000, 0, 3_600_000),
}).superRefine((c, ctx) => {
  if (c.reconnectMaxMs < c.reconnectInitialMs)
    ctx.addIssue({ code: 'custom', path: ['reconnectMaxMs'], message: 'must not be below stt.deepgram.reconnectInitialMs' });
});

const breakerSection = section({
  /** Consecutive cloud failures that open the circuit. */
  failures: intBetween(1, 100, 3),
  /** How long an open circuit skips the cloud before one probe. */
  openMs: ms(30_000, 100, 3_600_000),
});

const stabilizerSection = section({
  windowSize: intBetween(1, 20, 3),
  minConfidence: between(0, 1, 0.6),
  requireRepetition: flag(true),
});

const filterSection = section({
  /**
   * Whole transcripts dropped as known Whisper hallucinations (compared without case or punctuation).
   * Bracketed non-speech ([BLANK_AUDIO], (music)) and lone punctuation are always dropped.
   */
  phrases: z
    .array(z.string({ error: 'must be a phrase' }).min(1, 'must not be empty'), { error: 'must be a list of phrases' })
    .default([...DEFAULT_HALLUCINATIONS]),
});

/** The waiting line in front of speech-to-text, bounded in time and memory. */
const queueSection = section({
  /**
   * A segment that waited longer than this without starting is not transcribed in wake-word mode
   * (the moment has passed): it is stored with its audio, fate `dropped: backlog`, for `hark replay`.
   * Push-to-talk segments and answers the top frame waits for are always transcribed.
   */
  maxWaitMs: ms(10_000, 500, 600_000),
  /** Audio held by queued segments; past it the oldest are stored untranscribed (never dropped). */
  maxAudioMb: between(0.5, 1024, 16),
});

/**
 * In wake-word mode with only the base frame open, a segment longer than `seconds` is
 * first transcribed on its first `seconds` (Whisper's audio_ctx sized to them: a fraction of a full
 * inference) and transcribed whole only when that opening starts with the wake phrase or another
 * base-frame phrase. A streaming first engine (Deepgram live) already heard it all: no check.
 */
const openingSection = section({
  enabled: flag(true),
  seconds: between(1, 5, 2),
});

export const sttSection = section({
  /** local-first (default), cloud-first, local-only, cloud-only. */
  mode: oneOf(STT_MODES, 'local-first'),
  /**
   * An explicit engine order (e.g. [deepgram, whisper]) instead of the mode's; empty: the mode decides.
   * The first engine whose transcript stands is used; a later one redoes the whole segment.
   */
  engines: z.array(z.string({ error: 'must be an engine name' }).min(1, 'must not be empty'), { error: 'must be a list of engine names' }).default([]),
  /**
   * A segment whose VAD peak is at least this counts as clear speech: a blank or filtered Whisper
   * result for it is treated as a failure and the cloud is asked.
   */
  clearSpeechProb: between(0, 1, 0.8),
  /**
   * Start local Whisper on a segment after this much silence inside it, while the VAD hangover still
   * runs: if the person has stopped, the transcript is ready when the segment closes; if they go on,
   * it is thrown away. 0 turns it off. Only when the first engine takes whole segments (Whisper).
   */
  preemptiveMs: ms(200, 0, 5000),
  /**
   * When that early transcript is already a whole command of the top frame (one of its exact phrases:
   * "yes", "stop", "repeat"), close the segment then and act, without waiting out the rest of the
   * hangover. false: always wait for the hangover.
   */
  actOnCompleteCommand: flag(true),
  queue: queueSection,
  opening: openingSection,
  whisper: whisperSection,
  deepgram: deepgramSection,
  /** The `wyoming` engine: a Wyoming speech-to-text server (see src/wyoming/config.ts). */
  wyoming: wyomingSttSection,
  breaker: breakerSection,
  stabilizer: stabilizerSection,
  filter: filterSection,
});

export type SttConfig = z.infer<typeof sttSection>;
