import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readItem } from '../../src/language/items.js';
import { PACKS_DIR } from '../../src/language/pack/files.js';
import { PackError, readPack, reply } from '../../src/language/pack/load.js';
import { packLanguage } from '../../src/language/pack/english.js';
import { inCase } from '../../src/language/pack/message.js';
import { sayQuantity } from '../../src/language/spoken.js';
import { said } from '../../src/language/text.js';
import { script, simulate } from '../conversation/sim.js';

/**
 * A number before a noun takes the case its place in the reply needs, as the pack says: German's
 * "ich habe einen Kasten Milch auf die Liste gesetzt" is accusative, "die Liste: ein Kasten Milch"
 * nominative. A reply asks for a case with a slot modifier, `{items:acc}`; numbers.yaml
 * `say.cases` gives the forms.
 */
const de = () => packLanguage('de');
const es = () => packLanguage('es');

describe('a German number in the case its reply asks for', () => {
  it.each([
    ['milch', 1, 'kasten', 'acc', 'einen Kasten Milch'],
    ['milch', 1, 'kasten', undefined, 'ein Kasten Milch'],
    ['milch', 1, 'kiste', 'acc', 'eine Kiste Milch'],
    ['ei', 1, undefined, 'acc', 'ein Ei'],
    ['milch', 1, 'kasten', 'dat', 'einem Kasten Milch'],
    ['zwiebel', 1, undefined, 'dat', 'einer Zwiebel'],
    ['zwiebeln', 21, undefined, 'acc', 'einundzwanzig Zwiebeln'],
  ] as const)('%s × %d (%s), %s → %s', (item, n, unit, c, want) => {
    expect(sayQuantity(item, n, unit, de(), c)).toBe(want);
  });

  it('101 agrees at its end: "hundertundeine Zwiebel", "tausendundein Kasten"', () => {
    expect(sayQuantity('zwiebel', 101, undefined, de())).toBe('einhundertundeine Zwiebel');
    expect(sayQuantity('milch', 101, 'kasten', de(), 'acc')).toBe('einhundertundeinen Kasten Milch');
    expect(sayQuantity('milch', 1001, 'kasten', de())).toBe('eintausendundein Kasten Milch');
    // A number that does not end in one is said as before.
    expect(sayQuantity('zwiebeln', 105, undefined, de())).toBe('einhundertfünf Zwiebeln');
  });

  it('Spanish has no cases: a case asked for is the number as it was', () => {
    expect(sayQuantity('limones', 21, undefined, es(), 'acc')).toBe('veintiún limones');
  });

  it.each([
    ['hundertundeine zwiebel', { item: 'zwiebel', quantity: 101 }],
    ['hunderteine zwiebel', { item: 'zwiebel', quantity: 101 }],
    ['einhundertundeinen kasten milch', { item: 'milch', quantity: 101, unit: 'kasten' }],
    ['hundertundfünf eier', { item: 'eier', quantity: 105 }],
    ['einem kasten milch', { item: 'milch', quantity: 1, unit: 'kasten' }],
  ])('and read back: %s → %j', (text, want) => {
    expect(readItem(said(text).words, de())).toEqual(want);
  });
});

describe('a reply that asks for a case', () => {
  const files = () => new Map(readdirSync(join(PACKS_DIR, 'de')).map((f) => [f, readFileSync(join(PACKS_DIR, 'de', f), 'utf8')]));

  it('gives the slot its words in that case, and the plain slot its own', () => {
    const p = readPack(files(), 'packs/de', 'de');
    const items = inCase((c) => (c === 'acc' ? 'einen Kasten Milch' : 'ein Kasten Milch'));
    expect(reply(p, 'list.added', { items, list: 'einkaufs' })).toBe('Einen Kasten Milch auf die Einkaufs-Liste gesetzt.');
    expect(reply(p, 'list.read', { items, list: 'einkaufs' })).toBe('Die Einkaufs-Liste: ein Kasten Milch.');
  });

  it('a case the pack does not have stops hark at start, naming the file, the reply and the cases', () => {
    const f = files();
    f.set('replies.yaml', f.get('replies.yaml')!.replace("list.added: '{items:acc}", "list.added: '{items:akk}"));
    expect(() => readPack(f, 'packs/de', 'de')).toThrow(PackError);
    expect(() => readPack(f, 'packs/de', 'de')).toThrow(
      'packs/de/replies.yaml: list.added: unknown case "akk" in {items:akk} (numbers.yaml say.cases: acc, dat)',
    );
  });
});

describe('through hark simulate', () => {
  it('a German cook hears the accusative when hark says what it added, the nominative when it reads the list', async () => {
    const yaml = 'router:\n  mode: always-listen\nlanguage:\n  languages: [de]\n';
    const r = await simulate(
      script('füge einen kasten milch zur einkaufsliste hinzu', 'setze hundertundeine zwiebel auf die einkaufsliste', 'was steht auf der einkaufsliste'),
      { yaml, drainMs: 0 },
    );
    expect(r.spoken()).toEqual([
      'Einen Kasten Milch auf die Einkaufs-Liste gesetzt.',
      'Einhundertundeine Zwiebel auf die Einkaufs-Liste gesetzt.',
      'Die Einkaufs-Liste: ein Kasten Milch und einhundertundeine Zwiebel.',
    ]);
  });
});
