import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { durationReader } from '../../src/language/pack/durations.js';
import { loadPack } from '../../src/language/pack/files.js';
import { languageOf } from '../../src/language/pack/language.js';
import { numberReader } from '../../src/language/pack/numbers.js';
import { readDurationAt } from '../../src/language/readers.js';
import { numberWords } from '../../src/language/spoken.js';
import { said } from '../../src/language/text.js';
import { loadCases } from '../kitchen/ha-cases.js';
import { readDuration, readNumber } from './reference/english-before.js';

/**
 * Numbers and durations read from a pack's words. English read from packs/en reads exactly what
 * the English readers written in code read (reference/english-before.ts, as they were before the
 * packs), at every word of every line hark is tested on; Spanish and
 * German read their own forms ("treinta y cinco", "fünfundzwanzig", "una hora y media",
 * "anderthalb Stunden") with no code of their own.
 */
const packs = Object.fromEntries(['en', 'es', 'de'].map((l) => [l, loadPack(l)])) as Record<'en' | 'es' | 'de', ReturnType<typeof loadPack>>;
const readers = (l: 'en' | 'es' | 'de') => {
  const n = numberReader(packs[l].numbers);
  return { n, d: durationReader(packs[l].durations, n) };
};

/** Every line the language is tested on: the phrasing corpus, Home Assistant's sentences, and durations said many ways. */
function lines(): string[] {
  const dir = new URL('./corpus/', import.meta.url);
  const out = readdirSync(dir)
    .filter((f) => f.endsWith('.txt'))
    .flatMap((f) => readFileSync(join(dir.pathname, f), 'utf8').split('\n'))
    .map((l) => l.replace(/^\[[^\]]*\]/, '').split('=>')[0]!)
    .filter((l) => l.trim() && !l.startsWith('#') && !l.startsWith('@'));
  const amounts = [
    'a',
    'an',
    'one',
    'two',
    '2',
    'ten',
    'twenty five',
    'one hundred and twenty',
    '1.5',
    '1/2',
    'half',
    'a half',
    'a quarter',
    'three quarters',
    'a couple',
    'a couple of',
    'another',
    'an extra',
    'five more',
    'a couple more',
  ];
  const units = ['minute', 'minutes', 'hour', 'hours', 'second', 'secs', 'hr', 'm'];
  const tails = [
    '',
    'and a half',
    'and half',
    'and 1/2',
    'and a quarter',
    'and three quarters',
    'and 30 seconds',
    '15 minutes',
    'more',
    'longer',
    'no five minutes',
    'of an hour',
    'an hour',
  ];
  for (const a of amounts) for (const u of units) for (const t of tails) out.push(`${a} ${u} ${t}`, `${a} of a ${u} ${t}`, `${a} an ${u} ${t}`);
  out.push(
    '1:30',
    '1:30 minutes',
    '1:02:03',
    'half an hour',
    'half hour',
    'a half hour',
    '1/2 an hour',
    'quarter hour',
    'a quarter of an hour',
    'three quarters of an hour',
    'an hour and a half',
    'one hour, 15 minutes, and 30 seconds',
  );
  return [...out, ...loadCases().map((c) => c.sentence)];
}

describe('English from packs/en reads what the English readers written in code read', () => {
  const { n, d } = readers('en');
  const all = lines().map((l) => said(l).words);

  it('every number from 0 to 9999 in words, and at every word of every test line', () => {
    for (let v = 0; v <= 9999; v++) {
      const w = said(numberWords(v)).words;
      expect(n(w, 0)).toEqual(readNumber(w, 0));
    }
    let compared = 0;
    for (const w of all) for (let i = 0; i < w.length; i++, compared++) expect(n(w, i), `${w.join(' ')} @${i}`).toEqual(readNumber(w, i));
    expect(compared).toBeGreaterThan(20_000);
  });

  it('every duration at every word of every test line, and how hark says one back', () => {
    let found = 0;
    for (const w of all) {
      for (let i = 0; i < w.length; i++) {
        const want = readDuration(w, i);
        expect(d.read(w, i), `${w.join(' ')} @${i}`).toEqual(want);
        if (want) found++;
      }
    }
    expect(found).toBeGreaterThan(2000);
    const said: [number, string][] = [
      [0, '0 seconds'],
      [1, '1 second'],
      [59, '59 seconds'],
      [60, '1 minute'],
      [61, '1 minute and 1 second'],
      [90, '1 minute and 30 seconds'],
      [3600, '1 hour'],
      [3661, '1 hour, 1 minute and 1 second'],
      [5400, '1 hour and 30 minutes'],
      [86_399, '23 hours, 59 minutes and 59 seconds'],
    ];
    for (const [s, text] of said) expect(d.say(s)).toBe(text);
    expect(d.measure(300)).toBe('5 minute');
  });
});

describe('Spanish and German numbers and durations, from their packs alone', () => {
  it('Spanish: "treinta y cinco", "ciento veinte", "doscientos cuarenta y dos", "mil"', () => {
    const { n } = readers('es');
    const read = (t: string) => n(said(t).words, 0);
    expect(read('treinta y cinco')).toEqual({ value: 35, next: 3 });
    expect(read('ciento veinte')).toEqual({ value: 120, next: 2 });
    expect(read('doscientos cuarenta y dos')).toEqual({ value: 242, next: 4 });
    expect(read('veinticinco')).toEqual({ value: 25, next: 1 });
    expect(read('dos mil quinientos')).toEqual({ value: 2500, next: 3 });
    expect(read('mil')).toEqual({ value: 1000, next: 1 });
    // "y" that joins two things is not part of a number: "cinco y seis" is 5, then more.
    expect(read('cinco y seis')).toEqual({ value: 5, next: 1 });
    expect(read('treinta y')).toEqual({ value: 30, next: 1 });
    expect(read('una')).toBeNull();
  });

  it('German: compounds split by the pack ("fünfundzwanzig", "hundertzwanzig", "zweieinhalb"), "ein" only inside one', () => {
    const { n } = readers('de');
    const read = (t: string) => n(said(t).words, 0);
    expect(read('fünfundzwanzig')).toEqual({ value: 25, next: 1 });
    expect(read('fünf und zwanzig')).toEqual({ value: 25, next: 3 });
    expect(read('hundertzwanzig')).toEqual({ value: 120, next: 1 });
    expect(read('einhundertfünfundzwanzig')).toEqual({ value: 125, next: 1 });
    expect(read('zweihundertdreißig')).toEqual({ value: 230, next: 1 });
    expect(read('dreitausend')).toEqual({ value: 3000, next: 1 });
    expect(read('einundzwanzig')).toEqual({ value: 21, next: 1 });
    expect(read('zweieinhalb')).toEqual({ value: 2.5, next: 1 });
    expect(read('anderthalb')).toEqual({ value: 1.5, next: 1 });
    expect(read('ein')).toBeNull();
    expect(read('achtung')).toBeNull();
    expect(read('einen')).toBeNull();
  });

  it('Spanish and German say every number from 0 to 9999 in words that their own reader reads back', () => {
    for (const l of ['es', 'de'] as const) {
      const lang = languageOf(packs[l]);
      const { n } = readers(l);
      for (let v = 0; v <= 9999; v++) {
        const text = numberWords(v, lang);
        expect(text, `${l} ${v}`).not.toMatch(/\d/);
        const w = said(text).words;
        expect(n(w, 0), `${l} ${v}: ${text}`).toEqual({ value: v, next: w.length });
      }
    }
    const es = languageOf(packs.es);
    const de = languageOf(packs.de);
    expect([3, 21, 35, 100, 101, 242, 1000, 2005].map((v) => numberWords(v, es))).toEqual([
      'tres',
      'veintiuno',
      'treinta y cinco',
      'cien',
      'ciento uno',
      'doscientos cuarenta y dos',
      'mil',
      'dos mil cinco',
    ]);
    expect([3, 21, 35, 100, 101, 242, 1000, 2005].map((v) => numberWords(v, de))).toEqual([
      'drei',
      'einundzwanzig',
      'fünfunddreißig',
      'einhundert',
      'einhunderteins',
      'zweihundertzweiundvierzig',
      'eintausend',
      'zweitausendfünf',
    ]);
  });

  it('durations in each language', () => {
    const cases: [lang: 'es' | 'de', text: string, seconds: number][] = [
      ['es', 'diez minutos', 600],
      ['es', 'una hora y media', 5400],
      ['es', 'dos horas y cuarto', 8100],
      ['es', 'media hora', 1800],
      ['es', 'medio minuto', 30],
      ['es', 'un cuarto de hora', 900],
      ['es', 'tres cuartos de hora', 2700],
      ['es', 'una hora y tres cuartos', 6300],
      ['es', 'un par de minutos', 120],
      ['es', '1 hora 15 minutos y 30 segundos', 4530],
      ['es', 'treinta y cinco segundos', 35],
      ['de', 'zehn Minuten', 600],
      ['de', 'eine halbe Stunde', 1800],
      ['de', 'anderthalb Stunden', 5400],
      ['de', 'zweieinhalb Minuten', 150],
      ['de', 'eine Viertelstunde', 900],
      ['de', 'eine Dreiviertelstunde', 2700],
      ['de', 'dreiviertel Stunde', 2700],
      ['de', 'eine Stunde und dreißig Minuten', 5400],
      ['de', 'ein paar Minuten', 120],
      ['de', 'fünfundzwanzig Minuten', 1500],
    ];
    for (const [lang, text, seconds] of cases) {
      const w = said(text).words;
      expect(readers(lang).d.read(w, 0), `${lang}: ${text}`).toEqual({ seconds, next: w.length });
    }
    const more = (lang: 'es' | 'de', text: string) => readDurationAt(said(text).words, 0, languageOf(packs[lang]));
    expect(more('es', 'otros cinco minutos')).toEqual({ value: { seconds: 300, more: true }, end: 3 });
    expect(more('es', 'cinco minutos más')).toEqual({ value: { seconds: 300, more: true }, end: 3 });
    expect(more('es', 'diez minutos no cinco minutos')).toEqual({ value: { seconds: 300, more: false }, end: 5 });
    // One correction logic for every language: the unit carries over, and a number cut short is the duration after it.
    expect(more('es', 'diez minutos no cinco')).toEqual({ value: { seconds: 300, more: false }, end: 4 });
    expect(more('de', 'zwanzig nein fünfundzwanzig Minuten')).toEqual({ value: { seconds: 1500, more: false }, end: 4 });
    expect(more('de', 'noch fünf Minuten')).toEqual({ value: { seconds: 300, more: true }, end: 3 });
    expect(more('de', 'fünf Minuten länger')).toEqual({ value: { seconds: 300, more: true }, end: 3 });
    expect(readers('es').d.say(3723)).toBe('1 hora, 2 minutos y 3 segundos');
    expect(readers('de').d.say(120)).toBe('2 Minuten');
  });
});

describe('a pack made ready to read with', () => {
  it('holds its word lists normalised as speech is, finds phrases in words, and splits the compounds it declares', () => {
    const en = languageOf(packs.en);
    const yes = en.list('words', 'yes');
    expect(yes.has('yes') && yes.has('yeah') && !yes.has('thats')).toBe(true);
    expect(yes.phrases).toContainEqual(['thats', 'right']);
    expect(en.list('words', 'backchannels').phrases).toContainEqual(['uh', 'huh']);
    expect(en.list('words', 'corrections').at(['i', 'mean', 'five'], 0)).toBe(2);
    expect(en.splitCompounds(['pizzatimer'])).toEqual(['pizzatimer']);
    const de = languageOf(packs.de);
    expect(de.splitCompounds(['stell', 'den', 'nudeltimer', 'auf', 'die', 'einkaufsliste'])).toEqual([
      'stell',
      'den',
      'nudel',
      'timer',
      'auf',
      'die',
      'einkaufs',
      'liste',
    ]);
    // A word that only ends like one is left alone when the stem would be too short.
    expect(de.splitCompounds(['timer', 'liste'])).toEqual(['timer', 'liste']);
    expect(de.reply('timer.set', { name: 'nudel', duration: de.durations.say(480) })).toBe('Nudel-Timer auf 8 Minuten gestellt.');
    expect(languageOf(packs.es).reply('list.added', { items: 'leche', list: 'compra' })).toBe('He añadido leche a la lista de compra.');
  });
});
