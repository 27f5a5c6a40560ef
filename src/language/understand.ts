import type { Family, KitchenLanguage } from './kitchen.js';
import { readNumber } from './numbers.js';
import type { Imperative, Reading } from './requests.js';
import type { Situation } from './situation.js';
import type { Said } from './text.js';

/**
 * "Is this said to hark, and what does it ask?" on the language's side: one utterance, what hark
 * owns now, and the kitchen language in → what it asks. The router's kitchen and imperative rules,
 * the follow-up window and the interruption filter all ask here, so a line that cuts hark off is a
 * line the router acts on, and the other way round. Pure.
 */

/** Words said in a pause that carry nothing ("uh", "um"): taken out before reading. */
const DISFLUENT = new Set(['um', 'umm', 'uh', 'uhh', 'er', 'erm', 'hmm', 'hm', 'mm']);

/** Words whose "'s" the sentences spell fused ("what's" is whats, "it's" is its): left as they are. */
const FUSED = new Set(['what', 'how', 'when', 'where', 'who', 'that', 'it', 'there', 'here', 'let', 'he', 'she']);

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
export function wordsOf(s: Said, possessive = false): HeardWords {
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
    if (lastOfToken && /['’]s\W*$/i.test(token) && w.endsWith('s') && w.length > 2 && !FUSED.has(w.slice(0, -1))) {
      eitherWay = true;
      if (!possessive) {
        words.push(w.slice(0, -1), 'is');
        spelled.push(sp.replace(/'s$/, ''), 'is');
        breaks.push(false, pause);
        return;
      }
    }
    words.push(w);
    spelled.push(sp);
    breaks.push(pause);
  });
  return { words, breaks, spelled, eitherWay };
}

/**
 * A timer or list request, or a follow-up when the situation has one to lean on. An "'s" is first
 * kept on its word, so "add bird's eye chillies to the list" is the chillies; only when that reads
 * as nothing is it "is" ("how much time's left on the rice").
 */
export function readRequest(lang: KitchenLanguage, s: Said, situation: Situation, families: readonly Family[] = ['timer', 'list']): Reading | null {
  const kept = wordsOf(s, true);
  if (!kept.words.length) return null;
  const r = lang.read(kept.words, situation, families, kept);
  if (r || !kept.eitherWay) return r;
  const split = wordsOf(s);
  return lang.read(split.words, situation, families, split);
}

const CORRECTIONS = new Set(['actually', 'no', 'sorry', 'wait', 'or', 'rather', 'instead', 'nope']);

/**
 * Seed 000's imperatives, when they are the whole of what was said: each sentence (and, when a
 * person corrects themself, each clause: "stop. actually continue", "repeat number 3. no, number
 * 5") must be one. In the order said; null when anything else was said.
 */
export function readImperatives(lang: KitchenLanguage, s: Said, situation: Situation): Imperative[] | null {
  const out: Imperative[] = [];
  for (const part of s.original.split(/[.!?;]+/)) {
    const words = part.toLowerCase().replace(/[’']/g, '').split(/[^\p{L}\p{N}]+/u).filter((w) => w && !DISFLUENT.has(w));
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
      const mean = words[i] === 'i' && words[i + 1] === 'mean';
      if (CORRECTIONS.has(words[i]!) || mean) {
        if (clause.length) clauses.push(clause);
        clause = [];
        if (mean) i++;
      } else clause.push(words[i]!);
    }
    if (clause.length) clauses.push(clause);
    if (!clauses.length) return null;
    for (const c of clauses) {
      // A number alone after a repeat corrects its reference ("repeat number 3. no, number 5").
      const at = c[0] === 'number' ? 1 : 0;
      const n = readNumber(c, at);
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
 * name nothing of hark's.
 */
const NOT_A_NAME = new Set(['the', 'a', 'an', 'my', 'that', 'this', 'your', 'our', 'any', 'all', 'whats', 'what', 'on', 'of', 'to', 'is', 'its', 'which', 'whose', 'second', 'minute', 'hour', 'seconds', 'minutes', 'hours', 'min', 'mins', 'new', 'last']);

export function ownedThing(s: Said, situation: Situation): string | null {
  const w = wordsOf(s).words;
  const has = (x: string) => w.includes(x);
  for (let i = 0; i < w.length; i++) {
    for (const t of situation.timers) {
      const label = t.label?.split(' ');
      if (label && label.every((x, k) => w[i + k] === x)) return `the ${t.label} timer`;
    }
  }
  if (situation.ringing && (has('alarm') || has('ringing') || has('beeping') || has('ring') || has('noise') || has('timer'))) return 'the alarm';
  if (has('timer') || has('timers') || has('countdown')) {
    const i = w.findIndex((x) => x === 'timer' || x === 'timers' || x === 'countdown');
    const before = w[i - 1];
    const named = before && !NOT_A_NAME.has(before) ? `${before} ` : '';
    if (!named && situation.timers.length === 1 && situation.timers[0]!.label) return `the ${situation.timers[0]!.label} timer`;
    return `the ${named}${w[i] === 'timers' ? 'timers' : 'timer'}`;
  }
  const l = w.findIndex((x) => x === 'list' || x === 'lists');
  if (l >= 0) {
    const name = situation.lists.map((x) => x.name).find((n) => n.split(' ').every((x, k, all) => w[l - all.length + k] === x));
    if (name) return `the ${name} list`;
    const before = w[l - 1];
    return before && !NOT_A_NAME.has(before) ? `the ${before} list` : 'the list';
  }
  return null;
}
