import { readNumber } from './numbers.js';

/**
 * Things on a list, as people say them: "three lemons", "2 kilos of onions", "a case of milk",
 * "a dozen eggs", "some parsley", "double cream". An item is kept as the item and its quantity
 * (and unit), never as one string, so "take the lemons off" finds "three lemons" and a read-back
 * says them the same way whichever path added them (the rules or the model). Pure.
 */
export interface ItemAmount {
  item: string;
  quantity?: number;
  unit?: string;
}

/** Words that say how much without a number: dropped from the item ("some parsley" → parsley). */
const VAGUE = new Set(['some', 'more', 'any', 'extra', 'few', 'bit', 'lot', 'lots', 'load', 'loads', 'bunch']);
const ARTICLES = new Set(['a', 'an', 'the', 'some', 'more', 'any', 'extra', 'another']);
/** Units that need no "of" after them ("2 kilos onions", "500 grams butter"). */
const MEASURES = new Set(['kilo', 'kilos', 'kg', 'kgs', 'gram', 'grams', 'g', 'litre', 'litres', 'liter', 'liters', 'l', 'ml', 'pound', 'pounds', 'lb', 'lbs', 'ounce', 'ounces', 'oz', 'pint', 'pints', 'gallon', 'gallons']);

/** "a dozen", "half a dozen", "a couple of", "a pair of" at i: the count and the index after it. */
function countWords(w: readonly string[], i: number): { n: number; next: number } | null {
  if (w[i] === 'half' && w[i + 1] === 'a' && w[i + 2] === 'dozen') return { n: 6, next: i + 3 };
  if ((w[i] === 'a' || w[i] === 'one') && w[i + 1] === 'dozen') return { n: 12, next: i + 2 };
  if (w[i] === 'dozen') return { n: 12, next: i + 1 };
  if (w[i] === 'a' && (w[i + 1] === 'couple' || w[i + 1] === 'pair')) return { n: 2, next: w[i + 2] === 'of' ? i + 3 : i + 2 };
  if (w[i] === 'half' && (w[i + 1] === 'a' || w[i + 1] === 'an')) return { n: 0.5, next: i + 2 };
  const n = readNumber(w, i);
  if (!n) return null;
  // "two dozen eggs"
  if (w[n.next] === 'dozen') return { n: n.value * 12, next: n.next + 1 };
  // "one and a half kilos"
  if (w[n.next] === 'and' && w[n.next + 1] === 'a' && w[n.next + 2] === 'half') return { n: n.value + 0.5, next: n.next + 3 };
  return { n: n.value, next: n.next };
}

/** One item's words → item, quantity, unit. Null when no item word is left. */
export function readItem(words: readonly string[]): ItemAmount | null {
  let i = 0;
  let quantity: number | undefined;
  let unit: string | undefined;
  // "a case of milk", "a bag of flour": one of a unit.
  if ((words[0] === 'a' || words[0] === 'an') && words.length > 3 && words[2] === 'of' && !countWords(words, 0)) {
    quantity = 1;
    unit = words[1];
    i = 3;
  } else {
    while (i < words.length - 1 && ARTICLES.has(words[i]!) && !countWords(words, i)) i++;
    const c = countWords(words, i);
    if (c && c.next < words.length) {
      quantity = c.n;
      i = c.next;
      if (words[i] === 'more' || words[i] === 'extra') i++;
      if (words[i + 1] === 'of' && i + 2 < words.length) {
        unit = words[i];
        i += 2;
      } else if (MEASURES.has(words[i]!) && i + 1 < words.length) {
        unit = words[i];
        i++;
      }
    }
  }
  while (i < words.length - 1 && (VAGUE.has(words[i]!) || words[i] === 'of' || ARTICLES.has(words[i]!))) i++;
  // An amount comes before the thing: words before a number are a sentence, not an item ("short three cases").
  for (let k = i + 1; k < words.length; k++) if (/^\d/.test(words[k]!) || countWords(words, k)?.next === k + 1) return null;
  const item = words.slice(i).join(' ');
  if (!item) return null;
  return { item, ...(quantity !== undefined ? { quantity } : {}), ...(unit ? { unit } : {}) };
}

/**
 * Several items in one breath: "basil, shallots, double cream and capers", "three lemons and 2
 * kilos of onions". Split at the commas speech-to-text wrote (`breakAfter[i]`: a comma came after
 * word i) and at "and" / "plus"; "one and a half" stays a number. Null unless every part is an item.
 */
export function readItems(words: readonly string[], breakAfter: readonly boolean[] = []): ItemAmount[] | null {
  const read = readItemList(words, breakAfter);
  return read && !read.unread.length ? read.items : null;
}

/** A list as said: the items read, and the parts that could not be read as one ("shallots 2 kilos"), as said. */
export interface ItemList {
  items: ItemAmount[];
  unread: string[];
}

/**
 * A list said in one breath, read as far as it can be: every part that is an item, and the parts
 * that are not, kept to be named back, so a cook's long order is never lost for one garbled part.
 * Null when no more parts read than not (then it is not a list of things at all).
 */
export function readItemList(words: readonly string[], breakAfter: readonly boolean[] = []): ItemList | null {
  const items: ItemAmount[] = [];
  const unread: string[] = [];
  for (const p of itemParts(words, breakAfter)) {
    const it = readItem(p);
    if (it) items.push(it);
    else unread.push(p.join(' '));
  }
  return items.length && unread.length <= items.length ? { items, unread } : null;
}

function itemParts(words: readonly string[], breakAfter: readonly boolean[]): string[][] {
  const parts: string[][] = [];
  let cur: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    // "one and a half kilos" is one amount, not two items.
    const fraction = (words[i + 1] === 'half' || (words[i + 1] === 'a' && words[i + 2] === 'half')) && i > 0 && readNumber(words, i - 1)?.next === i;
    const joiner = (w === 'and' || w === 'plus' || w === 'also') && !fraction;
    if (joiner) {
      if (cur.length) parts.push(cur);
      cur = [];
      continue;
    }
    cur.push(w);
    if (breakAfter[i]) {
      parts.push(cur);
      cur = [];
    }
  }
  if (cur.length) parts.push(cur);
  return parts;
}

/** "lemons" / "3 lemons", "2 kilos of onions": how an item is said back. */
export function itemPhrase(i: { item: string; quantity?: number | null; unit?: string | null }): string {
  if (i.quantity === undefined || i.quantity === null) return i.item;
  const q = String(i.quantity);
  return i.unit ? `${q} ${i.unit} of ${i.item}` : `${q} ${i.item}`;
}

/** A word's singular, for telling "lemon" and "lemons" apart from nothing more (not a dictionary). */
function singular(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith('ies')) return w.slice(0, -3) + 'y';
  if (/(?:ches|shes|sses|xes|zes|oes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us') && !w.endsWith('is')) return w.slice(0, -1);
  return w;
}

/**
 * What makes two lines on a list the same item: "the Milk " and "milk", "lemon" and "lemons",
 * "tomatoes" and "tomato", "bird's eye chillies" and "birds eye chillies". Only the last word is made singular ("bags of flour" is never an item:
 * the unit is kept apart).
 */
export function itemKey(item: string): string {
  const w = item.toLowerCase().replace(/['’]/g, '').replace(/[^\p{L}\p{N}\s]/gu, ' ').trim().split(/\s+/).filter(Boolean);
  while (w.length > 1 && ARTICLES.has(w[0]!)) w.shift();
  if (w.length) w[w.length - 1] = singular(w[w.length - 1]!);
  return w.join(' ');
}
