import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { HarkError } from '../../src/core/errors.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { createStt } from '../../src/stt/create.js';
import { loadBinding, type NativeModel } from '../../src/stt/whisper/binding.js';
import { WhisperEngine, type WhisperEngineOptions } from '../../src/stt/whisper/engine.js';
import { allowedLanguages, heardLanguage, unknownLanguage, whisperLanguage, type DetectedLanguage } from '../../src/stt/whisper/language.js';
import { requireFile, SHARED, TINY_MODEL } from '../support/paths.js';

const MULTI_MODEL = join(SHARED, 'models', 'for-tests-ggml-tiny.bin');
const detected = (language: string): DetectedLanguage => ({ language, p: 0.5, top: [{ language, p: 0.5 }] });

describe("Whisper and the device's languages", () => {
  it('one language is forced; several are detected in the same pass (auto), among them; stt.whisper.language wins', () => {
    expect(whisperLanguage('', ['es'])).toBe('es');
    expect(whisperLanguage('', ['en', 'es'])).toBe('auto');
    expect(whisperLanguage('de', ['en', 'es'])).toBe('de');
    expect(allowedLanguages('auto', ['en', 'es'])).toEqual(['en', 'es']);
    expect(allowedLanguages('auto', [])).toEqual([]);
    expect(allowedLanguages('es', ['es'])).toEqual([]);
    // An empty language is whisper.cpp's auto as well (what hark doctor passes for the default '').
    expect(allowedLanguages('', ['en', 'es'])).toEqual(['en', 'es']);
  });

  it("a transcript carries the language it was decoded in; one outside the device's is said, never relabelled", () => {
    expect(heardLanguage('auto', detected('es'), ['en', 'es'])).toEqual({ language: 'es' });
    expect(heardLanguage('auto', detected('fr'), ['en', 'es'])).toEqual({ outside: 'fr' });
    expect(heardLanguage('auto', undefined, ['en', 'es'])).toEqual({});
    expect(heardLanguage('auto', detected('fr'), [])).toEqual({ language: 'fr' });
    expect(heardLanguage('es', undefined, ['es'])).toEqual({ language: 'es' });
  });

  it('a code Whisper does not know is named with its config key', () => {
    const known = ['en', 'zh', 'de', 'es'];
    expect(unknownLanguage('auto', ['es', 'de'], known)).toBeNull();
    expect(unknownLanguage('es', ['es'], known)).toBeNull();
    expect(unknownLanguage('', [], known)).toBeNull();
    expect(unknownLanguage('auto', ['es', 'tlh'], known)).toMatch(
      /^language\.languages: 'tlh' is not a language Whisper knows.*\(its codes: en, zh, de, es\)$/,
    );
    expect(unknownLanguage('klingon', ['es'], known)).toMatch(/^stt\.whisper\.language: 'klingon' is not a language Whisper knows/);
  });

  it('an English-only model with another language configured is refused at start, the fix named', async () => {
    const { stt } = validateConfig({ stt: { mode: 'local-only' } }, 'test');
    await expect(
      createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger(), modelPath: requireFile(TINY_MODEL), languages: ['en', 'es'] }),
    ).rejects.toThrow(
      /^stt\.whisper\.model: for-tests-ggml-tiny\.en\.bin is an English-only model, and language\.languages has es: use a multilingual model .* or language\.languages: \[en\]$/,
    );
  });

  it('the multilingual model runs with auto through the real addon (the test model has no weights: no words, so no language)', async () => {
    const { stt } = validateConfig({ stt: { mode: 'local-only' } }, 'test');
    const stack = await createStt({
      config: stt,
      secrets: {},
      bus: new Bus(),
      logger: memoryLogger(),
      modelPath: requireFile(MULTI_MODEL),
      languages: ['en', 'es'],
    });
    try {
      const r = await stack.transcriber.transcribe({ index: 1, pcm: new Int16Array(16_000).fill(200), maxProb: 0.9 });
      expect(r.attempts[0]).toMatchObject({ engine: 'whisper' });
      expect(r.hearing.kind).toBe('dropped');
    } finally {
      await stack.close();
    }
  });
});

/**
 * The choice itself lives in the addon (it must be made between detection and decoding, on the
 * worker thread); the addon exports it so it can be checked on chosen probabilities, which the
 * weightless test model cannot produce (every language comes out equally likely).
 */
describe("the addon's choice of language", () => {
  const binding = loadBinding(true);
  const codes = binding.languages();
  const probs = (p: Record<string, number>) => {
    const a = new Float32Array(codes.length);
    for (const [code, v] of Object.entries(p)) a[codes.indexOf(code)] = v;
    return a;
  };

  it("knows whisper.cpp's codes", () => {
    expect(codes.length).toBe(100);
    expect(codes.slice(0, 4)).toEqual(['en', 'zh', 'de', 'es']);
  });

  it('takes the most probable of the allowed languages, not the most probable of all', () => {
    // A Spanish cook heard as Portuguese: pt leads, es is the device's best.
    const heard = probs({ pt: 0.55, es: 0.3, it: 0.1, de: 0.05 });
    expect(binding.pickLanguage(heard, ['es', 'de'])).toBe('es');
    expect(binding.pickLanguage(heard, ['de', 'es'])).toBe('es');
    expect(binding.pickLanguage(heard, [])).toBe('pt');
  });

  it('on a tie, the earlier of the allowed languages', () => {
    const tie = probs({ es: 0.4, de: 0.4, en: 0.2 });
    expect(binding.pickLanguage(tie, ['de', 'es'])).toBe('de');
    expect(binding.pickLanguage(tie, ['es', 'de'])).toBe('es');
  });

  it('refuses a code whisper.cpp does not know, and probabilities of the wrong length', () => {
    expect(() => binding.pickLanguage(probs({}), ['es', 'xx'])).toThrow(/^languages\[1\] is 'xx', not a language whisper\.cpp knows$/);
    expect(() => binding.pickLanguage(new Float32Array(3), ['es'])).toThrow(/one probability per language \(100\)/);
  });
});

/**
 * The real addon and whisper.cpp with the multilingual test model (no weights: every language is
 * equally probable, so an unrestricted `auto` takes whisper.cpp's first, en).
 */
describe('restricted detection through the real addon and engine', () => {
  const binding = loadBinding(true);
  let model: NativeModel;
  const pcm = new Float32Array(16_000 * 1.2).map((_, i) => 0.1 * Math.sin(i / 7));
  const params = {
    format: 'detail' as const,
    n_threads: 2,
    strategy: 0,
    best_of: 1,
    no_timestamps: true,
    single_segment: true,
    audio_ctx: 80,
    max_tokens: 16,
    temperature: 0,
    temperature_inc: 0,
  };
  const call = (extra: Record<string, unknown>) =>
    new Promise<{ langs: string[]; detected?: DetectedLanguage }>((resolve, reject) => {
      binding.transcribe(
        model.handle!,
        pcm,
        { ...params, ...extra },
        (results, detected) => (Array.isArray(results) ? resolve({ langs: results.map((r) => r.lang), detected }) : reject(results)),
        () => {},
      );
    });

  beforeAll(async () => {
    model = await binding.WhisperModel.load(requireFile(MULTI_MODEL), false);
  });
  afterAll(async () => {
    await model?.free();
  });

  it('restricted to [es, de] it chooses es or de (here es, the first: all tie), and says what it heard', { timeout: 120_000 }, async () => {
    const restricted = await call({ language: 'auto', languages: ['es', 'de'] });
    expect(['es', 'de']).toContain(restricted.detected?.language);
    expect(restricted.detected?.language).toBe('es');
    expect(restricted.detected?.p).toBeCloseTo(0.01, 3);
    expect(restricted.detected?.top).toHaveLength(5);
    const any = await call({ language: 'auto' });
    expect(any.detected?.language).toBe('en');
  });

  it('with one language forced nothing is detected', { timeout: 120_000 }, async () => {
    const forced = await call({ language: 'de', languages: ['es'] });
    expect(forced.detected).toBeUndefined();
  });

  it('an unknown code in languages is a TypeError at the call, before any inference', () => {
    expect(() =>
      binding.transcribe(
        model.handle!,
        pcm,
        { ...params, language: 'auto', languages: ['es', 'xx'] },
        () => {},
        () => {},
      ),
    ).toThrow(/languages\[1\] is 'xx'/);
  });

  const opts = (over: Partial<WhisperEngineOptions>): WhisperEngineOptions => ({
    modelPath: requireFile(MULTI_MODEL),
    language: 'auto',
    languages: ['es', 'de'],
    threads: 2,
    scaleAudioCtx: true,
    audioCtxPad: 16,
    maxTokensPerSecond: 8,
    deadlineBaseMs: 120_000,
    deadlinePerSecondMs: 0,
    temperatureFallback: false,
    nativeLog: false,
    logger: memoryLogger(),
    ...over,
  });
  const languageLines = (lines: string[]) =>
    lines.map((l) => JSON.parse(l) as { msg: string; chosen?: string; from?: string[] }).filter((l) => l.msg === 'whisper language');

  it("the engine gives the device's languages to detection and logs what it chose", { timeout: 120_000 }, async () => {
    const logger = memoryLogger();
    const engine = await WhisperEngine.load(opts({ logger }));
    try {
      await engine.transcribe({ id: 1, pcm: new Int16Array(16_000).fill(200) });
    } finally {
      await engine.close();
    }
    expect(languageLines(logger.lines)).toEqual([expect.objectContaining({ chosen: 'es', from: ['es', 'de'] })]);
  });

  it('the engine with one language forces it: no detection', { timeout: 120_000 }, async () => {
    const logger = memoryLogger();
    const engine = await WhisperEngine.load(opts({ language: 'de', languages: ['de'], logger }));
    try {
      await engine.transcribe({ id: 1, pcm: new Int16Array(16_000).fill(200) });
    } finally {
      await engine.close();
    }
    expect(languageLines(logger.lines)).toEqual([]);
  });

  it('a device language Whisper does not know stops the engine at start, naming it', async () => {
    await expect(WhisperEngine.load(opts({ languages: ['es', 'tlh'] }))).rejects.toThrow(HarkError);
    await expect(WhisperEngine.load(opts({ languages: ['es', 'tlh'] }))).rejects.toThrow(/^language\.languages: 'tlh' is not a language Whisper knows/);
  });
});
