import { readDuration, unitSeconds } from './duration.js';
import { itemKey, readItemList, readItems, type ItemAmount, type ItemList } from './items.js';
import type { SlotMatch, SlotReader } from './match.js';
import { readNumber } from './numbers.js';
import type { Situation } from './situation.js';
import { readTimerRef } from './timer-ref.js';

/**
 * The slot readers of the kitchen language: what `{duration}`, `{timer}`, `{name}`, `{items}`,
 * `{list}`, `{command}` ... in a template can read, and what each span is worth. A reader that
 * knows what hark owns (the running timers, the lists) scores a known name nearly as high as a
 * literal word, and free text low, so the template that explains the most words wins. Pure.
 */
export interface ReadContext {
  situation: Situation;
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

const CORRECTIONS = new Set(['no', 'sorry', 'actually', 'mean', 'i', 'rather', 'or', 'wait', 'make', 'that', 'it']);
/** Among them, the words that make it a correction ("that" or "it" alone do not). */
const CORRECTS = new Set(['no', 'sorry', 'actually', 'mean', 'rather', 'or', 'wait', 'make']);
const UNITS = new Set(['second', 'seconds', 'sec', 'secs', 'minute', 'minutes', 'min', 'mins', 'hour', 'hours', 'hr', 'hrs']);

/** A duration at i, with "another", "a couple more", "more"/"extra"/"longer" around it, and a spoken correction ("ten minutes, no, five minutes"). */
export function readDurationAt(words: readonly string[], at: number): { value: DurationValue; end: number } | null {
  let i = at;
  let more = false;
  if (words[i] === 'another' || words[i] === 'extra') {
    more = true;
    i++;
  } else if (words[i] === 'an' && words[i + 1] === 'extra') {
    more = true;
    i += 2;
  }
  let seconds: number;
  let end: number;
  const unit = UNITS.has(words[i]!) ? readDuration(['1', words[i]!], 0) : null;
  const couple = words[i] === 'a' && words[i + 1] === 'couple' && words[i + 2] === 'more' && UNITS.has(words[i + 3]!) ? readDuration(['2', words[i + 3]!], 0) : null;
  if (couple) {
    // "a couple more minutes"
    seconds = couple.seconds;
    end = i + 4;
    more = true;
  } else if (more && unit) {
    // "another minute"
    seconds = unit.seconds;
    end = i + 1;
  } else {
    // "twenty, no, twenty-five minutes": a number cut short by a correction is the duration said after it.
    const d = readDuration(words, i) ?? clippedCorrection(words, i);
    if (!d || d.seconds <= 0) return null;
    seconds = d.seconds;
    end = d.next;
    if (words.slice(i, end).includes('more') || words.slice(i, end).includes('extra')) more = true;
  }
  while (words[end] === 'more' || words[end] === 'extra' || words[end] === 'longer') {
    more = true;
    end++;
  }
  // "ten minutes, no, five minutes" (or "..., no, five": the unit carries over): the last duration said wins.
  for (let j = end; j < words.length && j - end < 3 && CORRECTIONS.has(words[j]!); ) {
    j++;
    if (!correctionAt(words, end, j)) continue;
    const d = readDuration(words, j) ?? sameUnit(words, j, unitSeconds(words[end - 1]));
    if (d && d.seconds > 0) {
      seconds = d.seconds;
      end = d.next;
      j = end;
    }
  }
  return { value: { seconds, more }, end };
}

/** Words from..to are a correction ("no", "sorry", "i mean", "make it", ...), not only filler like "that". */
function correctionAt(words: readonly string[], from: number, to: number): boolean {
  const said = words.slice(from, to);
  return said.length > 0 && said.every((w) => CORRECTIONS.has(w)) && said.some((w) => CORRECTS.has(w));
}

/**
 * "twenty, no, twenty-five minutes", "35 no 40 minutes": a bare number, a correction, then a
 * duration; the duration is what was meant. Only when a duration follows: "two burgers no onion"
 * or "twenty, no" alone is not one.
 */
function clippedCorrection(words: readonly string[], at: number): { seconds: number; next: number } | null {
  const n = readNumber(words, at);
  if (!n) return null;
  for (let j = n.next + 1; j <= n.next + 3 && j < words.length; j++) {
    if (!correctionAt(words, n.next, j)) continue;
    const d = readDuration(words, j);
    if (d) return d;
  }
  return null;
}

/** A bare number read in the unit of the duration it corrects ("ten minutes, no, five"). */
function sameUnit(words: readonly string[], at: number, unit: number | null): { seconds: number; next: number } | null {
  const n = unit === null ? null : readNumber(words, at);
  return n && unit !== null ? { seconds: Math.round(n.value * unit), next: n.next } : null;
}

const duration: SlotReader<ReadContext> = (words, at) => {
  const d = readDurationAt(words, at);
  return d ? [{ end: d.end, value: d.value, weight: 0.9 * (d.end - at) }] : [];
};

/** Only a duration said as more time ("five more minutes", "another ten minutes"). */
const more: SlotReader<ReadContext> = (words, at, ctx) => duration(words, at, ctx).filter((m) => (m.value as DurationValue).more);

/** A new length for the timer just set: a duration, or a bare number read as minutes ("make it ten", "make it ten, no, twelve"). */
const length: SlotReader<ReadContext> = (words, at) => {
  const d = readDurationAt(words, at);
  if (d) return [{ end: d.end, value: d.value, weight: 0.9 * (d.end - at) }];
  const first = readNumber(words, at);
  let n = first;
  for (let j = (first?.next ?? 0) + 1; first && j <= first.next + 3 && j < words.length; j++) {
    const again = correctionAt(words, first.next, j) ? readNumber(words, j) : null;
    if (again) {
      n = again;
      break;
    }
  }
  return n && n.value > 0 ? [{ end: n.next, value: { seconds: Math.round(n.value * 60), more: false }, weight: 0.6 }] : [];
};

const number: SlotReader<ReadContext> = (words, at) => {
  const n = readNumber(words, at);
  return n ? [{ end: n.next, value: n.value, weight: 0.9 * (n.next - at) }] : [];
};

const timer: SlotReader<ReadContext> = (words, at, ctx) => readTimerRef(words, at, ctx.situation);

/** Words never in a new timer's name. */
const NAME_NEVER = new Set(['timer', 'timers', 'countdown', 'named', 'called', 'labelled', 'labeled', 'please', 'thanks', 'and', ...UNITS]);
/** Words a name never starts or ends with (they belong to the sentence around it). */
const NAME_EDGE = new Set(['a', 'an', 'the', 'my', 'our', 'your', 'for', 'to', 'on', 'of', 'in', 'at', 'by', 'with', 'me', 'us', 'it', 'this', 'that', 'off', 'from', 'and', 'again', 'now']);

/** A name for a new timer ("pizza", "pork belly", "check the oven"): one to four words. */
const name: SlotReader<ReadContext> = (words, at) => {
  const out: SlotMatch[] = [];
  if (NAME_EDGE.has(words[at]!)) return out;
  for (let end = at + 1; end <= Math.min(words.length, at + 4); end++) {
    const w = words[end - 1]!;
    if (NAME_NEVER.has(w) || readNumber(words, end - 1) || /^\d/.test(w)) break;
    if (NAME_EDGE.has(w)) continue;
    out.push({ end, value: words.slice(at, end).join(' '), weight: 0.3 * (end - at) });
  }
  return out;
};

/** Words an item list never holds: they belong to the sentence ("to the list", "put it on"). */
const ITEMS_NEVER = new Set(['list', 'lists', 'timer', 'timers', 'it', 'them', 'please', 'onto', 'into']);
const ITEMS_EDGE = new Set(['to', 'on', 'off', 'from', 'and', 'of', 'the', 'a', 'an', 'is', 'are', 'that', 'this', 'was', 'we', 'you', 'i', 'so', 'for', 'in', 'with', 'me', 'us']);

/** Words an item never starts with: a sentence about someone, not a thing ("we're short three cases"). */
const NOT_AN_ITEM = new Set([
  ...'were we i im you youre they theyre it its is are was there theres thats he she hes shes can could should will would have has had do does did not dont'.split(' '),
  // a question or a request to hark is never an item ("read out what's on the prep list")
  ...'what whats how hows who whos when whens where which why read tell show go run check anything everything nothing something'.split(' '),
]);

/**
 * One or more items with their quantities, as many as are said: "three lemons", "basil, shallots,
 * double cream and capers", a cook's whole order. A part that is not an item is kept as unread
 * (the request names it back) and worth less, so a reading that explains it wins.
 */
const items: SlotReader<ReadContext> = (words, at, ctx) => {
  const out: SlotMatch[] = [];
  if ((ITEMS_EDGE.has(words[at]!) && words[at] !== 'the' && words[at] !== 'a' && words[at] !== 'an') || NOT_AN_ITEM.has(words[at]!)) return out;
  for (let end = at + 1; end <= words.length; end++) {
    const w = words[end - 1]!;
    if (ITEMS_NEVER.has(w)) break;
    if (ITEMS_EDGE.has(w)) continue;
    const read = readItemList(spelling(words, at, end, ctx), ctx.breaks.slice(at, end));
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
    const read = readItems(words.slice(at, end));
    if (!read || read.length !== 1) continue;
    const key = itemKey(read[0]!.item);
    const list = ctx.situation.lists.find((l) => l.items.some((i) => itemKey(i) === key));
    if (list) out.push({ end, value: { item: read[0]!, list: list.name } satisfies KnownItem, weight: 0.9 * (end - at) });
  }
  return out;
};

const LIST_NEVER = new Set(['the', 'my', 'our', 'a', 'an', 'your', 'to', 'on', 'onto', 'from', 'off', 'in', 'into', 'of', 'whats', 'what', 'is', 'me', 'us', 'read', 'tell', 'list', 'lists', 'it', 'for', 'and', 'that', 'this', 'back', 'out', 'through', 'over', 'go', 'run', 'everything', 'clear', 'add', 'put', 'new', 'whole', 'entire']);

/** A list's name, said before the word "list": "shopping", "stores", "trader joes". */
const list: SlotReader<ReadContext> = (words, at, ctx) => {
  const out: SlotMatch[] = [];
  for (let end = at + 1; end <= Math.min(words.length, at + 3); end++) {
    if (LIST_NEVER.has(words[end - 1]!)) break;
    if (words[end] !== 'list' && words[end] !== 'lists') continue;
    const n = words.slice(at, end).join(' ');
    const known = ctx.situation.lists.some((l) => l.name === n);
    out.push({ end, value: n, weight: (known ? 0.9 : 0.5) * (end - at) });
  }
  return out;
};

/** The verbs a command for later starts with ("in 5 minutes, open the garage door"); a statement ("the fish will be ready") is not one. */
const COMMAND_VERBS = new Set(
  'open close shut turn switch start stop check call ring remind tell take put bring get lock unlock play feed water flip stir baste pull send text let move run wash clean empty fill drain serve plate heat cool chill defrost preheat light dim mute unmute pause resume set cancel add read announce say remove lower raise'.split(' '),
);

const command: SlotReader<ReadContext> = (words, at) => {
  const out: SlotMatch[] = [];
  // "remind me to ...", "tell me when ...": a reminder for the person, a timer (timer.start), never words to run later.
  if (!COMMAND_VERBS.has(words[at]!) || words[at + 1] === 'me') return out;
  for (let end = at + 2; end <= Math.min(words.length, at + 14); end++) {
    const w = words[end - 1]!;
    if (w === 'timer' || w === 'timers') break;
    out.push({ end, value: words.slice(at, end).join(' '), weight: 0.2 * (end - at) });
  }
  return out;
};

/** What to be reminded of ("check the oven", "turn the oven off"): a timer's name, up to eight words. */
const reminder: SlotReader<ReadContext> = (words, at) => {
  const out: SlotMatch[] = [];
  if (NAME_EDGE.has(words[at]!)) return out;
  for (let end = at + 1; end <= Math.min(words.length, at + 8); end++) {
    const w = words[end - 1]!;
    if (w === 'timer' || w === 'timers' || ((w === 'in' || w === 'after') && readDurationAt(words, end))) break;
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
  ['name', name],
  ['reminder', reminder],
  ['items', items],
  ['known_item', knownItem],
  ['list', list],
  ['command', command],
]);
