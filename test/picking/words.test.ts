import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPack, PACKS_DIR } from '../../src/language/pack/files.js';
import { PackError, readPack } from '../../src/language/pack/load.js';
import { englishWords, wordsOf } from '../../src/picking/words.js';
import { read, readCode } from '../../src/picking/reading.js';
import { said } from '../../src/language/text.js';

/** packs/<lang>/ as the loader reads it, picking.yaml edited. */
function withPicking(lang: string, edit: (text: string) => string): Map<string, string> {
  const dir = join(PACKS_DIR, lang);
  const files = new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
  files.set('picking.yaml', edit(files.get('picking.yaml')!));
  return files;
}

function problems(files: Map<string, string>, lang = 'en'): string[] {
  try {
    readPack(files, `packs/${lang}`, lang);
  } catch (err) {
    if (err instanceof PackError) return err.message.split('\n');
    throw err;
  }
  return [];
}

describe('picking words in the language packs', () => {
  it('the English words read (packs/en/picking.yaml)', () => {
    expect(englishWords().say('pick', { quantity: '3 cases' })).toBe('Pick 3 cases.');
    expect(englishWords().plural('picks', 1)).toBe('1 pick');
  });

  it('Spanish and German say and hear their own words', () => {
    const [es, de] = wordsOf(['es', 'de']);
    expect(es!.say('location', { aisle: 3, slot: 12 })).toBe('Pasillo 3, ubicación 12.');
    expect(es!.plural('picks', 2)).toBe('2 recogidas');
    expect(de!.say('shortConfirm', { missing: 2 })).toBe('Fehlmenge 2, richtig?');
    expect(de!.plural('picks', 1)).toBe('1 Entnahme');
    for (const [w, text, command] of [
      [es, 'Repita', 'sayAgain'],
      [es, 'saltar ubicación', 'skipSlot'],
      [es, 'falta', 'short'],
      [es, '¿Cuánto queda?', 'howMuchMore'],
      [es, 'sí', 'yes'],
      [de, 'Noch mal', 'sayAgain'],
      [de, 'Platz überspringen', 'skipSlot'],
      [de, 'Fehlmenge', 'short'],
      [de, 'Wie viel noch?', 'howMuchMore'],
      [de, 'nein', 'no'],
    ] as const)
      expect(read(said(text), w!).command, text).toBe(command);
  });

  it("numbers are read with the pack's numbers.yaml, letters stay ICAO", () => {
    const [es, de] = wordsOf(['es', 'de']);
    const code = (text: string, w: typeof es) => readCode(said(text).words, w!);
    expect(code('cuatro siete', es)).toBe('47');
    expect(code('cuarenta y siete', es)).toBe('47');
    expect(code('alfa uno dos', es)).toBe('A12');
    expect(code('vier sieben', de)).toBe('47');
    expect(code('siebenundvierzig', de)).toBe('47');
    expect(code('null acht', de)).toBe('08');
    expect(code('bravo zwo', de)).toBe('B2');
    expect(read(said('doce'), es!).number).toBe(12);
    expect(read(said('Zweiundzwanzig'), de!).number).toBe(22);
    // English number words are not German ones.
    expect(read(said('twelve'), de!).number).toBeNull();
  });

  it('a prompt with a slot hark does not fill stops the pack, naming file and path', () => {
    const p = problems(
      withPicking('es', (t) => t.replace('Recoja {quantity}.', 'Recoja {cantidad}.')),
      'es',
    );
    expect(p).toEqual(['packs/es/picking.yaml: say.pick: unknown slot {cantidad} (this sentence has: {quantity})']);
  });

  it('a missing prompt, an empty command or an unknown key is refused with its path', () => {
    const p = problems(
      withPicking('en', (t) =>
        t
          .replace(/\n  wrong: .*\n/, '\n')
          .replace('undo: [ undo ]', 'undo: []')
          .replace('\nplural:', '\nextra: 1\nplural:'),
      ),
    );
    expect(p).toEqual([
      'packs/en/picking.yaml: say.wrong: is missing: every pack says it',
      'packs/en/picking.yaml: hear.undo: needs at least one phrase',
      'packs/en/picking.yaml: Unrecognized key: "extra"',
    ]);
  });

  it('one phrase for two commands is refused (which one was meant could not be told)', () => {
    const p = problems(
      withPicking('de', (t) => t.replace('undo: [rückgängig,', 'undo: [überspringen, rückgängig,')),
      'de',
    );
    expect(p).toEqual(['packs/de/picking.yaml: hear.undo.0: "überspringen" is also a phrase of skipSlot']);
  });

  it('a pack without picking.yaml is refused, unless it falls back on one that has it', () => {
    const files = withPicking('en', (t) => t);
    files.delete('picking.yaml');
    expect(problems(files)).toEqual(['packs/en/picking.yaml: is missing: every pack has this file (or names a fallback in pack.yaml)']);
    const es = withPicking('es', (t) => t);
    es.delete('picking.yaml');
    es.set('pack.yaml', `${es.get('pack.yaml')!}\nfallback: en\n`);
    expect(readPack(es, 'packs/es', 'es', (l) => loadPack(l)).picking.say.askPin).toBe('PIN?');
    expect(readPack(es, 'packs/es', 'es', (l) => loadPack(l)).picking.hear.sayAgain).toContain('say again');
  });
});

describe('reading check digits', () => {
  const code = (text: string) => readCode(said(text).words, englishWords());
  it.each([
    ['four seven', '47'],
    ['forty seven', '47'],
    ['forty-seven', '47'],
    ['4 7', '47'],
    ['47', '47'],
    ['zero eight', '08'],
    ['oh eight', '08'],
    ['double four', '44'],
    ['alpha one two', 'A12'],
    ['x-ray niner', 'X9'],
    ['A12', 'A12'],
    ['twelve', '12'],
    ['one hundred', null],
    ['four seven please', null],
    ['double', null],
    ['forty seven boxes', null],
  ])('"%s" reads as %s', (text, want) => {
    expect(code(text)).toBe(want);
  });
});
