import type { Said } from '../language/text.js';
import type { HearKey, PickWords } from './words.js';

/**
 * What a picker's words are, read without acting: a command ("say again"), a string of digits and
 * letters (check digits, an operator number: "four seven", "forty-seven" and "4 7" are all "47";
 * "alpha one two" is "A12"), or a quantity (one number: "twelve", "12"), in the words of one
 * language (its picking.yaml and numbers.yaml). The dialogue decides which
 * of them the step it is at takes.
 */
export interface Reading {
  /** The words without fillers, as one normalised string. */
  norm: string;
  command: HearKey | null;
  /** Digits and letters, when every word reads as some. */
  code: string | null;
  /** A whole number, when the words are one. */
  number: number | null;
}

export function read(said: Said, words: PickWords): Reading {
  const kept = said.words.filter((w) => !words.fillers.has(w));
  const norm = kept.join(' ');
  const whole = words.readNumber(kept, 0);
  const number = whole && whole.next === kept.length ? whole.value : null;
  return {
    norm,
    command: words.command(norm),
    code: readCode(kept, words),
    number: number !== null && Number.isInteger(number) && number >= 0 ? number : null,
  };
}

/** Digits and spelling-alphabet letters, in order; null when a word is neither. */
export function readCode(ws: readonly string[], words: PickWords): string | null {
  if (!ws.length) return null;
  let out = '';
  let repeat = false;
  for (let i = 0; i < ws.length;) {
    const w = ws[i]!;
    let piece: string | undefined;
    let next = i + 1;
    const two = i + 1 < ws.length ? `${w} ${ws[i + 1]}` : undefined;
    if (two !== undefined && words.letters.has(two)) {
      piece = words.letters.get(two);
      next = i + 2;
    } else if (words.letters.has(w)) piece = words.letters.get(w);
    else if (words.double.has(w)) {
      if (repeat) return null;
      repeat = true;
      i++;
      continue;
    } else if (/^\d+$/.test(w)) piece = w;
    // As an engine may write a slot's code: "a12", "12b".
    else if (/^[a-z0-9]+$/.test(w) && /\d/.test(w)) piece = w.toUpperCase();
    // One digit a word ("four seven", "zero eight", "oh", "niner"): the digits table, first, as
    // the number reader would make "zero eight" 8.
    else if (words.digits.has(w)) piece = words.digits.get(w);
    else {
      // A spoken number of more than one digit: "forty seven", "twelve".
      const n = words.readNumber(ws, i);
      if (n && Number.isInteger(n.value)) {
        piece = String(n.value);
        next = n.next;
      }
    }
    if (piece === undefined) return null;
    if (repeat) {
      // "double four" is "44"; "double" before a longer number means nothing sure.
      if (piece.length !== 1) return null;
      piece = piece + piece;
      repeat = false;
    }
    out += piece;
    i = next;
  }
  return repeat || !out ? null : out;
}
