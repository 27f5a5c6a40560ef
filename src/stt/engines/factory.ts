import type { Secrets } from '../../core/secrets.js';
import type { SttConfig } from '../config.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import type { SttEngine } from '../engine.js';

/** What an engine factory gets: its config section and whatever the command line overrides. */
export interface EngineContext {
  config: SttConfig;
  secrets: Secrets;
  logger: Logger;
  clock: Clock;
  /** Whisper's initial prompt, asked afresh for each segment (vocabulary biasing). */
  prompt: () => string;
  /** The languages the device hears (language.languages, pack codes): what an engine listens for. */
  languages: readonly string[];
  overrides: { modelPath?: string; deepgramUrl?: string };
}

/**
 * An engine built, or the one-line reason it cannot be (a missing API key) for the records, with
 * what it needs said as a fix ("a Deepgram API key: set DEEPGRAM_API_KEY in the environment").
 */
export type EngineFactory = (ctx: EngineContext) => Promise<SttEngine | { missing: string; needs: string }>;
