import { nounGender } from './items.js';
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

/**
 * 0..9999 in words ("forty two", "one hundred and five"); other numbers, and a language without
 * words for them, stay digits. `gender`: the number goes before a noun of that gender and agrees
 * with it, as numbers.yaml `say.genders` says ("veintiún limones", "una cebolla"); `grammaticalCase`:
 * in the case a reply asks for, as `say.cases` says ("einen Kasten"; the gender's own form where the
 * case has none). A form keyed "-eins" is the number's end ("hunderteins" → "hundertundeine").
 */
export function numberWords(n: number, lang: Language = english(), gender?: string, grammaticalCase?: string): string {
  const say = lang.pack.numbers.say;
  if (!say || !Number.isInteger(n) || n < 0 || n > 9999) return String(n);
  const words = inWords(n, say);
  if (gender === undefined) return words;
  const forms: Record<string, string> = { ...say.genders[gender], ...(grammaticalCase !== undefined ? say.cases[grammaticalCase]?.[gender] : undefined) };
  const ends = Object.keys(forms)
    .filter((k) => k.startsWith('-'))
    .sort((a, b) => b.length - a.length);
  const parts = words.split(' ');
  return parts
    .map((w, i) => {
      if (forms[w] !== undefined) return forms[w];
      const end = i === parts.length - 1 ? ends.find((k) => w.endsWith(k.slice(1)) && w !== k.slice(1)) : undefined;
      return end ? w.slice(0, w.length - end.length + 1) + forms[end]! : w;
    })
    .join(' ');
}

type Say = NonNullable<Language['pack']['numbers']['say']>;

function inWords(n: number, say: Say): string {
  const { ones, tens, space } = say;
  if (n < ones.length) return ones[n]!;
  if (n < 100) {
    const t = tens[Math.floor(n / 10)]!;
    const u = n % 10;
    if (!u) return t;
    if (!say.units_first) return `${t}${say.tens_join}${ones[u]}`;
    return `${u === 1 && say.compound_one ? say.compound_one : ones[u]}${say.tens_join}${t}`;
  }
  const rest = (r: number, joined: boolean) => (r ? `${joined && say.and ? `${space}${say.and}` : ''}${space}${inWords(r, say)}` : '');
  if (n < 1000) {
    const h = Math.floor(n / 100);
    if (n === 100 && say.hundred_alone) return say.hundred_alone;
    const head = say.hundreds ? say.hundreds[h]! : `${h === 1 && say.compound_one ? say.compound_one : ones[h]}${space}${say.hundred}`;
    return head + rest(n % 100, true);
  }
  const k = Math.floor(n / 1000);
  const head =
    k === 1 && say.thousand_alone ? say.thousand_alone : `${k === 1 && say.compound_one ? say.compound_one : inWords(k, say)}${space}${say.thousand}`;
  return head + rest(n % 1000, n % 1000 < 100);
}

/** Whole numbers standing alone become words; decimals ("1.5") and codes ("A3") stay as written. */
export function spokenNumbers(text: string, lang: Language = english()): string {
  return text.replace(/(?<![\w.])\d{1,4}(?![\w.])/g, (d) => numberWords(Number(d), lang));
}

/** "3 cases of milk" / 3, "cases", "milk" → "three cases of milk"; no quantity → the item alone. `grammaticalCase`: as numberWords. */
export function sayQuantity(item: string, quantity?: number, unit?: string, lang: Language = english(), grammaticalCase?: string): string {
  if (quantity === undefined) return item;
  const q = Number.isInteger(quantity) ? numberWords(quantity, lang, nounGender(item, unit, lang), grammaticalCase) : String(quantity);
  return unit ? lang.phrase('item.measured', { quantity: q, unit, item }) : lang.phrase('item.counted', { quantity: q, item });
}
