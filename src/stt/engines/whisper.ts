import { resolveModelPath } from '../whisper/model-file.js';
import { WhisperEngine } from '../whisper/engine.js';
import type { EngineFactory } from './factory.js';

/** Local Whisper: the model is loaded now, once, for the process's life (a broken one fails start). */
export const whisperFromConfig: EngineFactory = async ({ config, logger, clock, prompt, overrides }) => {
  const w = config.whisper;
  return WhisperEngine.load({
    modelPath: overrides.modelPath ?? resolveModelPath(w.model, w.modelsDir),
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
    logger: logger.child({ engine: 'whisper' }),
    clock,
  });
};
