import { mkdtempSync, readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTENTS, REPLIES } from '../../src/language/pack/catalog.js';
import { loadPack, packLanguages, PACKS_DIR } from '../../src/language/pack/files.js';
import { PackError, readPack, reply } from '../../src/language/pack/load.js';

/**
 * The language packs that ship (packs/<lang>/) load, whole; a broken one is refused with the file
 * and the path inside it of every problem, as a bad config is.
 */
function packFiles(lang: string): Map<string, string> {
  const dir = join(PACKS_DIR, lang);
  return new Map(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

/** The English pack with one file's text changed. */
function broken(file: string, edit: (text: string) => string): Map<string, string> {
  const files = packFiles('en');
  files.set(file, edit(files.get(file)!));
  return files;
}

function problems(files: Map<string, string>): string[] {
  try {
    readPack(files, 'packs/en', 'en');
  } catch (err) {
    if (err instanceof PackError) return err.message.split('\n');
    throw err;
  }
  return [];
}

describe('the packs that ship', () => {
  it('are English, Spanish and German', () => {
    expect(packLanguages()).toEqual(['de', 'en', 'es']);
  });

  for (const lang of ['en', 'es', 'de']) {
    it(`${lang} loads whole: every intent, every reply`, () => {
      const p = loadPack(lang);
      expect(p.meta.language).toBe(lang);
      expect(p.grammar.sentences.map((s) => s.intent).sort()).toEqual([...INTENTS].sort());
      expect([...p.messages.keys()].sort()).toEqual(Object.keys(REPLIES).sort());
    });
  }

  it('says replies with plural forms in its own language', () => {
    const [en, es, de] = ['en', 'es', 'de'].map((l) => loadPack(l));
    expect(reply(en!, 'timer.cancelled_many', { count: 1 })).toBe('Cancelled 1 timer.');
    expect(reply(en!, 'timer.cancelled_many', { count: 3 })).toBe('Cancelled 3 timers.');
    expect(reply(en!, 'timer.set', { duration: '10 minutes' })).toBe('Timer set for 10 minutes.');
    expect(reply(en!, 'timer.set', { name: 'rice', duration: '10 minutes' })).toBe('Rice timer set for 10 minutes.');
    expect(reply(es!, 'timer.cancelled_many', { count: 1 })).toBe('Cancelado 1 temporizador.');
    expect(reply(es!, 'timer.cancelled_many', { count: 2 })).toBe('Cancelados 2 temporizadores.');
    expect(reply(de!, 'timer.cancelled_many', { count: 2 })).toBe('2 Timer abgebrochen.');
    expect(reply(de!, 'inventory.saved', { count: 1 })).toBe('1 Artikel gespeichert.');
  });
});

describe('a broken pack is refused at start, with the file and the path', () => {
  it('a template with an unknown slot', () => {
    const got = problems(broken('sentences.yaml', (t) => t.replace("- '<cancel> {timer}'", "- '<cancel> {tmer}'")));
    expect(got).toEqual([expect.stringMatching(/^packs\/en\/sentences\.yaml: timer\.cancel\.0: unknown slot \{tmer\} \(slots: .*\) in "<cancel> \{tmer\}"$/)]);
  });

  it('a template that is broken, and one that names a rule the pack lacks', () => {
    const got = problems(
      broken('sentences.yaml', (t) => t.replace("- '<pause> {timer}'", "- '<pause> ({timer}'").replace("- '<resume> {timer}'", "- '<unpause> {timer}'")),
    );
    expect(got).toEqual([
      expect.stringMatching(/^packs\/en\/sentences\.yaml: timer\.pause\.0: "\(" at column 9 is never closed with "\)" in "<pause> \(\{timer\}"$/),
      expect.stringMatching(/^packs\/en\/sentences\.yaml: timer\.resume\.0: unknown rule <unpause> \(rules: .*\) in "<unpause> \{timer\}"$/),
    ]);
  });

  it('a missing reply, a reply with an argument hark never gives, and a plural with no "other"', () => {
    const got = problems(
      broken('replies.yaml', (t) =>
        t
          .replace(/^timer\.left: .*\n/m, '')
          .replace("list.cleared: 'Cleared the {list} list.'", "list.cleared: 'Cleared the {lsit} list.'")
          .replace("inventory.kept: 'Kept {count, plural, one {# item} other {# items}}.'", "inventory.kept: 'Kept {count, plural, one {# item}}.'"),
      ),
    );
    expect(got).toEqual([
      'packs/en/replies.yaml: list.cleared: unknown slot {lsit}: hark gives this reply {list}',
      expect.stringMatching(/^packs\/en\/replies\.yaml: inventory\.kept: \{count, plural, …\} needs an "other" form at column \d+ in /),
      'packs/en/replies.yaml: timer.left: is missing: hark says this reply in every language',
    ]);
  });

  it('a missing intent, an unknown one, and a word list of the wrong shape', () => {
    const got = [
      ...problems(broken('sentences.yaml', (t) => t.replace('timer.pause:', 'timer.paws:'))),
      ...problems(broken('words.yaml', (t) => t.replace('number: [number]', 'number: {x: 1}'))),
    ];
    expect(got).toEqual([
      expect.stringMatching(/^packs\/en\/sentences\.yaml: timer\.paws: unknown intent "timer\.paws" \(intents: timer\.start, /),
      'packs/en/sentences.yaml: timer.pause: is missing: every pack says how each intent is asked',
      'packs/en/words.yaml: number: must be a list of words or phrases',
    ]);
  });

  it('a phrase among the words that stop a ring, and the old openings list, are named', () => {
    expect(problems(broken('words.yaml', (t) => t.replace('ring_stop: [stop,', 'ring_stop: [turn it off, stop,')))).toEqual([
      'packs/en/words.yaml: ring_stop.0: must be one word (a phrase is its words: "turn it off" is ring_stop off with turn and it in ring_stop_also)',
    ]);
    expect(problems(broken('words.yaml', (t) => `${t}\nring_stop_openings: [stop]\n`)).join('\n')).toMatch(/packs\/en\/words\.yaml: .*ring_stop_openings/);
  });

  it('bad YAML names its line; a missing file, a stray one and a pack under the wrong code are named', () => {
    const files = broken('numbers.yaml', (t) => t.replace('  five: 5', '  five: [5'));
    files.delete('timers.yaml');
    files.set('extras.yaml', 'x: 1\n');
    expect(problems(files)).toEqual([
      expect.stringMatching(/^packs\/en\/numbers\.yaml: line 11: /),
      expect.stringMatching(/^packs\/en\/extras\.yaml: is not a part of a pack/),
      'packs/en/timers.yaml: is missing: every pack has this file (or names a fallback in pack.yaml)',
    ]);
    expect(() => readPack(packFiles('en'), 'packs/es', 'es')).toThrow('packs/es/pack.yaml: language: is "en", but the pack is read as "es"');
  });

  it('a pack folder that does not exist is named with the packs there are', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-packs-'));
    mkdirSync(join(dir, 'fr'));
    writeFileSync(join(dir, 'fr', 'pack.yaml'), 'language: fr\nname: Français\nvoice: fr-fr\n');
    expect(() => loadPack('pl', dir)).toThrow(`no language pack "pl" in ${dir} (packs: fr)`);
    expect(() => loadPack('fr', dir)).toThrow(/fr\/sentences\.yaml: is missing: every pack has this file/);
  });
});

describe('a pack that grows from another', () => {
  it("writes a few intents, its numbers and some replies; the rest is its fallback's, and it is refused without one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'hark-packs-'));
    mkdirSync(join(dir, 'it'));
    const en = join(PACKS_DIR, 'en');
    mkdirSync(join(dir, 'en'));
    for (const f of readdirSync(en)) writeFileSync(join(dir, 'en', f), readFileSync(join(en, f)));
    const files: Record<string, string> = {
      'pack.yaml': 'language: it\nname: Italiano\nvoice: it\nfallback: en\n',
      'sentences.yaml': "timer.cancel: ['<cancel> {timer}']\n",
      'rules.yaml': 'lead: [ok, allora]\ntail: [grazie, per favore]\ncancel: [cancella, annulla, ferma]\n',
      'replies.yaml': "timer.cancelled: 'Ho annullato il {timer}.'\ntimer.named: 'timer {name}'\n",
    };
    for (const [f, t] of Object.entries(files)) writeFileSync(join(dir, 'it', f), t);
    const it = loadPack('it', dir);
    expect(it.grammar.sentences.map((s) => s.intent)).toEqual(['timer.cancel']);
    expect(reply(it, 'timer.cancelled', { timer: 'timer pizza' })).toBe('Ho annullato il timer pizza.');
    // What it leaves out is said by its fallback, in the fallback's language.
    expect(reply(it, 'confirm.unclear')).toBe('Yes or no?');
    writeFileSync(join(dir, 'it', 'pack.yaml'), 'language: it\nname: Italiano\nvoice: it\n');
    expect(() => loadPack('it', dir)).toThrow(/it\/numbers\.yaml: is missing: every pack has this file \(or names a fallback in pack\.yaml\)/);
    writeFileSync(join(dir, 'it', 'pack.yaml'), 'language: it\nname: Italiano\nvoice: it\nfallback: it\n');
    expect(() => loadPack('it', dir)).toThrow('it/pack.yaml: fallback: "it" cannot be read: packs fall back on each other: it → it');
  });
});

describe('docs/languages.md', () => {
  it('its Italian example is a pack that loads', () => {
    const doc = readFileSync(join(PACKS_DIR, '..', 'docs', 'languages.md'), 'utf8');
    const blocks = [...doc.matchAll(/```yaml\n# packs\/it\/([a-z]+\.yaml)\n([\s\S]*?)```/g)];
    expect(blocks.map((b) => b[1])).toEqual(['pack.yaml', 'sentences.yaml', 'rules.yaml', 'replies.yaml']);
    const dir = mkdtempSync(join(tmpdir(), 'hark-packs-'));
    mkdirSync(join(dir, 'it'));
    mkdirSync(join(dir, 'en'));
    for (const f of readdirSync(join(PACKS_DIR, 'en'))) writeFileSync(join(dir, 'en', f), readFileSync(join(PACKS_DIR, 'en', f)));
    for (const b of blocks) writeFileSync(join(dir, 'it', b[1]!), b[2]!);
    const it = loadPack('it', dir);
    expect(it.grammar.sentences.map((s) => s.intent)).toEqual(['timer.start', 'timer.cancel', 'imperative.stop']);
    expect(reply(it, 'timer.set', { duration: '10 minutes' })).toBe('Timer impostato per 10 minutes.');
  });
});
