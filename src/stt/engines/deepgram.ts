import { DeepgramEngine } from '../deepgram/engine.js';
import type { EngineFactory } from './factory.js';

/** Deepgram live streaming; without DEEPGRAM_API_KEY it is missing (said once, in the records). */
export const deepgramFromConfig: EngineFactory = async ({ config, secrets, logger, clock, overrides, languages }) => {
  const apiKey = secrets.deepgramApiKey;
  if (!apiKey) return { missing: 'DEEPGRAM_API_KEY is not set', needs: 'a Deepgram API key: set DEEPGRAM_API_KEY in the environment' };
  const d = config.deepgram;
  return new DeepgramEngine({
    apiKey,
    url: overrides.deepgramUrl ?? d.url,
    model: d.model,
    language: d.language || (languages.length === 1 ? languages[0]! : 'multi'),
    interimResults: d.interimResults,
    utteranceEndMs: d.utteranceEndMs,
    vadEvents: d.vadEvents,
    endpointingMs: d.endpointingMs,
    smartFormat: d.smartFormat,
    connectTimeoutMs: d.connectTimeoutMs,
    finalizeTimeoutMs: d.finalizeTimeoutMs,
    keepAliveMs: d.keepAliveMs,
    idleCloseMs: d.idleCloseMs,
    reconnectInitialMs: d.reconnectInitialMs,
    reconnectMaxMs: d.reconnectMaxMs,
    logger: logger.child({ engine: 'deepgram' }),
    clock,
  });
};
