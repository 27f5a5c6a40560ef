import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { createStt } from '../../src/stt/create.js';
import { heardLanguage, whisperLanguage } from '../../src/stt/whisper/language.js';
import { requireFile, SHARED, TINY_MODEL } from '../support/paths.js';

const MULTI_MODEL = join(SHARED, 'models', 'for-tests-ggml-tiny.bin');

describe("Whisper and the device's languages", () => {
  it('one language is forced; several are detected in the same pass (auto); stt.whisper.language wins', () => {
    expect(whisperLanguage('', ['es'])).toBe('es');
    expect(whisperLanguage('', ['en', 'es'])).toBe('auto');
    expect(whisperLanguage('de', ['en', 'es'])).toBe('de');
  });

  it('a detected language is held to the device\'s: outside them it is read as the first, and said', () => {
    expect(heardLanguage('auto', 'es', ['en', 'es'])).toEqual({ language: 'es' });
    expect(heardLanguage('auto', 'fr', ['en', 'es'])).toEqual({ language: 'en', outside: 'fr' });
    expect(heardLanguage('auto', undefined, ['en', 'es'])).toEqual({});
    expect(heardLanguage('es', 'es', ['es'])).toEqual({ language: 'es' });
  });

  it('an English-only model with another language configured is refused at start, the fix named', async () => {
    const { stt } = validateConfig({ stt: { mode: 'local-only' } }, 'test');
    await expect(createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger(), modelPath: requireFile(TINY_MODEL), languages: ['en', 'es'] })).rejects.toThrow(
      /^stt\.whisper\.model: for-tests-ggml-tiny\.en\.bin is an English-only model, and language\.languages has es: use a multilingual model .* or language\.languages: \[en\]$/,
    );
  });

  it('the multilingual model runs with auto through the real addon (the test model has no weights: no words, so no language)', async () => {
    const { stt } = validateConfig({ stt: { mode: 'local-only' } }, 'test');
    const stack = await createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger(), modelPath: requireFile(MULTI_MODEL), languages: ['en', 'es'] });
    try {
      const r = await stack.transcriber.transcribe({ index: 1, pcm: new Int16Array(16_000).fill(200), maxProb: 0.9 });
      expect(r.attempts[0]).toMatchObject({ engine: 'whisper' });
      expect(r.hearing.kind).toBe('dropped');
    } finally {
      await stack.close();
    }
  });
});
