import type { Bus } from '../core/bus.js';
import { SystemClock, type Clock } from '../core/clock.js';
import { HarkError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Secrets } from '../config/load.js';
import type { SttConfig } from '../config/sections/stt.js';
import { DeepgramEngine } from './deepgram/engine.js';
import { engineOrder, type EngineId, type SttMode } from './fallback-policy.js';
import { SttService } from './service.js';
import { WhisperEngine } from './whisper/engine.js';
import { resolveModelPath } from './whisper/model-file.js';
import { buildPrompt } from './whisper/params.js';

export interface CreateSttOptions {
  config: SttConfig;
  secrets: Secrets;
  bus: Bus;
  logger: Logger;
  clock?: Clock;
  /** Command-line overrides (hark transcribe). */
  mode?: SttMode;
  modelPath?: string;
  deepgramUrl?: string;
}

/** What the composition root holds: the service it feeds segments to, and the engines it shuts down. */
export interface SttStack {
  service: SttService;
  whisper: WhisperEngine | null;
  deepgram: DeepgramEngine | null;
  /** The words the router is listening for: Whisper's initial prompt is built from them. */
  setVocabulary(words: readonly string[]): void;
  close(): Promise<void>;
}

/**
 * Build speech-to-text from the config: load the Whisper model (once, for the process's life) when
 * the mode uses it, set up Deepgram when the mode uses it and DEEPGRAM_API_KEY is set.
 * A missing or broken model, or a cloud mode without a key, is a HarkError at start, not a surprise
 * on the first command.
 */
export async function createStt(o: CreateSttOptions): Promise<SttStack> {
  const cfg = o.config;
  const mode = o.mode ?? cfg.mode;
  const clock = o.clock ?? new SystemClock();
  const order = engineOrder(mode);
  const missing: Partial<Record<EngineId, string>> = {};
  let vocabulary: readonly string[] = [];
  const prompt = () => buildPrompt(cfg.whisper.initialPrompt, cfg.whisper.vocabularyPrompt ? vocabulary : []);

  let deepgram: DeepgramEngine | null = null;
  if (order.includes('deepgram')) {
    const apiKey = o.secrets.deepgramApiKey;
    if (apiKey) {
      const d = cfg.deepgram;
      deepgram = new DeepgramEngine({
        apiKey,
        url: o.deepgramUrl ?? d.url,
        model: d.model,
        language: d.language,
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
        logger: o.logger.child({ engine: 'deepgram' }),
        clock,
      });
    } else if (order[0] === 'deepgram') {
      throw new HarkError(`stt.mode ${mode} needs a Deepgram API key: set DEEPGRAM_API_KEY in the environment (or use stt.mode local-only)`, { exitCode: 2 });
    } else {
      missing.deepgram = 'DEEPGRAM_API_KEY is not set';
    }
  }

  let whisper: WhisperEngine | null = null;
  if (order.includes('whisper')) {
    const w = cfg.whisper;
    whisper = await WhisperEngine.load({
      modelPath: o.modelPath ?? resolveModelPath(w.model, w.modelsDir),
      language: w.language,
      threads: w.threads,
      scaleAudioCtx: w.scaleAudioCtx,
      audioCtxPad: w.audioCtxPad,
      maxTokensPerSecond: w.maxTokensPerSecond,
      deadlineBaseMs: w.deadlineBaseMs,
      deadlinePerSecondMs: w.deadlinePerSecondMs,
      temperatureFallback: w.temperatureFallback,
      nativeLog: w.nativeLog,
      prompt,
      logger: o.logger.child({ engine: 'whisper' }),
      clock,
    });
  }

  const service = new SttService({
    mode,
    whisper,
    deepgram,
    missing,
    clearSpeechProb: cfg.clearSpeechProb,
    breaker: cfg.breaker,
    filter: cfg.filter,
    utterance: { ...cfg.utterance, stabilizer: cfg.stabilizer },
    clock,
    logger: o.logger.child({ component: 'stt' }),
    bus: o.bus,
  });

  return {
    service,
    whisper,
    deepgram,
    setVocabulary(words) {
      vocabulary = [...words];
    },
    async close() {
      await service.close();
      await deepgram?.close();
      await whisper?.close();
    },
  };
}
