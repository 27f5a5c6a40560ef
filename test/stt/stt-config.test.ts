import { describe, expect, it } from 'vitest';
import { parseConfigText, validateConfig } from '../../src/config/load.js';
import { Bus } from '../../src/core/bus.js';
import { memoryLogger } from '../../src/core/log.js';
import { createStt } from '../../src/stt/create.js';

describe('stt config section', () => {
  it("an empty file gives the issue's defaults", () => {
    const { stt } = validateConfig({}, 'test');
    expect(stt).toMatchObject({
      mode: 'local-first',
      whisper: { model: 'base.en-q5_1', scaleAudioCtx: true, vocabularyPrompt: true },
      deepgram: {
        model: 'nova-3',
        interimResults: true,
        smartFormat: true,
        vadEvents: true,
        keepAliveMs: 4000,
        idleCloseMs: 30_000,
        connectTimeoutMs: 1500,
        finalizeTimeoutMs: 1500,
      },
      breaker: { failures: 3, openMs: 30_000 },
      stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
      engines: [],
    });
    // The VAD segment closes an utterance now: the message-timed close rules are gone.
    expect(stt).not.toHaveProperty('utterance');
    expect(stt.filter.phrases).toEqual(expect.arrayContaining(['thank you for watching', 'thanks for watching', 'you']));
  });

  it('an explicit engine order is a list of names; an unknown name is refused when hark starts', () => {
    expect(validateConfig({ stt: { engines: ['deepgram', 'whisper'] } }, 'test').stt.engines).toEqual(['deepgram', 'whisper']);
    expect(() => parseConfigText('stt:\n  engines: deepgram\n', 'h.yaml')).toThrow(/stt\.engines: must be a list of engine names/);
  });

  it('an unknown engine in stt.engines stops hark at start, naming the known ones', async () => {
    const { stt } = validateConfig({ stt: { engines: ['sherpa', 'whisper'] } }, 'test');
    await expect(createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger() })).rejects.toThrow(
      'stt.engines: unknown engine "sherpa" (known: whisper, deepgram, wyoming)',
    );
  });

  it('says what is wrong, by path', () => {
    expect(() => parseConfigText('stt:\n  mode: cloudy\n  deepgram:\n    keepAliveMs: 20000\n    apiKey: x\n', 'h.yaml')).toThrow(
      /stt\.mode: must be one of: local-first, cloud-first, local-only, cloud-only[\s\S]*stt\.deepgram\.keepAliveMs: must be a whole number between 500 and 9000[\s\S]*stt\.deepgram\.apiKey: unknown setting/,
    );
  });
});
