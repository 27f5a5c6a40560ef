import { english } from './pack/english.js';
import type { Language } from './pack/language.js';

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

/** "a dozen", "half a dozen", "a couple of", "two dozen", "one and a half" at i (lists.yaml counts): the count and the index after it. */
function countAt(w: readonly string[], i: number, lang: Language): { n: number; next: number } | null {
  for (const c of countsOf(lang)) if (c.words.every((x, k) => w[i + k] === x)) return { n: c.n, next: i + c.words.length };
  const n = lang.readNumber(w, i);
  if (!n) return null;
  // "two dozen eggs"
  const times =
    w[n.next] !== undefined && Object.hasOwn(lang.pack.lists.count_multipliers, w[n.next]!) ? lang.pack.lists.count_multipliers[w[n.next]!]! : undefined;
  if (times !== undefined) return { n: n.value * times, next: n.next + 1 };
  // "one and a half kilos"
  const f = fractionAfter(w, n.next, lang);
  if (f) return { n: n.value + f.value, next: f.next };
  return { n: n.value, next: n.next };
}

const counts = new WeakMap<Language, { words: string[]; n: number }[]>();

/** The language's counting phrases, longest first ("half a dozen" before "a dozen"), split once. */
function countsOf(lang: Language): { words: string[]; n: number }[] {
  let c = counts.get(lang);
  if (!c)
    counts.set(
      lang,
      (c = Object.entries(lang.pack.lists.counts)
        .map(([p, n]) => ({ words: p.split(' '), n }))
        .sort((a, b) => b.words.length - a.words.length)),
    );
  return c;
}

/** "and a half" at i, as the pack's lists.yaml fractions say it: its value and the index after it. */
function fractionAfter(w: readonly string[], i: number, lang: Language): { value: number; next: number } | null {
  for (const [p, value] of Object.entries(lang.pack.lists.fractions)) {
    const ws = p.split(' ');
    if (ws.every((x, k) => w[i + k] === x)) return { value, next: i + ws.length };
  }
  return null;
}

/** One item's words → item, quantity, unit. Null when no item word is left. */
export function readItem(words: readonly string[], lang: Language = english()): ItemAmount | null {
  const one = lang.list('lists', 'one');
  const of = lang.list('lists', 'of');
  const articles = lang.list('lists', 'articles');
  const vague = lang.list('lists', 'vague');
  const after = lang.list('lists', 'after_count');
  const countWords = (w: readonly string[], i: number) => countAt(w, i, lang);
  let i = 0;
  let quantity: number | undefined;
  let unit: string | undefined;
  // "a case of milk", "a bag of flour": one of a unit.
  if (one.has(words[0]) && words.length > 3 && of.has(words[2]) && !countWords(words, 0)) {
    quantity = 1;
    unit = words[1];
    i = 3;
  } else {
    // "un limón", "eine Zwiebel": where the article is the number one, it counts.
    const countedOne = lang.list('lists', 'counted_one');
    while (i < words.length - 1 && articles.has(words[i]) && !countWords(words, i) && !countedOne.has(words[i])) i++;
    const c = countWords(words, i) ?? (countedOne.has(words[i]) ? { n: 1, next: i + 1 } : null);
    if (c && c.next < words.length) {
      quantity = c.n;
      i = c.next;
      if (after.has(words[i])) i++;
      if (of.has(words[i + 1]) && i + 2 < words.length) {
        unit = words[i];
        i += 2;
      } else if (lang.list('lists', 'measures').has(words[i]) && i + 1 < words.length) {
        unit = words[i];
        i++;
      }
    }
  }
  while (i < words.length - 1 && (vague.has(words[i]) || of.has(words[i]) || articles.has(words[i]))) i++;
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
export function readItems(words: readonly string[], breakAfter: readonly boolean[] = [], lang: Language = english()): ItemAmount[] | null {
  const read = readItemList(words, breakAfter, lang);
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
export function readItemList(words: readonly string[], breakAfter: readonly boolean[] = [], lang: Language = english()): ItemList | null {
  const items: ItemAmount[] = [];
  const unread: string[] = [];
  for (const p of itemParts(words, breakAfter, lang)) {
    const it = readItem(p, lang);
    if (it) items.push(it);
    else unread.push(p.join(' '));
  }
  return items.length && unread.length <= items.length ? { items, unread } : null;
}

function itemParts(words: readonly string[], breakAfter: readonly boolean[], lang: Language): string[][] {
  const joiners = lang.list('lists', 'joiners');
  const parts: string[][] = [];
  let cur: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    // "one and a half kilos" is one amount, not two items.
    const fraction = i > 0 && lang.readNumber(words, i - 1)?.next === i && fractionAfter(words, i, lang) !== null;
    const joiner = joiners.has(w) && !fraction;
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

/**
 * The gender of the noun a number is said before (lists.yaml `gender`): the unit when there is
 * one ("una caja de leche"), else the item's head word ("una cebolla", "eine Zwiebel"). Undefined
 * where the pack has no genders (English).
 */
export function nounGender(item: string, unit: string | undefined, lang: Language): string | undefined {
  const g = lang.pack.lists.gender;
  if (!g) return undefined;
  const words = (unit ?? item).toLowerCase().split(/\s+/).filter(Boolean);
  const head = (g.head === 'last' ? words.at(-1) : words[0]) ?? '';
  for (const w of [head, singular(head, lang)]) {
    const known = g.nouns[w] ?? g.nouns[w.normalize('NFD').replace(/\p{M}/gu, '')];
    if (known) return known;
  }
  const one = singular(head, lang);
  return g.endings.find((e) => one.endsWith(e.ends) || head.endsWith(e.ends))?.is ?? g.default;
}

/** A word's singular by the pack's endings, for telling "lemon" and "lemons" apart from nothing more (not a dictionary). */
function singular(w: string, lang: Language): string {
  const l = lang.pack.lists;
  if (w.length < l.singular_min_letters) return w;
  for (const r of l.singular) {
    if (!w.endsWith(r.ends)) continue;
    // An ending the rule keeps ("glass", "hummus") is not a plural.
    if (r.keep.some((k) => w.endsWith(k))) return w;
    return w.slice(0, w.length - r.ends.length) + r.becomes;
  }
  return w;
}

/**
 * What makes two lines on a list the same item: "the Milk " and "milk", "lemon" and "lemons",
 * "tomatoes" and "tomato", "bird's eye chillies" and "birds eye chillies". Only the last word is made singular ("bags of flour" is never an item:
 * the unit is kept apart).
 */
export function itemKey(item: string): string {
  return itemKeyIn(item, english());
}

/** The same, by a language's articles and plurals. */
export function itemKeyIn(item: string, lang: Language): string {
  const articles = lang.list('lists', 'articles');
  const w = item
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean);
  while (w.length > 1 && articles.has(w[0])) w.shift();
  if (w.length) w[w.length - 1] = singular(w[w.length - 1]!, lang);
  return w.join(' ');
}
