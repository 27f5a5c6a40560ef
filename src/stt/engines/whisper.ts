import { basename } from 'node:path';
import { HarkError } from '../../core/errors.js';
import { whisperLanguage } from '../whisper/language.js';
import { resolveModelPath } from '../whisper/model-file.js';
import { WhisperEngine } from '../whisper/engine.js';
import type { EngineFactory } from './factory.js';

/** Local Whisper: the model is loaded now, once, for the process's life (a broken one fails start). */
export const whisperFromConfig: EngineFactory = async ({ config, logger, clock, prompt, overrides, languages }) => {
  const w = config.whisper;
  const modelPath = overrides.modelPath ?? resolveModelPath(w.model, w.modelsDir);
  const language = whisperLanguage(w.language, languages);
  // An English-only model hears every language as English: refused before it loads.
  const others = languages.filter((l) => l !== 'en');
  if (/\.en([-.]|$)/.test(basename(modelPath)) && (others.length > 0 || language !== 'en')) {
    throw new HarkError(
      `stt.whisper.model: ${basename(modelPath)} is an English-only model, and language.languages has ${others.join(', ') || `en (stt.whisper.language: ${language})`}: use a multilingual model (stt.whisper.model: ${w.model.replace(/\.en(?=[-.]|$)/, '')}, \`hark model fetch ${w.model.replace(/\.en(?=[-.]|$)/, '')}\`) or language.languages: [en]`,
      { exitCode: 2 },
    );
  }
  return WhisperEngine.load({
    modelPath,
    language,
    languages,
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
