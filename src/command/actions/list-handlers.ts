import { itemKey, type ItemAmount } from '../../language/items.js';
import type { ListBook } from '../lists.js';
import type { EffectSink } from '../../core/effects.js';
import { sayQuantity, spokenNumbers } from '../../language/spoken.js';
import { english } from '../../language/pack/english.js';
import { inCase } from '../../language/pack/message.js';
import type { Language } from '../../language/pack/language.js';
import { joinAll, listName } from '../../language/say.js';
import { DEFAULT_LIST } from '../../language/requests.js';
import type { ActionRequest, ActionRouter } from './action-router.js';

/**
 * list.add, list.remove, list.read and list.clear: one set of handlers, whether the rules asked
 * ("add three lemons to the list") or the model did and a person said yes. An item is kept as the
 * item and its quantity (and unit), so "take the lemons off" finds "three lemons" and the
 * read-back says the same thing whichever path added it.
 *
 * Arguments: `list`, and either `item` (with `quantity`, `unit`) or `items` ([{item, quantity,
 * unit}], several said at once); `unread`: parts of what was said that were not items, named in
 * the answer so the cook can say them again; `utteranceId` links the rows to what was said.
 */
/** "three lemons", "two kilos of onions": an amount as hark says it (in a grammatical case, where the reply asks for one: "einen Kasten Milch"). */
export function sayItem(i: { item: string; quantity?: number | null; unit?: string | null }, lang: Language = english(), grammaticalCase?: string): string {
  return spokenNumbers(sayQuantity(i.item, i.quantity ?? undefined, i.unit ?? undefined, lang, grammaticalCase), lang);
}

/** Items said as one slot, in whichever case the reply asks for. */
function sayItems(items: readonly { item: string; quantity?: number | null; unit?: string | null }[], lang: Language) {
  return inCase((c) =>
    sayAll(
      items.map((i) => sayItem(i, lang, c)),
      lang,
    ),
  );
}

/** "a, b and c". */
export function sayAll(parts: readonly string[], lang: Language = english()): string {
  return joinAll(parts, 'and', lang);
}

function need(a: ActionRequest, k: string): string {
  const v = a.args[k];
  if (typeof v !== 'string' || !v.trim()) throw new Error(`${a.name} needs ${k}, got ${JSON.stringify(v)}`);
  return v.trim();
}

/** The items an action names, from `items` or from `item` (+ `quantity`, `unit`). */
export function itemsOf(a: ActionRequest): ItemAmount[] {
  const one = (v: Record<string, unknown>, where: string): ItemAmount => {
    if (typeof v.item !== 'string' || !v.item.trim()) throw new Error(`${a.name} needs ${where}item, got ${JSON.stringify(v.item)}`);
    const q = v.quantity;
    if (q !== undefined && q !== null && (typeof q !== 'number' || !Number.isFinite(q) || q <= 0))
      throw new Error(`${a.name}: ${where}quantity must be a positive number, got ${JSON.stringify(q)}`);
    return {
      item: v.item.trim(),
      ...(typeof q === 'number' ? { quantity: q } : {}),
      ...(typeof v.unit === 'string' && v.unit.trim() ? { unit: v.unit.trim() } : {}),
    };
  };
  if (Array.isArray(a.args.items)) {
    if (!a.args.items.length) throw new Error(`${a.name}: items is empty`);
    return a.args.items.map((v, i) => one((typeof v === 'object' && v !== null ? v : { item: v }) as Record<string, unknown>, `items.${i}.`));
  }
  return [one(a.args, '')];
}

export function registerListHandlers(actions: ActionRouter, lists: ListBook, emit: EffectSink, language: (code?: string) => Language = () => english()): void {
  const code = (a: ActionRequest) => (typeof a.args.lang === 'string' && a.args.lang ? a.args.lang : undefined);
  const langOf = (a: ActionRequest) => language(code(a));
  const say = (a: ActionRequest, text: string, answer = false) => {
    const c = code(a);
    emit({ type: 'speak', text, ...(answer ? { answer: true as const } : {}), ...(c ? { lang: c } : {}) });
  };
  const link = (a: ActionRequest) => (typeof a.args.utteranceId === 'string' ? { utteranceId: a.args.utteranceId } : {});

  actions.on('list.add', (a) => {
    const list = need(a, 'list');
    const items = itemsOf(a);
    for (const i of items) {
      lists.record({ list, item: i.item, quantity: i.quantity ?? null, unit: i.unit ?? null, op: 'add', ...link(a) });
      emit({ type: 'list', op: 'add', list, item: i.item });
    }
    const l = langOf(a);
    say(a, l.reply('list.added', { items: sayItems(items, l), list: listName(list, l) }) + notCaught(a, l));
  });

  actions.on('list.remove', (a) => {
    const list = need(a, 'list');
    const lines = lists.lines(list);
    const l = langOf(a);
    const done: string[] = [];
    const fewer: string[] = [];
    const missing: string[] = [];
    for (const i of itemsOf(a)) {
      const line = lines.find((l) => itemKey(l.item) === itemKey(i.item));
      if (!line) {
        missing.push(i.item);
        continue;
      }
      // "take two tins of tomatoes off" six: four stay. Without a number, or as many as there are, the line goes.
      const left = i.quantity !== undefined && line.quantity !== null && i.quantity < line.quantity ? line.quantity - i.quantity : null;
      if (left !== null) lists.record({ list, item: line.item, quantity: left, unit: line.unit, op: 'set', ...link(a) });
      else lists.record({ list, item: line.item, op: 'remove', ...link(a) });
      emit({ type: 'list', op: 'remove', list, item: line.item });
      if (left !== null)
        fewer.push(
          l.reply('list.took', { item: sayItems([{ ...i, unit: i.unit ?? line.unit }], l), list: listName(list, l), left: spokenNumbers(String(left), l) }),
        );
      else done.push(line.item);
    }
    const parts: string[] = [];
    if (done.length) parts.push(l.reply('list.removed', { items: sayAll(done, l), list: listName(list, l) }));
    parts.push(...fewer);
    if (missing.length) parts.push(l.reply('list.missing', { items: sayAll(missing, l), count: missing.length, list: listName(list, l) }));
    say(a, parts.join(' ') + notCaught(a, l));
  });

  actions.on('list.read', (a) => {
    const list = need(a, 'list');
    const lines = lists.lines(list);
    const l = langOf(a);
    say(
      a,
      lines.length ? l.reply('list.read', { list: listName(list, l), items: sayItems(lines, l) }) : l.reply('list.empty', { list: listName(list, l) }),
      true,
    );
  });

  // Items for a list hark does not have ("añadir manzanas a Mercadona"): nothing is kept; hark
  // names the lists it has and how to start this one, in the language it was asked in.
  actions.on('list.unknown', (a) => {
    const l = langOf(a);
    const said = typeof a.args.said === 'string' && a.args.said.trim() ? a.args.said.trim() : need(a, 'list');
    const have = [...new Set([DEFAULT_LIST, ...Object.values(l.pack.lists.names), ...lists.names()])].map((id) => listName(id, l));
    say(a, l.reply('list.unknown', { list: said, lists: joinAll(have, 'and', l), count: have.length, items: sayItems(itemsOf(a), l) }), true);
  });

  actions.on('list.clear', (a) => {
    const list = need(a, 'list');
    const lines = lists.lines(list);
    // Cleared as removals, so the log still shows what was on it (lists are never edited in place).
    for (const l of lines) lists.record({ list, item: l.item, op: 'remove', ...link(a) });
    emit({ type: 'list', op: 'clear', list });
    say(a, langOf(a).reply(lines.length ? 'list.cleared' : 'list.already_empty', { list: listName(list, langOf(a)) }));
  });
}

/** " I didn't catch shallots two kilos." for the parts of a list that were not items; "" when all were. */
function notCaught(a: ActionRequest, l: Language): string {
  const u = Array.isArray(a.args.unread) ? a.args.unread.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
  return u.length
    ? ` ${l.reply('list.not_caught', {
        items: sayAll(
          u.map((x) => spokenNumbers(x.trim(), l)),
          l,
        ),
      })}`
    : '';
}
