import { listName } from './say.js';
import type { Family, KitchenLanguage } from './kitchen.js';
import { english } from './pack/english.js';
import type { Language } from './pack/language.js';
import type { Imperative, Reading } from './requests.js';
import type { Situation } from './situation.js';
import type { Said } from './text.js';

/**
 * "Is this said to hark, and what does it ask?" on the language's side: one utterance, what hark
 * owns now, and the kitchen language in → what it asks. The router's kitchen and imperative rules,
 * the follow-up window and the interruption filter all ask here, so a line that cuts hark off is a
 * line the router acts on, and the other way round. Pure.
 */

/** The words to read, with where speech-to-text marked a pause and how each word was spelled. */
export interface HeardWords {
  words: string[];
  /** breaks[i]: a comma (or other pause mark) came after word i. */
  breaks: boolean[];
  /** spelled[i]: word i with its apostrophes ("bird's"), for what a free slot keeps. */
  spelled: string[];
  /** Some "'s" could be read either way: kept on its word (a possessive) or as "is". */
  eitherWay: boolean;
}

/**
 * The words, disfluencies out, and where speech-to-text marked a pause (a comma) after a word.
 * `'s` on a word is read as "is" ("how much time's left" → time is left) or, with `possessive`,
 * kept on its word ("bird's eye chillies"); "what's", "it's", "let's" stay fused either way
 * (whats, its, lets: the sentences spell them so).
 */
export function wordsOf(s: Said, possessive = false, lang: Language = english()): HeardWords {
  const DISFLUENT = lang.list('words', 'disfluent');
  const FUSED = lang.list('words', 'fused');
  // "'s" as "is" is English's clitic; a language without fused words has none.
  const clitic = lang.pack.words.fused.length > 0;
  const words: string[] = [];
  const breaks: boolean[] = [];
  const spelled: string[] = [];
  let eitherWay = false;
  s.words.forEach((w, i) => {
    const token = s.tokens[s.wordToken[i]!] ?? '';
    const lastOfToken = s.wordToken[i + 1] !== s.wordToken[i];
    const pause = lastOfToken && /[,;:]["')]?$/.test(token);
    if (DISFLUENT.has(w)) {
      if (breaks.length && pause) breaks[breaks.length - 1] = true;
      return;
    }
    const sp = s.spelled[i] ?? w;
    if (clitic && lastOfToken && /['’]s\W*$/i.test(token) && w.endsWith('s') && w.length > 2 && !FUSED.has(w.slice(0, -1))) {
      eitherWay = true;
      if (!possessive) {
        words.push(w.slice(0, -1), 'is');
        spelled.push(sp.replace(/'s$/, ''), 'is');
        breaks.push(false, pause);
        return;
      }
    }
    // The language's compounds split ("nudeltimer" → nudel timer); the pause stays after the last part.
    const parts = lang.splitCompounds([w]);
    parts.forEach((p, k) => {
      words.push(p);
      spelled.push(parts.length > 1 ? p : sp);
      breaks.push(k === parts.length - 1 ? pause : false);
    });
  });
  return { words, breaks, spelled, eitherWay };
}

/**
 * A timer or list request, or a follow-up when the situation has one to lean on. An "'s" is first
 * kept on its word, so "add bird's eye chillies to the list" is the chillies; only when that reads
 * as nothing is it "is" ("how much time's left on the rice").
 */
export function readRequest(lang: KitchenLanguage, s: Said, situation: Situation, families: readonly Family[] = ['timer', 'list']): Reading | null {
  // Each of the device's languages: the one whose reading explains the words best is the one they
  // were said in (a tie goes to the language speech-to-text named, else the first configured).
  let best: { reading: Reading; score: number; lang: string } | null = null;
  for (const k of heardFirst(lang, s)) {
    const r = requestIn(k, s, situation, families);
    if (r && (!best || r.score > best.score)) best = { ...r, lang: k.lang.code };
  }
  return best ? { ...best.reading, lang: best.lang } : null;
}

/** The device's languages, the one the words were heard in (when it is one of them) first. */
function heardFirst(lang: KitchenLanguage, s: Said): readonly KitchenLanguage[] {
  const heard = s.language ? lang.in(s.language) : undefined;
  return heard ? [heard, ...lang.each().filter((k) => k !== heard)] : lang.each();
}

function requestIn(lang: KitchenLanguage, s: Said, situation: Situation, families: readonly Family[]): { reading: Reading; score: number } | null {
  const kept = wordsOf(s, true, lang.lang);
  if (!kept.words.length) return null;
  const r = lang.readScored(kept.words, situation, families, kept);
  if (r || !kept.eitherWay) return r;
  const split = wordsOf(s, false, lang.lang);
  return lang.readScored(split.words, situation, families, split);
}

/**
 * The imperatives, when they are the whole of what was said: each sentence (and, when a
 * person corrects themself, each clause: "stop. actually continue", "repeat number 3. no, number
 * 5") must be one. In the order said; null when anything else was said.
 */
export function readImperatives(lang: KitchenLanguage, s: Said, situation: Situation): Imperative[] | null {
  for (const k of heardFirst(lang, s)) {
    const r = imperativesIn(k, s, situation);
    if (r) return r;
  }
  return null;
}

function imperativesIn(lang: KitchenLanguage, s: Said, situation: Situation): Imperative[] | null {
  const l = lang.lang;
  const disfluent = l.list('words', 'disfluent');
  const corrections = l.list('words', 'corrections');
  const number = l.list('words', 'number');
  const out: Imperative[] = [];
  for (const part of s.original.split(/[.!?;¡¿]+/)) {
    const words = part
      .toLowerCase()
      .replace(/[’']/g, '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w && !disfluent.has(w));
    if (!words.length) continue;
    const whole = one(lang, words, situation);
    if (whole) {
      out.push(whole);
      continue;
    }
    // Corrections split it: "stop actually continue", "no, number five".
    let clause: string[] = [];
    const clauses: string[][] = [];
    for (let i = 0; i < words.length; i++) {
      const n = corrections.at(words, i);
      if (n) {
        if (clause.length) clauses.push(clause);
        clause = [];
        i += n - 1;
      } else clause.push(words[i]!);
    }
    if (clause.length) clauses.push(clause);
    if (!clauses.length) return null;
    for (const c of clauses) {
      // A number alone after a repeat corrects its reference ("repeat number 3. no, number 5").
      const at = number.has(c[0]) ? 1 : 0;
      const n = l.readNumber(c, at);
      if (n && n.next === c.length && out.at(-1)?.name === 'repeat') {
        out.push({ name: 'repeat', reference: `number ${n.value}` });
        continue;
      }
      const i = one(lang, c, situation);
      if (!i) return null;
      out.push(i);
    }
  }
  return out.length ? out : null;
}

function one(lang: KitchenLanguage, words: readonly string[], situation: Situation): Imperative | null {
  const r = lang.read(words, situation, ['imperative']);
  return r?.kind === 'imperative' ? r.imperatives[0]! : null;
}

/**
 * Something hark owns, named in the words: a running timer ("the chips timer", "the brisket"), the
 * timers, a list ("the stores list"), the alarm while one rings. What a short reply names when the
 * words ask nothing hark can read ("I didn't get what to do with the chips timer"); null when they
 * name nothing of hark's. The words are read in `lang`; the thing is named in `say`'s words (the
 * language the reply is said in, when that is another: "el temporizador de pasta").
 */
export function ownedThing(s: Said, situation: Situation, lang: Language = english(), say: Language = lang): string | null {
  const w = wordsOf(s, false, lang).words;
  const notAName = lang.list('words', 'not_a_name');
  const alarm = lang.list('timers', 'alarm');
  const timerWord = lang.list('timers', 'owned_words');
  const plural = lang.list('timers', 'plural');
  const listWord = lang.list('lists', 'list_words');
  for (let i = 0; i < w.length; i++) {
    for (const t of situation.timers) {
      const label = t.label?.split(' ');
      if (label && label.every((x, k) => w[i + k] === x)) return say.phrase('owned.timer', { name: t.label });
    }
  }
  if (situation.ringing && w.some((x) => alarm.has(x))) return say.phrase('owned.alarm');
  const i = w.findIndex((x) => timerWord.has(x));
  if (i >= 0) {
    const before = w[i - 1];
    const named = before && !notAName.has(before) ? before : undefined;
    if (!named && situation.timers.length === 1 && situation.timers[0]!.label) return say.phrase('owned.timer', { name: situation.timers[0]!.label });
    if (named) return say.phrase('owned.timer', { name: named });
    return say.phrase(plural.has(w[i]) ? 'owned.timers' : 'owned.a_timer');
  }
  const l = w.findIndex((x) => listWord.has(x));
  if (l >= 0) {
    const name = situation.lists.map((x) => x.name).find((n) => n.split(' ').every((x, k, all) => w[l - all.length + k] === x));
    if (name) return say.phrase('owned.list', { name: listName(name, say) });
    const before = w[l - 1];
    return before && !notAName.has(before) ? say.phrase('owned.list', { name: before }) : say.phrase('owned.a_list');
  }
  return null;
}
