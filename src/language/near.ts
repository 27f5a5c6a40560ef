import { english } from './pack/english.js';

/**
 * The `near` rule kind: an exit phrase matched tolerantly, so that leaving a narrow frame (dictation)
 * does not depend on one exact transcript. Speech-to-text mishears short commands in predictable
 * ways: a vowel ("and dictation" for "end dictation"), an ending ("end dictating"), a small word
 * added ("end the dictation", "end dictation mode"), a lead-in ("okay, end dictation").
 *
 * The rule, on normalised words (lower case, no punctuation):
 *
 * 1. Words in `skip` (the rule's lead-ins such as "okay", "please", "the", plus router.fillers
 *    such as "uh") are dropped wherever they are.
 * 2. What is left must line up with one of the phrases, word by word, in order, every phrase word
 *    present: the same word costs 0; a near word costs 1; a word that is not in the phrase costs 1.
 *    Phrase words may not go missing ("dictation" alone is not "end dictation").
 * 3. The cheapest phrase wins if it costs at most `maxEdits` (default 1).
 *
 * A near word is one within a few letters (Levenshtein) of the phrase word, scaled to its length:
 * none for words of 1-2 letters, 1 for 3-5 letters ("and"/"end", "stop"/"step"), 2 for 6 or more
 * ("dictating"/"dictation"). Short words get less slack because one letter turns them into
 * something else entirely.
 *
 * Anchoring: the whole utterance must be the phrase give or take maxEdits words, so with the
 * default an utterance of at most phrase-length + 1 real words can match. A dictated sentence that
 * mentions "dictation" in passing is far longer, and a two-word fragment such as "and dictation
 * software" (a pause can cut a sentence there) costs 2 and stays text.
 */

export interface NearOptions {
  /** Word-level edits allowed: a near word or an extra word each cost 1. */
  maxEdits: number;
  /** Words ignored wherever they are (lead-ins, fillers). */
  skip: { has(word: string): boolean };
}

export interface NearMatch {
  /** The phrase matched, words joined by spaces. */
  phrase: string;
  edits: number;
}

export const DEFAULT_NEAR_MAX_EDITS = 1;
export const MAX_NEAR_EDITS = 3;

/**
 * Lead-ins and tails people put around a command, and the little words ASR adds or drops inside it
 * (packs/en words.yaml near_skip). Deliberately not "and" (the usual mishearing of "end") nor
 * "stop"/"end" themselves.
 */
export const DEFAULT_NEAR_SKIP: readonly string[] = english().pack.words.near_skip;

/** Letters of slack for a phrase word of this length. */
export function charSlack(length: number): number {
  return length <= 2 ? 0 : length <= 5 ? 1 : 2;
}

/** Levenshtein distance, giving up (returning max + 1) as soon as it must exceed `max`. */
export function charDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1));
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

const NO = Number.POSITIVE_INFINITY;

/** Cost of hearing `heard` where the phrase has `want`: 0 same, 1 near, never otherwise. */
function wordCost(want: string, heard: string): number {
  if (want === heard) return 0;
  const slack = charSlack(want.length);
  return slack > 0 && charDistance(want, heard, slack) <= slack ? 1 : NO;
}

/** Cheapest alignment of the phrase onto all of `words` (no phrase word dropped). */
function cost(phrase: readonly string[], words: readonly string[], maxEdits: number): number {
  const m = phrase.length;
  const n = words.length;
  if (n < m || n - m > maxEdits) return NO;
  // dp[j]: cost of phrase[0..i) against words[0..j)
  let prev = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    const cur = new Array<number>(n + 1).fill(NO);
    for (let j = i; j <= n; j++) {
      cur[j] = Math.min(cur[j - 1]! + 1, prev[j - 1]! + wordCost(phrase[i - 1]!, words[j - 1]!));
    }
    prev = cur;
  }
  return prev[n]!;
}

/**
 * The phrase `words` (an utterance's normalised words) stands for, or null. Phrases are lists of
 * normalised words; the first of the cheapest wins.
 */
export function nearPhrase(words: readonly string[], phrases: readonly (readonly string[])[], opts: NearOptions): NearMatch | null {
  const kept: string[] = [];
  for (const w of words) if (!opts.skip.has(w)) kept.push(w);
  if (kept.length === 0) return null;
  let best: NearMatch | null = null;
  for (const p of phrases) {
    const c = cost(p, kept, opts.maxEdits);
    if (c <= opts.maxEdits && (best === null || c < best.edits)) {
      best = { phrase: p.join(' '), edits: c };
      if (c === 0) break;
    }
  }
  return best;
}
