import { english } from '../language/pack/english.js';
import { wordsOf, type Language, type Words } from '../language/pack/language.js';
import type { IntentSpec } from './intent-spec.js';
import { readItem, readItems, type ItemAmount } from '../language/items.js';
import { listId } from '../language/readers.js';
import { listName } from '../language/say.js';
import { sayQuantity, spokenNumbers } from '../language/spoken.js';
import { parseTimerRequest } from '../language/timer-request.js';
import { normalise } from '../language/text.js';

/**
 * What a proposal's object means for its action. The model is asked for one free-text object
 * ("3 cases of milk", "pasta for 8 minutes") because a 0.5B model fills one field far more
 * reliably than five; the parts an action needs are read out of it here, deterministically, with
 * the utterance as a second source ("add milk to the prep list": the list is in the utterance even
 * when the model leaves it out of the object). Both are read in the request's language (its
 * pack's numbers, durations, items, list words and articles) and said back in it. Pure.
 */
export interface ProposalSlots {
  /** The object as hark says it ("three cases of milk"); empty when there is none. */
  object: string;
  item?: string;
  quantity?: number;
  unit?: string;
  /** The list it is (a name said in another language is the same list: "compra" is shopping). */
  list?: string;
  seconds?: number;
  label?: string;
  /** Several items in one object ("3 cases of milk and 2 boxes of eggs"), each with its quantity. */
  items?: ItemAmount[];
  /** "8 minutes". */
  duration?: string;
  /** "a pasta timer" / "a timer". */
  timer: string;
  /** "the pasta timer" / "the timer". */
  theTimer: string;
}

/** The language's small words around an object, as sets: built once per language. */
interface ObjectWords {
  /** Before an item or a list's name: "the", "some", "la". */
  articles: Words;
  /** Words that end a list's name read away from the word for a list ("to the order list" → order). */
  nameStop: Words;
  listWords: Words;
  before: boolean;
  after: boolean;
  of: Words;
  /** Words never part of a timer's name ("timer", "for", "please"; "temporizador", "para"). */
  timerWords: Words;
}

const objectWords = new WeakMap<Language, ObjectWords>();

function wordsOfLang(lang: Language): ObjectWords {
  let o = objectWords.get(lang);
  if (!o) {
    const { lists, timers } = lang.pack;
    const articles = [...lists.articles, ...lists.item_start, ...timers.determiners];
    objectWords.set(
      lang,
      (o = {
        articles: wordsOf(articles),
        nameStop: wordsOf([...articles, ...lists.name_never, ...lists.list_words]),
        listWords: lang.list('lists', 'list_words'),
        before: lists.list_name.includes('before'),
        after: lists.list_name.includes('after'),
        of: lang.list('lists', 'of'),
        timerWords: wordsOf([...timers.words, ...timers.name_edge, ...timers.new_name_never]),
      }),
    );
  }
  return o;
}

const wordsIn = (text: string | null, lang: Language): string[] => (text ? lang.splitCompounds(normalise(text).split(' ').filter(Boolean)) : []);

/**
 * "... to the order list" → { list: "order", at: index of "to" }; "... a la lista de pedidos" →
 * { list: "pedidos", at: index of "a" }: the item ends where the list phrase starts. The name is on
 * the side of the word for a list the pack says (lists.yaml `list_name`).
 */
function findList(w: readonly string[], ow: ObjectWords): { list: string; at: number } | null {
  const i = w.findIndex((x) => ow.listWords.has(x));
  // "order list" needs a name before the word; "lista de pedidos" may open the object.
  if (i < 0 || (i === 0 && !ow.after)) return null;
  let name: string | null = null;
  let starts = i;
  if (ow.before) {
    let from = i;
    while (from > 0 && i - from < 2 && !ow.nameStop.has(w[from - 1]!)) from--;
    if (from < i) [name, starts] = [w.slice(from, i).join(' '), from];
  }
  if (name === null && ow.after) {
    let from = i + 1;
    while (from < w.length && (ow.of.has(w[from]!) || ow.articles.has(w[from]!))) from++;
    let to = from;
    while (to < w.length && to - from < 2 && !ow.nameStop.has(w[to]!)) to++;
    if (to > from) name = w.slice(from, to).join(' ');
  }
  if (name === null) return null;
  let at = starts;
  while (at > 0 && ow.nameStop.has(w[at - 1]!)) at--;
  return { list: name, at };
}

function stripArticles(w: string[], ow: ObjectWords): string[] {
  let s = 0;
  while (s < w.length && ow.articles.has(w[s]!)) s++;
  return w.slice(s);
}

/**
 * "3 cases of milk" → 3, cases, milk; "a case of milk" → 1, case, milk; "napkins" → napkins: the
 * kitchen language's own reading of an item (language/items.ts), so an item the model adds is kept
 * exactly as one the rules add.
 */
function readAmount(w: string[], lang: Language): { item?: string; quantity?: number; unit?: string; items?: ItemAmount[] } {
  const one = readItem(w, lang);
  if (one) return one;
  // "3 cases of milk and 2 boxes of eggs": several items, each kept with its own quantity.
  const several = readItems(w, [], lang);
  return several && several.length > 1 ? { item: several.map((i) => i.item).join(' and '), items: several } : {};
}

/** The amount from wherever the first number is ("we have twelve boxes of gloves"). */
function amountAnywhere(w: string[], lang: Language): { item?: string; quantity?: number; unit?: string } {
  for (let i = 0; i < w.length; i++) if (lang.readNumber(w, i)) return readAmount(w.slice(i), lang);
  return {};
}

function readTimer(w: string[], lang: Language, ow: ObjectWords): { seconds?: number; label?: string } {
  const parsed = parseTimerRequest(w, lang);
  if (parsed) return parsed;
  // "pasta for 8 minutes": the duration is not first, and there is no "timer" to anchor on.
  for (let i = 1; i < w.length; i++) {
    const d = lang.durations.read(w, i);
    if (!d) continue;
    const label = w
      .slice(0, i)
      .filter((x) => !ow.timerWords.has(x))
      .join(' ');
    return label ? { seconds: d.seconds, label } : { seconds: d.seconds };
  }
  // "10 minutos" alone.
  const d = lang.durations.read(w, 0);
  return d && d.next === w.length ? { seconds: d.seconds } : {};
}

/** `lang`: the language the request was said in (English when none is given). */
export function proposalSlots(intent: IntentSpec, target: string | null, utterance: string, lang: Language = english()): ProposalSlots {
  const ow = wordsOfLang(lang);
  const tw = wordsIn(target, lang);
  const uw = wordsIn(utterance, lang);
  const slots: ProposalSlots = {
    object: target ? spokenNumbers(target, lang) : '',
    timer: lang.timerPhrase('a_timer', undefined),
    theTimer: lang.timerPhrase('the_timer', undefined),
  };

  const inTarget = findList(tw, ow);
  const listed = inTarget ?? findList(uw, ow);
  const itemWords = inTarget ? tw.slice(0, inTarget.at) : tw;
  const said = (name: string | undefined) => (name === undefined ? undefined : listId(lang, name));
  if (intent.action === 'list.read') {
    // "order list", "the prep list", or just "prep".
    slots.list = said(listed?.list ?? (stripArticles(tw, ow).join(' ') || intent.list));
  } else if (listed || intent.list) {
    slots.list = said(listed?.list ?? intent.list);
  }

  if (intent.action === 'timer.set' || intent.action === 'timer.cancel') {
    // The label only from the object: the utterance's words around a duration are verbs ("time the pasta").
    const fromTarget = intent.action === 'timer.set' ? readTimer(tw, lang, ow) : {};
    const seconds = intent.action === 'timer.set' ? (fromTarget.seconds ?? readTimer(uw, lang, ow).seconds) : undefined;
    const label = intent.action === 'timer.cancel' ? tw.filter((x) => !ow.timerWords.has(x)).join(' ') || undefined : fromTarget.label;
    if (seconds !== undefined) {
      slots.seconds = seconds;
      slots.duration = lang.durations.say(seconds);
    }
    if (label) {
      slots.label = label;
      slots.timer = lang.timerPhrase('a_timer', label);
      slots.theTimer = lang.timerPhrase('the_timer', label);
    }
    return slots;
  }

  let amount = readAmount(itemWords, lang);
  if (amount.quantity === undefined && intent.action === 'inventory.count') {
    const fromUtterance = amountAnywhere(uw, lang);
    if (fromUtterance.quantity !== undefined) amount = { ...fromUtterance, ...(amount.item ? { item: amount.item } : {}) };
  }
  Object.assign(slots, amount);
  // The list phrase was in the object: say the object without it, or the question names the list twice.
  if (inTarget) slots.object = spokenNumbers(itemWords.join(' '), lang);
  // A count read from the utterance is part of what will be recorded, so the question says it.
  if (intent.action === 'inventory.count' && slots.item) slots.object = spokenNumbers(sayQuantity(slots.item, slots.quantity, slots.unit, lang), lang);
  return slots;
}

/** Slots an action cannot run without, and so must be present before hark asks yes or no. */
const ACTION_NEEDS: Record<string, readonly (keyof ProposalSlots)[]> = {
  'timer.set': ['seconds'],
  'list.add': ['item'],
  'list.remove': ['item'],
  'inventory.count': ['item', 'quantity'],
  'item.locate': ['item'],
  'issue.report': ['object'],
};

/** The first slot the intent's action needs and the proposal lacks, or null. */
export function missingSlot(intent: IntentSpec, slots: ProposalSlots): string | null {
  for (const k of ACTION_NEEDS[intent.action] ?? []) {
    const v = slots[k];
    if (v === undefined || v === '') return k;
  }
  return null;
}

/**
 * Fill {slot}s in the request's language: a list by the name this language calls it ("shopping" is
 * "compra" in Spanish), a noun slot with a capital first letter where the pack writes nouns so
 * (German's "Einkaufs-Liste"). A slot with no value reads as nothing, and doubled spaces close up.
 */
export function fillSlots(template: string, slots: ProposalSlots, lang: Language = english()): string {
  const nouns: readonly string[] = lang.pack.meta.noun_slots;
  return template
    .replace(/\{(\w+)\}/g, (_m, k: string) => {
      const v = k === 'list' && slots.list !== undefined ? listName(slots.list, lang) : (slots as unknown as Record<string, unknown>)[k];
      const text = v === undefined ? '' : String(v);
      return nouns.includes(k) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
    })
    .replace(/ {2,}/g, ' ')
    .replace(/ ([?.!,])/g, '$1')
    .trim();
}

/** What the intent's action is given: everything known, so a forwarded action's receiver has it all. */
export function actionArgs(intent: IntentSpec, target: string | null, slots: ProposalSlots, utteranceIds: readonly string[]): Record<string, unknown> {
  const args: Record<string, unknown> = { intent: intent.name };
  if (target !== null) args.object = target;
  for (const k of ['item', 'quantity', 'unit', 'items', 'list', 'seconds', 'label'] as const) if (slots[k] !== undefined) args[k] = slots[k];
  if (utteranceIds.length) args.utteranceId = utteranceIds[utteranceIds.length - 1];
  return args;
}
