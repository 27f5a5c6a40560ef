import { deepgramFromConfig } from './deepgram.js';
import type { EngineFactory } from './factory.js';
import { whisperFromConfig } from './whisper.js';
import { wyomingFromConfig } from './wyoming.js';

/**
 * Every speech-to-text engine hark knows, by the name stt.mode and stt.engines use. A new engine is
 * one file beside this one (its factory, reading its own config section) and one line here.
 */
export const ENGINES: Readonly<Record<string, EngineFactory>> = {
  whisper: whisperFromConfig,
  deepgram: deepgramFromConfig,
  wyoming: wyomingFromConfig,
};
