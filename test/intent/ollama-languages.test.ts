import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOllamaDouble, type OllamaDouble } from '../support/ollama-server.js';
import { intentHarness } from './ollama-harness.js';

/**
 * On a device that hears English and Spanish, the intent pass asks in the language the request was
 * said in: its question (the intent's `askIn`, else its `ask`), the pack's "Di sí o no." and
 * "Cancelado.", each line carrying the language so the Spanish voice says it. Through the real
 * path: the router, the query frame, the intent target, the pass, HTTP to the Ollama double.
 */
let ollama: OllamaDouble;
beforeEach(async () => {
  ollama = await startOllamaDouble();
  ollama.on('azafrán', { verb: 'locate_item', object: 'saffron' });
  ollama.on('saffron', { verb: 'locate_item', object: 'saffron' });
});
afterEach(() => ollama.close());

const locate = {
  name: 'locate_item',
  description: 'find where an item is kept; the object is the item',
  action: 'item.locate',
  ask: 'Look up where {item} is kept?',
  askIn: { es: '¿Busco dónde se guarda {item}?' },
  clarifyIn: { es: '¿Qué buscas?' },
};
const device = (mode: 'wake-word' | 'always-listen') =>
  intentHarness({ host: ollama.url, config: { language: { languages: ['en', 'es'] }, router: { mode }, intent: { intents: [locate] } } });
const said = (h: ReturnType<typeof device>) => h.of('speak').map((e) => (e.lang ? `[${e.lang}] ${e.text}` : e.text));

describe('the intent pass in the language spoken', () => {
  it('a request woken in Spanish is asked, and turned down, in Spanish; an English one in English', async () => {
    const h = device('wake-word');
    await h.script('oye computadora dónde está el azafrán', 'envía');
    await h.script('no');
    await h.request('where is the saffron');
    await h.script('no');
    expect(said(h)).toEqual([
      '[es] ¿Busco dónde se guarda saffron? Di sí o no.',
      '[es] Cancelado.',
      'Look up where saffron is kept? Say yes or no.',
      'Cancelled.',
    ]);
  });

  it('always-listen: a Spanish question no rule covers is answered in Spanish, not the first language', async () => {
    const h = device('always-listen');
    h.say('¿dónde está el azafrán?');
    await h.settle();
    h.clock.advanceBy(4000);
    await h.settle();
    expect(h.of('submit')).toEqual([expect.objectContaining({ text: '¿dónde está el azafrán?', lang: 'es' })]);
    expect(said(h)).toEqual(['[es] ¿Busco dónde se guarda saffron? Di sí o no.']);
    await h.script('sí');
    expect(h.of('commit')).toHaveLength(1);
  });
});

describe('language.replies in each language', () => {
  const yaml = (replies: Record<string, unknown>) => ({ language: { languages: ['en', 'es'], replies } });

  it("the old shape is the first language's; a language code holds that language's; the rest is the pack's (hark simulate)", async () => {
    const { script, simulate } = await import('../conversation/sim.js');
    const cfg = (replies: string) => `language:\n  languages: [en, es]\n  replies:${replies}\n`;
    const lines = script('computer the fish is off', 'send', 'oye computadora el pescado está malo', 'envía');
    const r = await simulate(lines, { yaml: cfg('\n    noted: Noted for the chef.\n    es: {noted: Anotado para el chef.}'), drainMs: 0 });
    const speak = (x: typeof r) => x.of('speak').map((e) => (e.lang ? `[${String(e.lang)}] ${String(e.text)}` : String(e.text)));
    expect(speak(r)).toEqual(['Noted for the chef.', '[es] Anotado para el chef.']);
    const plain = await simulate(lines, { yaml: cfg(' {}'), drainMs: 0 });
    expect(speak(plain)).toEqual(['Noted.', '[es] Anotado.']);
  }, 60_000);

  it.each([
    [{ nooted: 'x' }, 'language.replies.nooted: is neither a reply (noted, unclear) nor one of language.languages (en, es)'],
    [{ de: { noted: 'Notiert.' } }, 'language.replies.de: is neither a reply'],
    [{ es: 'Anotado.' }, 'language.replies.es: must be the replies of "es", such as {noted: …}'],
    [{ es: { notado: 'x' } }, 'language.replies.es'],
  ])('refuses %j with its path', async (replies, message) => {
    const { validateConfig } = await import('../../src/config/load.js');
    expect(() => validateConfig(yaml(replies), 'test')).toThrow(message);
  });
});
