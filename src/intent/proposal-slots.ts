import { readDuration, sayDuration } from '../language/duration.js';
import type { IntentSpec } from './intent-spec.js';
import { readNumber } from '../language/numbers.js';
import { readItem, readItems, type ItemAmount } from '../language/items.js';
import { sayQuantity, spokenNumbers } from '../language/spoken.js';
import { parseTimerRequest } from '../language/timer-request.js';
import { normalise } from '../language/text.js';

/**
 * What a proposal's object means for its action. The model is asked for one free-text object
 * ("3 cases of milk", "pasta for 8 minutes") because a 0.5B model fills one field far more
 * reliably than five; the parts an action needs are read out of it here, deterministically, with
 * the utterance as a second source ("add milk to the prep list": the list is in the utterance even
 * when the model leaves it out of the object). Pure.
 */
export interface ProposalSlots {
  /** The object as hark says it ("three cases of milk"); empty when there is none. */
  object: string;
  item?: string;
  quantity?: number;
  unit?: string;
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

const ARTICLES = new Set(['a', 'an', 'the', 'my', 'our', 'some', 'more', 'this', 'that']);
/** Words that end a list's name when reading back from "list" ("to the order list" → order). */
const LIST_STOP = new Set([...ARTICLES, 'to', 'on', 'onto', 'from', 'off', 'in', 'into', 'of', 'for', 'whats', 'what', 'read', 'me', 'is', 'us', 'list']);
const LIST_PREPS = new Set(['to', 'on', 'onto', 'from', 'off', 'in', 'into', 'for']);
const TIMER_WORDS = new Set(['timer', 'timers', 'for', 'please', 'the', 'my', 'a', 'an']);

const words = (text: string | null): string[] => (text ? normalise(text).split(' ').filter(Boolean) : []);

/** "... to the order list" → { list: "order", at: index of "to" }: the item ends where the list phrase starts. */
function findList(w: readonly string[]): { list: string; at: number } | null {
  const i = w.indexOf('list');
  if (i <= 0) return null;
  let from = i;
  while (from > 0 && i - from < 2 && !LIST_STOP.has(w[from - 1]!)) from--;
  if (from === i) return null;
  let at = from;
  while (at > 0 && (ARTICLES.has(w[at - 1]!) || LIST_PREPS.has(w[at - 1]!))) at--;
  return { list: w.slice(from, i).join(' '), at };
}

function stripArticles(w: string[]): string[] {
  let s = 0;
  while (s < w.length && ARTICLES.has(w[s]!)) s++;
  return w.slice(s);
}

/**
 * "3 cases of milk" → 3, cases, milk; "a case of milk" → 1, case, milk; "napkins" → napkins: the
 * kitchen language's own reading of an item (language/items.ts), so an item the model adds is kept
 * exactly as one the rules add.
 */
function readAmount(w: string[]): { item?: string; quantity?: number; unit?: string; items?: ItemAmount[] } {
  const one = readItem(w);
  if (one) return one;
  // "3 cases of milk and 2 boxes of eggs": several items, each kept with its own quantity.
  const several = readItems(w);
  return several && several.length > 1 ? { item: several.map((i) => i.item).join(' and '), items: several } : {};
}

/** The amount from wherever the first number is ("we have twelve boxes of gloves"). */
function amountAnywhere(w: string[]): { item?: string; quantity?: number; unit?: string } {
  for (let i = 0; i < w.length; i++) if (readNumber(w, i)) return readAmount(w.slice(i));
  return {};
}

function readTimer(w: string[]): { seconds?: number; label?: string } {
  const parsed = parseTimerRequest(w);
  if (parsed) return parsed;
  // "pasta for 8 minutes": the duration is not first, and there is no "timer" to anchor on.
  for (let i = 1; i < w.length; i++) {
    const d = readDuration(w, i);
    if (!d) continue;
    const label = w
      .slice(0, i)
      .filter((x) => !TIMER_WORDS.has(x))
      .join(' ');
    return label ? { seconds: d.seconds, label } : { seconds: d.seconds };
  }
  return {};
}

export function proposalSlots(intent: IntentSpec, target: string | null, utterance: string): ProposalSlots {
  const tw = words(target);
  const uw = words(utterance);
  const slots: ProposalSlots = { object: target ? spokenNumbers(target) : '', timer: 'a timer', theTimer: 'the timer' };

  const inTarget = findList(tw);
  const listed = inTarget ?? findList(uw);
  const itemWords = inTarget ? tw.slice(0, inTarget.at) : tw;
  if (intent.action === 'list.read') {
    // "order list", "the prep list", or just "prep".
    slots.list = listed?.list ?? (stripArticles(tw).join(' ') || intent.list);
  } else if (listed || intent.list) {
    slots.list = listed?.list ?? intent.list;
  }

  if (intent.action === 'timer.set' || intent.action === 'timer.cancel') {
    // The label only from the object: the utterance's words around a duration are verbs ("time the pasta").
    const fromTarget = intent.action === 'timer.set' ? readTimer(tw) : {};
    const seconds = intent.action === 'timer.set' ? (fromTarget.seconds ?? readTimer(uw).seconds) : undefined;
    const label = intent.action === 'timer.cancel' ? tw.filter((x) => !TIMER_WORDS.has(x)).join(' ') || undefined : fromTarget.label;
    if (seconds !== undefined) {
      slots.seconds = seconds;
      slots.duration = sayDuration(seconds);
    }
    if (label) {
      slots.label = label;
      slots.timer = `a ${label} timer`;
      slots.theTimer = `the ${label} timer`;
    }
    return slots;
  }

  let amount = readAmount(itemWords);
  if (amount.quantity === undefined && intent.action === 'inventory.count') {
    const fromUtterance = amountAnywhere(uw);
    if (fromUtterance.quantity !== undefined) amount = { ...fromUtterance, ...(amount.item ? { item: amount.item } : {}) };
  }
  Object.assign(slots, amount);
  // The list phrase was in the object: say the object without it, or the question names the list twice.
  if (inTarget) slots.object = spokenNumbers(itemWords.join(' '));
  // A count read from the utterance is part of what will be recorded, so the question says it.
  if (intent.action === 'inventory.count' && slots.item) slots.object = spokenNumbers(sayQuantity(slots.item, slots.quantity, slots.unit));
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

/** Fill {slot}s; a slot with no value reads as nothing, and doubled spaces close up. */
export function fillSlots(template: string, slots: ProposalSlots): string {
  return template
    .replace(/\{(\w+)\}/g, (_m, k: string) => {
      const v = (slots as unknown as Record<string, unknown>)[k];
      return v === undefined ? '' : String(v);
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
