import { WyomingSttEngine } from '../wyoming/engine.js';
import { parseServerUrl } from '../../wyoming/server-url.js';
import type { EngineFactory } from './factory.js';

/**
 * A Wyoming speech-to-text server (wyoming-faster-whisper on the site's bigger box). It is asked what
 * it offers at start (models for `hark doctor` and the page); a server that is away then is not fatal —
 * it is remote, so each segment tries it behind the circuit breaker and the next engine covers.
 */
export const wyomingFromConfig: EngineFactory = async ({ config, logger, clock, languages }) => {
  const w = config.wyoming;
  if (!w.server) return { missing: 'stt.wyoming.server is not set', needs: 'a Wyoming server: set stt.wyoming.server (tcp://host:port)' };
  const parsed = parseServerUrl(w.server);
  if ('error' in parsed) return { missing: `stt.wyoming.server: ${parsed.error}`, needs: 'a valid stt.wyoming.server (tcp://host:port)' };
  const engine = new WyomingSttEngine({
    server: parsed.server,
    // The device's one language, or none when it hears several (the server detects it).
    language: w.language || (languages.length === 1 ? languages[0]! : ''),
    model: w.model,
    connectTimeoutMs: w.connectTimeoutMs,
    deadlineBaseMs: w.deadlineBaseMs,
    deadlinePerSecondMs: w.deadlinePerSecondMs,
    chunkSamples: w.chunkSamples,
    logger: logger.child({ engine: 'wyoming' }),
    clock,
  });
  const info = await engine.describe();
  if (info)
    logger.info('Wyoming speech-to-text server', { server: parsed.server.url, models: info.models.map((m) => m.name), streams: info.streamsTranscripts });
  return engine;
};
