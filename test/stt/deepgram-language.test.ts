import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { createStt, type SttStack } from '../../src/stt/create.js';
import { DeepgramDouble, type Cadence } from '../support/deepgram-server.js';

/**
 * Deepgram's language from the device's languages: one → language=<code>; several → language=multi
 * (Nova-3 multilingual, which names the language it heard on the alternative and each word), and
 * that language is the utterance's. Through the real stack against the protocol double.
 */
let dg: DeepgramDouble;
let stack: SttStack | null = null;
beforeEach(async () => {
  dg = await DeepgramDouble.start();
});
afterEach(async () => {
  await stack?.close();
  stack = null;
  await dg.close();
});

async function build(languages: string[], cadence: Cadence = 'simple') {
  dg.cadence = cadence;
  const { stt } = validateConfig({ stt: { engines: ['deepgram'] } }, 'test');
  stack = await createStt({ config: stt, secrets: { deepgramApiKey: 'test-key' }, bus: new Bus(), logger: memoryLogger(), deepgramUrl: dg.url, languages });
  return stack;
}
const speech = () => new Int16Array(16_000).fill(300);

describe("Deepgram and the device's languages", () => {
  it('one language is asked for by its code, and the transcript names none of its own', async () => {
    dg.script = [{ text: 'pon un temporizador', language: 'es' }];
    const s = await build(['es']);
    const r = await s.transcriber.transcribe({ index: 1, pcm: speech(), maxProb: 0.9 });
    expect(dg.last!.query.language).toBe('es');
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'pon un temporizador' } });
    expect(r.hearing.kind === 'heard' ? r.hearing.utterance.language : 'dropped').toBeUndefined();
  });

  it.each(['simple', 'live'] as const)("several: language=multi, and the language Deepgram names is the utterance's (%s cadence)", async (cadence) => {
    dg.script = [
      { text: 'pon un temporizador de diez minutos', language: 'es' },
      { text: 'stop the rice timer', language: 'en' },
    ];
    const s = await build(['en', 'es'], cadence);
    const es = await s.transcriber.transcribe({ index: 1, pcm: speech(), maxProb: 0.9 });
    const en = await s.transcriber.transcribe({ index: 2, pcm: speech(), maxProb: 0.9 });
    expect(dg.last!.query.language).toBe('multi');
    expect(es.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'pon un temporizador de diez minutos', language: 'es' } });
    expect(en.hearing).toMatchObject({ kind: 'heard', utterance: { language: 'en' } });
  });
});
