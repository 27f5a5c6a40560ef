/**
 * Spoken numbers as speech-to-text writes them: digits ("90", "1.5") or words ("ninety",
 * "twenty five", "one hundred and twenty"). Works on normalised words (see router/text.ts).
 */
const UNITS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
  ten: 10, eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16,
  seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20, thirty: 30, forty: 40, fourty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
};

export interface NumberMatch {
  value: number;
  /** Index of the first word after the number. */
  next: number;
}

/**
 * Read a number starting at words[i]. "a"/"an" are not numbers here (the duration parser decides
 * when "an hour" means one). Returns null when words[i] does not start a number.
 */
export function readNumber(words: readonly string[], i: number): NumberMatch | null {
  const first = words[i];
  if (first === undefined) return null;
  if (/^\d+(\.\d+)?$/.test(first)) return { value: Number(first), next: i + 1 };
  // "1/2", "3/4" as some engines write a spoken fraction.
  const frac = /^(\d+)\/(\d+)$/.exec(first);
  if (frac && Number(frac[2]) > 0) return { value: Number(frac[1]) / Number(frac[2]), next: i + 1 };
  let total = 0;
  let current = 0;
  let j = i;
  let any = false;
  for (;;) {
    const w = words[j];
    if (w === undefined) break;
    if (w in UNITS) {
      // "twenty five" adds; "five five" is two numbers, so stop at a second unit.
      if (any && current % 10 !== 0) break;
      if (any && current >= 10 && current < 20) break;
      current += UNITS[w]!;
    } else if (w in TENS) {
      if (any && current % 100 !== 0) break;
      current += TENS[w]!;
    } else if (w === 'hundred' && any) {
      current = (current || 1) * 100;
    } else if (w === 'thousand' && any) {
      total += (current || 1) * 1000;
      current = 0;
    } else if (w === 'and' && any && (current % 100 === 0 || total > 0) && current > 0 && isNumberWord(words[j + 1])) {
      // "one hundred and twenty": "and" belongs to the number only after hundred/thousand.
    } else {
      break;
    }
    any = true;
    j++;
  }
  if (!any) return null;
  return { value: total + current, next: j };
}

function isNumberWord(w: string | undefined): boolean {
  return w !== undefined && (w in UNITS || w in TENS);
}

/** Digits or words to a number, or null if the whole text is not one number. */
export function parseNumber(words: readonly string[]): number | null {
  const m = readNumber(words, 0);
  return m && m.next === words.length ? m.value : null;
}
