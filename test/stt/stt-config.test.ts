import { describe, expect, it } from 'vitest';
import { parseConfigText, validateConfig } from '../../src/config/load.js';

describe('stt config section', () => {
  it('an empty file gives the issue\'s defaults', () => {
    const { stt } = validateConfig({}, 'test');
    expect(stt).toMatchObject({
      mode: 'local-first',
      whisper: { model: 'base.en-q5_1', scaleAudioCtx: true, vocabularyPrompt: true },
      deepgram: { model: 'nova-3', interimResults: true, smartFormat: true, vadEvents: true, keepAliveMs: 4000, idleCloseMs: 30_000, connectTimeoutMs: 1500, finalizeTimeoutMs: 1500 },
      breaker: { failures: 3, openMs: 30_000 },
      stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
      utterance: { silenceGapMs: 750, punctuationPauseMs: 300, maxDurationMs: 12_000, maxChars: 500 },
    });
    expect(stt.filter.phrases).toEqual(expect.arrayContaining(['thank you for watching', 'thanks for watching', 'you']));
  });

  it('says what is wrong, by path', () => {
    expect(() => parseConfigText('stt:\n  mode: cloudy\n  deepgram:\n    keepAliveMs: 20000\n    apiKey: x\n', 'h.yaml')).toThrow(
      /stt\.mode: must be one of: local-first, cloud-first, local-only, cloud-only[\s\S]*stt\.deepgram\.keepAliveMs: must be a whole number between 500 and 9000[\s\S]*stt\.deepgram\.apiKey: unknown setting/,
    );
  });
});
