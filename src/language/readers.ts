import { itemKeyIn, readItemList, readItems, type ItemAmount, type ItemList } from './items.js';
import type { SlotMatch, SlotReader } from './match.js';
import type { Language } from './pack/language.js';
import type { Situation } from './situation.js';
import { readTimerRef, type TimerRef } from './timer-ref.js';

/**
 * The slot readers of the kitchen language: what `{duration}`, `{timer}`, `{name}`, `{items}`,
 * `{list}`, `{command}` ... in a template can read, and what each span is worth. A reader that
 * knows what hark owns (the running timers, the lists) scores a known name nearly as high as a
 * literal word, and free text low, so the template that explains the most words wins. Pure.
 */
export interface ReadContext {
  situation: Situation;
  /** The language read in: its words (packs/<lang>/). */
  lang: Language;
  /** breaks[i]: a comma (or other pause mark) came after word i, as speech-to-text wrote it. */
  breaks: readonly boolean[];
  /** spelled[i]: word i with its apostrophes ("bird's"); absent: the words as they are. */
  spelled?: readonly string[];
}

/**
 * Words at..end as they were spelled: what an item keeps ("bird's eye chillies"). A timer's name
 * stays in the matching form, the form every later mention of it is compared in.
 */
function spelling(words: readonly string[], at: number, end: number, ctx: ReadContext): string[] {
  return (ctx.spelled ?? words).slice(at, end);
}

export interface DurationValue {
  seconds: number;
  /** Said as more time: "five more minutes", "another ten minutes", "a minute extra". */
  more: boolean;
}

/**
 * A duration at i, in the context's language, with more time around it ("another", "a couple
 * more", "more" / "extra" / "longer": durations.yaml another and more) and a spoken correction
 * ("ten minutes, no, five minutes"; corrections, and the corrects among them that make one).
 */
export function readDurationAt(words: readonly string[], at: number, lang: Language): { value: DurationValue; end: number } | null {
  const d = lang.durations;
  const another = lang.list('durations', 'another');
  const moreWords = lang.list('durations', 'more');
  const one = lang.list('durations', 'one');
  const couple = lang.list('durations', 'couple');
  const corrections = lang.list('durations', 'corrections');
  const unitOf = (w: string | undefined) => (w !== undefined && Object.hasOwn(lang.pack.durations.units, w) ? lang.pack.durations.units[w]! : null);
  let i = at;
  let more = false;
  if (another.has(words[i])) {
    more = true;
    i++;
  } else if (one.has(words[i]) && another.has(words[i + 1])) {
    more = true;
    i += 2;
  }
  let seconds: number;
  let end: number;
  const unit = unitOf(words[i]);
  const pair = one.has(words[i]) && couple.has(words[i + 1]) && moreWords.has(words[i + 2]) ? unitOf(words[i + 3]) : null;
  if (pair !== null) {
    // "a couple more minutes"
    seconds = 2 * pair;
    end = i + 4;
    more = true;
  } else if (more && unit !== null) {
    // "another minute"
    seconds = unit;
    end = i + 1;
  } else {
    // "twenty, no, twenty-five minutes": a number cut short by a correction is the duration said after it.
    const m = d.read(words, i) ?? clippedCorrection(words, i, lang);
    if (!m || m.seconds <= 0) return null;
    seconds = m.seconds;
    end = m.next;
    if (words.slice(i, end).some((w) => moreWords.has(w))) more = true;
  }
  while (moreWords.has(words[end])) {
    more = true;
    end++;
  }
  // "ten minutes, no, five minutes" (or "..., no, five": the unit carries over): the last duration said wins.
  for (let j = end; j < words.length && j - end < 3 && corrections.has(words[j]);) {
    j++;
    if (!correctionAt(words, end, j, lang)) continue;
    const m = d.read(words, j) ?? sameUnit(words, j, unitOf(words[end - 1]), lang);
    if (m && m.seconds > 0) {
      seconds = m.seconds;
      end = m.next;
      j = end;
    }
  }
  return { value: { seconds, more }, end };
}

/** Words from..to are a correction ("no", "sorry", "i mean", "make it", ...), not only filler like "that". */
function correctionAt(words: readonly string[], from: number, to: number, lang: Language): boolean {
  const said = words.slice(from, to);
  const corrections = lang.list('durations', 'corrections');
  const corrects = lang.list('durations', 'corrects');
  return said.length > 0 && said.every((w) => corrections.has(w)) && said.some((w) => corrects.has(w));
}

/**
 * "twenty, no, twenty-five minutes", "35 no 40 minutes": a bare number, a correction, then a
 * duration; the duration is what was meant. Only when a duration follows: "two burgers no onion"
 * or "twenty, no" alone is not one.
 */
function clippedCorrection(words: readonly string[], at: number, lang: Language): { seconds: number; next: number } | null {
  const n = lang.readNumber(words, at);
  if (!n) return null;
  for (let j = n.next + 1; j <= n.next + 3 && j < words.length; j++) {
    if (!correctionAt(words, n.next, j, lang)) continue;
    const d = lang.durations.read(words, j);
    if (d) return d;
  }
  return null;
}

/** A bare number read in the unit of the duration it corrects ("ten minutes, no, five"). */
function sameUnit(words: readonly string[], at: number, unit: number | null, lang: Language): { seconds: number; next: number } | null {
  const n = unit === null ? null : lang.readNumber(words, at);
  return n && unit !== null ? { seconds: Math.round(n.value * unit), next: n.next } : null;
}

const duration: SlotReader<ReadContext> = (words, at, ctx) => {
  const d = readDurationAt(words, at, ctx.lang);
  return d ? [{ end: d.end, value: d.value, weight: 0.9 * (d.end - at) }] : [];
};

/** Only a duration said as more time ("five more minutes", "another ten minutes"). */
const more: SlotReader<ReadContext> = (words, at, ctx) => duration(words, at, ctx).filter((m) => (m.value as DurationValue).more);

/** A new length for the timer just set: a duration, or a bare number read as minutes ("make it ten", "make it ten, no, twelve"). */
const length: SlotReader<ReadContext> = (words, at, ctx) => {
  const d = readDurationAt(words, at, ctx.lang);
  if (d) return [{ end: d.end, value: d.value, weight: 0.9 * (d.end - at) }];
  const first = ctx.lang.readNumber(words, at);
  let n = first;
  for (let j = (first?.next ?? 0) + 1; first && j <= first.next + 3 && j < words.length; j++) {
    const again = correctionAt(words, first.next, j, ctx.lang) ? ctx.lang.readNumber(words, j) : null;
    if (again) {
      n = again;
      break;
    }
  }
  return n && n.value > 0 ? [{ end: n.next, value: { seconds: Math.round(n.value * 60), more: false }, weight: 0.6 }] : [];
};

const number: SlotReader<ReadContext> = (words, at, ctx) => {
  const n = ctx.lang.readNumber(words, at);
  return n ? [{ end: n.next, value: n.value, weight: 0.9 * (n.next - at) }] : [];
};

const timer: SlotReader<ReadContext> = (words, at, ctx) => readTimerRef(words, at, ctx.situation, ctx.lang);

/**
 * Several timers ("todos mis temporizadores", "los temporizadores de la cocina"): a timer reference
 * that names more than one, worth a little more than the same words read by `{timer}`, so a
 * language can give a verb one meaning for one timer and another for several (Spanish "para el
 * temporizador" pauses it, "para los temporizadores" stops them).
 */
const timers: SlotReader<ReadContext> = (words, at, ctx) =>
  readTimerRef(words, at, ctx.situation, ctx.lang)
    .filter((m) => (m.value as TimerRef).all)
    .map((m) => ({ ...m, weight: m.weight + 0.05 }));

/** A name for a new timer ("pizza", "pork belly", "check the oven"): one to four words. */
const name: SlotReader<ReadContext> = (words, at, { lang }) => {
  const out: SlotMatch[] = [];
  const edge = lang.list('timers', 'name_edge');
  const never = lang.list('timers', 'new_name_never');
  if (edge.has(words[at])) return out;
  for (let end = at + 1; end <= Math.min(words.length, at + 4); end++) {
    const w = words[end - 1]!;
    if (never.has(w) || Object.hasOwn(lang.pack.durations.units, w) || lang.readNumber(words, end - 1) || /^\d/.test(w)) break;
    if (edge.has(w)) continue;
    out.push({ end, value: words.slice(at, end).join(' '), weight: 0.3 * (end - at) });
  }
  return out;
};

/**
 * One or more items with their quantities, as many as are said: "three lemons", "basil, shallots,
 * double cream and capers", a cook's whole order. A part that is not an item is kept as unread
 * (the request names it back) and worth less, so a reading that explains it wins. The words an
 * item never holds, starts or ends with are the language's (lists.yaml).
 */
const items: SlotReader<ReadContext> = (words, at, ctx) => {
  const out: SlotMatch[] = [];
  const { lang } = ctx;
  const edge = lang.list('lists', 'item_edge');
  const never = lang.list('lists', 'item_never');
  if ((edge.has(words[at]) && !lang.list('lists', 'item_start').has(words[at])) || lang.list('lists', 'not_an_item').has(words[at])) return out;
  for (let end = at + 1; end <= words.length; end++) {
    const w = words[end - 1]!;
    if (never.has(w)) break;
    if (edge.has(w)) continue;
    const read = readItemList(spelling(words, at, end, ctx), ctx.breaks.slice(at, end), lang);
    if (!read) continue;
    const unreadWords = read.unread.reduce((n, u) => n + u.split(' ').length, 0);
    out.push({ end, value: read satisfies ItemList, weight: 0.3 * (end - at - unreadWords) + 0.05 * unreadWords });
  }
  return out;
};

export interface KnownItem {
  item: ItemAmount;
  list: string;
}

/** An item already on one of the lists ("take the lemons off"): which list it is on. */
const knownItem: SlotReader<ReadContext> = (words, at, ctx) => {
  const out: SlotMatch[] = [];
  for (let end = at + 1; end <= Math.min(words.length, at + 5); end++) {
    const read = readItems(words.slice(at, end), [], ctx.lang);
    if (!read || read.length !== 1) continue;
    const key = itemKeyIn(read[0]!.item, ctx.lang);
    const list = ctx.situation.lists.find((l) => l.items.some((i) => itemKeyIn(i, ctx.lang) === key));
    if (list) out.push({ end, value: { item: read[0]!, list: list.name } satisfies KnownItem, weight: 0.9 * (end - at) });
  }
  return out;
};

/**
 * A list's name: said before the word "list" ("shopping", "stores", "trader joes") or, where the
 * language puts it there, after it ("la lista de la COMPRA"); a name the pack maps to a list is
 * that list ("compra" is shopping).
 */
const list: SlotReader<ReadContext> = (words, at, ctx) => {
  const out: SlotMatch[] = [];
  const { lang } = ctx;
  const never = lang.list('lists', 'name_never');
  const listWord = lang.list('lists', 'list_words');
  // Where only "before" is said, a name must be followed by the word for a list; after it, the template places it.
  const before = !lang.pack.lists.list_name.includes('after');
  for (let end = at + 1; end <= Math.min(words.length, at + 3); end++) {
    if (never.has(words[end - 1]) || listWord.has(words[end - 1])) break;
    if (before && !listWord.has(words[end])) continue;
    const n = listId(lang, words.slice(at, end).join(' '));
    const known = ctx.situation.lists.some((l) => l.name === n);
    out.push({ end, value: n, weight: (known ? 0.9 : 0.5) * (end - at) });
  }
  return out;
};

/**
 * A list hark keeps, named without the word for a list ("añade manzanas a Mercadona"): only a list
 * that exists, so "añade sal a la sopa" is never a list called "sopa".
 */
const knownList: SlotReader<ReadContext> = (words, at, ctx) => {
  const out: SlotMatch[] = [];
  for (let end = at + 1; end <= Math.min(words.length, at + 3); end++) {
    const n = listId(ctx.lang, words.slice(at, end).join(' '));
    if (ctx.situation.lists.some((l) => l.name === n)) out.push({ end, value: n, weight: 0.9 * (end - at) });
  }
  return out;
};

/** The list a name said in this language is ("compra" → shopping); a name the pack does not map is its own list. */
export function listId(lang: Language, said: string): string {
  return Object.hasOwn(lang.pack.lists.names, said) ? lang.pack.lists.names[said]! : said;
}

/** Words to run later, starting with one of the language's command verbs ("open the garage door"); a statement ("the fish will be ready") is not one. */
const command: SlotReader<ReadContext> = (words, at, { lang }) => {
  const out: SlotMatch[] = [];
  // "remind me to ...", "tell me when ...": a reminder for the person, a timer (timer.start), never words to run later.
  if (!lang.list('timers', 'command_verbs').has(words[at]) || lang.list('timers', 'command_not_before').has(words[at + 1])) return out;
  const ends = lang.list('timers', 'free_text_ends');
  for (let end = at + 2; end <= Math.min(words.length, at + 14); end++) {
    const w = words[end - 1]!;
    if (ends.has(w)) break;
    out.push({ end, value: words.slice(at, end).join(' '), weight: 0.2 * (end - at) });
  }
  return out;
};

/** What to be reminded of ("check the oven", "turn the oven off"): a timer's name, up to eight words. */
const reminder: SlotReader<ReadContext> = (words, at, { lang }) => {
  const out: SlotMatch[] = [];
  if (lang.list('timers', 'name_edge').has(words[at])) return out;
  for (let end = at + 1; end <= Math.min(words.length, at + 8); end++) {
    const w = words[end - 1]!;
    if (lang.list('timers', 'free_text_ends').has(w) || (lang.list('timers', 'reminder_until').has(w) && readDurationAt(words, end, lang))) break;
    out.push({ end, value: words.slice(at, end).join(' '), weight: 0.3 * (end - at) });
  }
  return out;
};

export const READERS: ReadonlyMap<string, SlotReader<ReadContext>> = new Map([
  ['duration', duration],
  ['more', more],
  ['length', length],
  ['number', number],
  ['timer', timer],
  ['timers', timers],
  ['name', name],
  ['reminder', reminder],
  ['items', items],
  ['known_item', knownItem],
  ['list', list],
  ['known_list', knownList],
  ['command', command],
]);
