import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { createStt } from '../../src/stt/create.js';
import { WyomingDouble } from '../support/wyoming-server.js';

/**
 * Whisper's inventions on silence differ by language: each configured pack's `hallucinations` are
 * dropped, chosen by the language the transcript names (all the device's languages' when it names
 * none). Through the real stack: a Wyoming server (the double, speaking the protocol over a socket)
 * that names the language it detected.
 */
const pcm = () => Int16Array.from({ length: 1600 }, (_, i) => (i % 64) * 100);
let server: WyomingDouble | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function hear(languages: string[], detects: string | null, text: string) {
  server = await WyomingDouble.start({ models: ['small-int8'] });
  server.detects = detects;
  server.script = [text];
  const { stt } = validateConfig({ stt: { engines: ['wyoming'], wyoming: { server: server.url } } }, 'test');
  const stack = await createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger(), languages });
  try {
    return (await stack.transcriber.transcribe({ index: 1, pcm: pcm(), maxProb: 0.9 })).hearing;
  } finally {
    await stack.close();
    await server.close();
    server = undefined;
  }
}

describe('the hallucination filter by language', () => {
  it("a Spanish transcript of Whisper's Spanish invention is dropped, with the reason", async () => {
    expect(await hear(['en', 'es'], 'es', 'Suscríbete al canal')).toMatchObject({ kind: 'dropped', reason: 'hallucination: "suscríbete al canal"' });
  });

  it("another language's invention is words in German: heard", async () => {
    expect(await hear(['en', 'es', 'de'], 'de', 'Suscríbete al canal')).toMatchObject({ kind: 'heard', utterance: { language: 'de' } });
  });

  it('a transcript that names no language is checked against every configured language', async () => {
    expect(await hear(['en', 'de'], null, 'Untertitel im Auftrag des ZDF für funk, 2017')).toMatchObject({ kind: 'dropped' });
    expect(await hear(['en'], null, 'Untertitel im Auftrag des ZDF für funk, 2017')).toMatchObject({ kind: 'heard' });
  });
});
