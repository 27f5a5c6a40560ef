import { english } from './pack/english.js';
import type { Language } from './pack/language.js';

/**
 * Numbers as hark says them back. The model writes digits ("3 cases of milk", which is what the
 * records keep), but a question read aloud should sound like the person said it: "Add three cases
 * of milk to the order list?". espeak-ng reads digits too; words keep the text tests and logs
 * show identical to what is heard. The words are the pack's (numbers.yaml `say`); a language
 * without them is said in digits, which espeak-ng reads in its voice's language. On the language
 * floor: the list actions' replies (src/command) and the intent pass's proposals (src/intent)
 * both say numbers this way.
 */

/** 0..9999 in words ("forty two", "one hundred and five"); other numbers, and a language without words for them, stay digits. */
export function numberWords(n: number, lang: Language = english()): string {
  const say = lang.pack.numbers.say;
  if (!say || !Number.isInteger(n) || n < 0 || n > 9999) return String(n);
  const { ones, tens } = say;
  if (n < 20) return ones[n]!;
  if (n < 100) return tens[Math.floor(n / 10)]! + (n % 10 ? ` ${ones[n % 10]}` : '');
  if (n < 1000) return `${ones[Math.floor(n / 100)]} ${say.hundred}` + (n % 100 ? ` ${say.and} ${numberWords(n % 100, lang)}` : '');
  return `${numberWords(Math.floor(n / 1000), lang)} ${say.thousand}` + (n % 1000 ? `${n % 1000 < 100 ? ` ${say.and}` : ''} ${numberWords(n % 1000, lang)}` : '');
}

/** Whole numbers standing alone become words; decimals ("1.5") and codes ("A3") stay as written. */
export function spokenNumbers(text: string, lang: Language = english()): string {
  return text.replace(/(?<![\w.])\d{1,4}(?![\w.])/g, (d) => numberWords(Number(d), lang));
}

/** "3 cases of milk" / 3, "cases", "milk" → "three cases of milk"; no quantity → the item alone. */
export function sayQuantity(item: string, quantity?: number, unit?: string, lang: Language = english()): string {
  if (quantity === undefined) return item;
  const q = Number.isInteger(quantity) ? numberWords(quantity, lang) : String(quantity);
  return unit ? lang.phrase('item.measured', { quantity: q, unit, item }) : lang.phrase('item.counted', { quantity: q, item });
}
