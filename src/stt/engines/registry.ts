import type { Secrets } from '../../config/load.js';
import type { SttConfig } from '../../config/sections/stt.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import type { SttEngine } from '../engine.js';
import { deepgramFromConfig } from './deepgram.js';
import { whisperFromConfig } from './whisper.js';
import { wyomingFromConfig } from './wyoming.js';

/** What an engine factory gets: its config section and whatever the command line overrides. */
export interface EngineContext {
  config: SttConfig;
  secrets: Secrets;
  logger: Logger;
  clock: Clock;
  /** Whisper's initial prompt, asked afresh for each segment (vocabulary biasing). */
  prompt: () => string;
  overrides: { modelPath?: string; deepgramUrl?: string };
}

/**
 * An engine built, or the one-line reason it cannot be (a missing API key) for the records, with
 * what it needs said as a fix ("a Deepgram API key: set DEEPGRAM_API_KEY in the environment").
 */
export type EngineFactory = (ctx: EngineContext) => Promise<SttEngine | { missing: string; needs: string }>;

/**
 * Every speech-to-text engine hark knows, by the name stt.mode and stt.engines use. A new engine is
 * one file beside this one (its factory, reading its own config section) and one line here.
 */
export const ENGINES: Readonly<Record<string, EngineFactory>> = {
  whisper: whisperFromConfig,
  deepgram: deepgramFromConfig,
  wyoming: wyomingFromConfig,
};
