import { defaultLanguage } from '../language/default.js';
import type { ItemAmount } from '../language/items.js';
import type { KitchenLanguage } from '../language/kitchen.js';
import type { ListCommand, TimerCommand, TimerPick } from '../language/requests.js';
import type { Situation } from '../language/situation.js';
import { readRequest } from '../language/understand.js';
import type { Said } from '../language/text.js';
import type { EffectSink } from '../core/effects.js';
import { english } from '../language/pack/english.js';
import type { Language } from '../language/pack/language.js';
import { readElsewhereList } from './list-elsewhere.js';

/** Kitchen timers run from one second to a day; anything else is a mishearing. */
export const TIMER_MAX_SECONDS = 86_400;

/** `lang`: the language it was said in, when not the device's first (the actions carry it, the replies are said in it). */
export type KitchenRequest = (
  { family: 'timer'; command: TimerCommand; question: boolean } | { family: 'list'; command: ListCommand; question: boolean; unknownList?: string }
) & { lang?: string };

let openers: ReadonlySet<string> | undefined;
/**
 * Words that, alone, are overwhelmingly a query's own command (send it), though a list sentence may
 * open with them ("go through the stores list"): said alone they act at once; said on in one
 * breath they are still read whole.
 */
const ALONE_A_COMMAND = new Set(['go', 'done', 'send']);

/**
 * Could a timer or list request go on from these words ("cancel" … "the rice timer", "add" … "eggs
 * to the list")? Used to hold off acting early on a phrase that is also a request's first words:
 * one word that a timer or list sentence can open with.
 */
export function mayStartKitchen(words: readonly string[]): boolean {
  openers ??= new Set(defaultLanguage().grammar.openers((i) => i.startsWith('timer.') || i.startsWith('list.')));
  return words.length === 1 && openers.has(words[0]!) && !ALONE_A_COMMAND.has(words[0]!);
}

/**
 * The kitchen language over one utterance: a timer or list request, or null. `unknownLists`: also
 * read a list named without the word for a list (list-elsewhere.ts); off where the words would go
 * on to someone who can read them better (the intent pass), on where they would only be filed.
 */
export function parseKitchen(s: Said, language: KitchenLanguage, situation: Situation, unknownLists = true): KitchenRequest | null {
  const r = readRequest(language, s, situation);
  const lang = r?.lang !== undefined && r.lang !== language.lang.code ? { lang: r.lang } : {};
  if (r?.kind === 'timer') return { family: 'timer', command: r.command, question: r.question, ...lang };
  if (r?.kind === 'list') return { family: 'list', command: r.command, question: r.question, ...lang };
  // "add apples to costco": a list named without the word for a list (list-elsewhere.ts).
  const e = r || !unknownLists ? null : readElsewhereList(s, language, situation);
  if (!e) return null;
  return {
    family: 'list',
    command: e.command,
    question: false,
    ...(e.unknown !== undefined ? { unknownList: e.unknown } : {}),
    ...(e.lang !== language.lang.code ? { lang: e.lang } : {}),
  };
}

function pickArgs(p: TimerPick): Record<string, unknown> {
  return {
    ...(p.name ? { label: p.name } : {}),
    ...(p.startSeconds !== undefined ? { startSeconds: p.startSeconds } : {}),
    ...(p.area ? { room: p.area.room, here: p.area.here } : {}),
    ...(p.latest ? { latest: true } : {}),
  };
}

/** One item as action arguments: the item and, apart, how many (the same shape the intent pass sends). */
export function itemArgs(i: ItemAmount): Record<string, unknown> {
  return { item: i.item, ...(i.quantity !== undefined ? { quantity: i.quantity } : {}), ...(i.unit ? { unit: i.unit } : {}) };
}

/**
 * The `kitchen` verb: a parsed kitchen request becomes an action request (timer.set, timer.cancel,
 * timer.status, timer.pause, timer.resume, timer.add, timer.remove; list.add, list.remove,
 * list.read, list.clear), or a question back when something is missing. Several items said at once
 * go as one list action with `items`; one item as `item` (and `quantity`, `unit`); the parts of the
 * list that were not items as `unread`, for the answer to name.
 */
export function kitchenVerb(
  request: Pick<KitchenRequest, 'family' | 'command' | 'lang'> & { unknownList?: string },
  emit: EffectSink,
  lang: Language = english(),
): void {
  const code = request.lang !== undefined ? { lang: request.lang } : {};
  const say = (key: string) => emit({ type: 'speak', text: lang.reply(key), ...code });
  if (request.family === 'list') {
    const c = request.command as ListCommand;
    // A list hark does not have: it says which it has, and how to start this one (list.unknown).
    if (request.unknownList !== undefined && 'items' in c) {
      emit({
        type: 'action',
        name: 'list.unknown',
        args: { list: c.list, said: request.unknownList, ...(c.items.length === 1 ? itemArgs(c.items[0]!) : { items: c.items.map(itemArgs) }), ...code },
      });
      return;
    }
    if (!('items' in c)) {
      emit({ type: 'action', name: `list.${c.op}`, args: { list: c.list, ...code } });
      return;
    }
    const items = c.items.length === 1 ? itemArgs(c.items[0]!) : { items: c.items.map(itemArgs) };
    emit({ type: 'action', name: `list.${c.op}`, args: { list: c.list, ...items, ...(c.unread ? { unread: c.unread } : {}), ...code } });
    return;
  }
  const c = request.command as TimerCommand;
  switch (c.op) {
    case 'start-many':
      for (const t of c.timers)
        kitchenVerb({ family: 'timer', command: { op: 'start', seconds: t.seconds, ...(t.name ? { name: t.name } : {}) }, ...code }, emit, lang);
      return;
    case 'start':
    case 'delay': {
      if (c.seconds === null) {
        say('timer.how_long');
        return;
      }
      if (c.seconds < 1 || c.seconds > TIMER_MAX_SECONDS) {
        say('timer.out_of_range');
        return;
      }
      const extra = c.op === 'delay' ? { command: c.command } : c.name ? { label: c.name } : {};
      emit({ type: 'action', name: 'timer.set', args: { seconds: c.seconds, ...extra, ...code } });
      return;
    }
    case 'add':
    case 'remove':
      emit({ type: 'action', name: `timer.${c.op}`, args: { seconds: c.seconds, ...pickArgs(c.pick), ...code } });
      return;
    default:
      emit({ type: 'action', name: `timer.${c.op}`, args: { ...pickArgs(c.pick), ...(c.all ? { all: true } : {}), ...code } });
  }
}
