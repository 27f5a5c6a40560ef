import { english } from './pack/english.js';
import type { NumberMatch } from './pack/numbers.js';

/**
 * Spoken numbers as speech-to-text writes them, for callers that read English with nothing else
 * known (a repeat's "number 3", the intent pass): digits ("90", "1.5") or words ("ninety",
 * "twenty five", "one hundred and twenty"), read by packs/en's number words. A language's own
 * reader is its pack's (Language.readNumber).
 */
export type { NumberMatch };

/** Read a number starting at words[i]; null when words[i] does not start one. */
export function readNumber(words: readonly string[], i: number): NumberMatch | null {
  return english().readNumber(words, i);
}

/** Digits or words to a number, or null if the whole text is not one number. */
export function parseNumber(words: readonly string[]): number | null {
  const m = readNumber(words, 0);
  return m && m.next === words.length ? m.value : null;
}
