import { describe, expect, it } from 'vitest';
import { detectIntent } from '../../src/language/intent-rules.js';
import { packLanguage } from '../../src/language/pack/english.js';
import { readPack, PackError } from '../../src/language/pack/load.js';
import { loadPack, PACKS_DIR } from '../../src/language/pack/files.js';
import { said } from '../../src/language/text.js';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { script, simulate } from '../conversation/sim.js';

const es = () => packLanguage('es');
const de = () => packLanguage('de');

describe('the rule intent detector in Spanish', () => {
  it.each([
    ['para', 'imperative', 'stop', {}],
    ['cancela', 'imperative', 'stop', {}],
    ['olvídalo', 'imperative', 'stop', {}],
    ['no importa', 'imperative', 'stop', {}],
    ['repite', 'imperative', 'repeat', {}],
    ['otra vez', 'imperative', 'repeat', {}],
    ['repite el último', 'imperative', 'repeat', { reference: 'último' }],
    ['repite el número tres', 'imperative', 'repeat', { reference: 'number 3' }],
    ['sigue', 'imperative', 'continue', {}],
    ['continúa por favor', 'imperative', 'continue', {}],
    ['empieza de nuevo', 'imperative', 'start-over', {}],
    ['léelo desde el principio', 'imperative', 'start-over', {}],
    ['dame veinte preguntas sobre los alérgenos', 'imperative', 'generate', { count: 20, topic: 'alérgenos' }],
    ['¿puedes repetir?', 'imperative', 'repeat', {}],
    ['¿Qué es un roux?', 'question', 'definition', { topic: 'roux' }],
    ['qué significa blanquear', 'question', 'definition', { topic: 'blanquear' }],
    ['cómo se templa el chocolate', 'question', 'how-to', { topic: 'templa el chocolate' }],
    ['cuál es la diferencia entre levadura y bicarbonato', 'question', 'compare', { topic: 'levadura y bicarbonato' }],
    ['por qué no calienta el horno', 'question', 'troubleshoot', { topic: 'calienta el horno' }],
    ['dónde están las pinzas', 'question', 'question', {}],
    ['para el jueves pedimos más harina', 'statement', 'statement', {}],
    ['ha llegado el pedido', 'statement', 'statement', {}],
  ] as const)('"%s" → %s/%s', (text, kind, name, slots) => {
    expect(detectIntent(text, es())).toEqual({ kind, name, slots });
  });
});

describe('the rule intent detector in German', () => {
  it.each([
    ['stopp', 'imperative', 'stop', {}],
    ['halt', 'imperative', 'stop', {}],
    ['vergiss es', 'imperative', 'stop', {}],
    ['noch mal', 'imperative', 'repeat', {}],
    ['wiederhole die letzte', 'imperative', 'repeat', { reference: 'letzte' }],
    ['wiederhole nummer drei', 'imperative', 'repeat', { reference: 'number 3' }],
    ['weiter', 'imperative', 'continue', {}],
    ['kannst du weitermachen', 'imperative', 'continue', {}],
    ['fang von vorne an', 'imperative', 'start-over', {}],
    ['gib mir zwanzig fragen zu allergenen', 'imperative', 'generate', { count: 20, topic: 'allergenen' }],
    ['was ist ein roux', 'question', 'definition', { topic: 'roux' }],
    ['was bedeutet blanchieren', 'question', 'definition', { topic: 'blanchieren' }],
    ['wie kann ich schokolade temperieren', 'question', 'how-to', { topic: 'schokolade temperieren' }],
    ['was ist der unterschied zwischen backpulver und natron', 'question', 'compare', { topic: 'backpulver und natron' }],
    ['warum heizt der ofen nicht', 'question', 'troubleshoot', { topic: 'ofen' }],
    ['wo sind die zangen', 'question', 'question', {}],
    ['noch mal zwei minuten für den reis', 'statement', 'statement', {}],
    ['die lieferung ist da', 'statement', 'statement', {}],
  ] as const)('"%s" → %s/%s', (text, kind, name, slots) => {
    expect(detectIntent(text, de())).toEqual({ kind, name, slots });
  });
});

describe('the detector on a device with several languages', () => {
  const all = () => [packLanguage('en'), es(), de()];

  it('reads each utterance in the language that explains it: English stays English', () => {
    expect(detectIntent('para', all()).name).toBe('stop');
    expect(detectIntent('warum heizt der ofen nicht', all())).toEqual({ kind: 'question', name: 'troubleshoot', slots: { topic: 'ofen' } });
    expect(detectIntent('What is a roux?', all())).toEqual({ kind: 'question', name: 'definition', slots: { topic: 'roux' } });
    expect(detectIntent('the delivery came', all()).kind).toBe('statement');
  });

  it('reads the words in the language they were heard in first', () => {
    // "was" asks in English and in German: named German, the German reading (a definition) is kept.
    expect(detectIntent(said('was ist ein roux', 'de'), all())).toEqual({ kind: 'question', name: 'definition', slots: { topic: 'roux' } });
  });

  it("the router's intent: rules read Spanish and German with the device's languages", async () => {
    const yaml = [
      'router:',
      '  mode: always-listen',
      '  frames:',
      '    base:',
      '      rules:',
      "        - {intent: [definition], do: {say: 'about {topic}'}}",
      "        - {intent: [stop], do: {say: 'stopped'}}",
      'language:',
      '  languages: [en, es, de]',
      '',
    ].join('\n');
    const r = await simulate(script('¿qué es un roux?', 'was bedeutet blanchieren', 'what is a bain marie', 'para'), { yaml, drainMs: 0 });
    expect(r.spoken()).toEqual(['about roux', 'about blanchieren', 'about bain marie', 'stopped']);
  });
});

describe('intents.yaml is checked with the pack', () => {
  const filesOf = (lang: string) => new Map(readdirSync(join(PACKS_DIR, lang)).map((f) => [f, readFileSync(join(PACKS_DIR, lang, f), 'utf8')]));

  it('a slot the detector does not read stops the pack, with its file and path', () => {
    const files = filesOf('es');
    files.set('intents.yaml', files.get('intents.yaml')!.replace("'diferencia entre [{topic}]'", "'diferencia entre [{tpoic}]'"));
    let err: unknown;
    try {
      readPack(files, 'packs/es', 'es', (l) => loadPack(l));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PackError);
    expect((err as Error).message).toContain(
      'packs/es/intents.yaml: questions.compare.any.0: unknown slot {tpoic} (slots: count, gap, last, number, thing, topic) in "diferencia entre [{tpoic}]"',
    );
  });

  it('an imperative hark does not know is refused by name', () => {
    const files = filesOf('de');
    files.set('intents.yaml', files.get('intents.yaml')!.replace('  continue:\n', '  weiter:\n'));
    expect(() => readPack(files, 'packs/de', 'de', (l) => loadPack(l))).toThrow(
      /packs\/de\/intents\.yaml: imperatives\.weiter: .*must be one of stop, repeat, continue, start-over, generate/,
    );
  });
});
