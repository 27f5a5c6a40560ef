import type { ActionRequest, ActionRouter } from '../command/actions/action-router.js';
import type { Logger } from '../core/log.js';
import type { EffectSink } from '../core/effects.js';
import { itemKey, type ListBook } from '../command/lists.js';
import { sayQuantity, spokenNumbers } from '../language/spoken.js';
import { english } from '../language/pack/english.js';
import type { Language } from '../language/pack/language.js';

/**
 * What the default intents do once a person has said yes. Each one says what it did, because a
 * cook with full hands has no screen to check. timer.set, timer.cancel and the list actions are
 * hark's own built-in actions; these are the rest. Any of them can also go to a target (actions.forward), e.g.
 * manager.call to a pager webhook or issue.report to the maintenance system. What each says is its
 * language pack's (proposals.yaml `said`), in the language the request was said in (the action's `lang`).
 */
export const INTENT_ACTIONS = ['list.add', 'list.remove', 'list.read', 'inventory.count', 'item.locate', 'issue.report', 'manager.call'] as const;

/** Lists the default intents keep besides the ones people name. */
export const SYSTEM_LISTS = { inventory: 'inventory', issues: 'issues', locations: 'locations', managerCalls: 'manager-calls' } as const;

export interface IntentActionDeps {
  lists: ListBook;
  emit: EffectSink;
  /** True when actions.forward sends this action to a target (a pager, a stock system). */
  forwarded: (action: string) => boolean;
  log: Logger;
  /** The device's language of a code, the first for none (English without). */
  language?: (code?: string) => Language;
}

const str = (a: ActionRequest, k: string): string | undefined => {
  const v = a.args[k];
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
};
const num = (a: ActionRequest, k: string): number | undefined => {
  const v = a.args[k];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
};
function need(a: ActionRequest, k: string): string {
  const v = str(a, k);
  if (!v) throw new Error(`${a.name} needs ${k}, got ${JSON.stringify(a.args[k])}`);
  return v;
}

/** The lists' own actions (list.add, list.remove, list.read) are hark's built-in ones (actions/list-handlers.ts): one way of keeping a list, whoever asked. */
export function registerIntentActions(actions: ActionRouter, deps: IntentActionDeps): void {
  const { lists, emit } = deps;
  const language = (code?: string) => deps.language?.(code) ?? english();
  /** The action's words in the language it was asked in, carrying it when it is not the first (its voice is that language's). */
  const said = (a: ActionRequest, key: Parameters<Language['proposalSaid']>[0], args: Record<string, string> = {}) => {
    const code = str(a, 'lang');
    const lang = language(code);
    emit({ type: 'speak', text: lang.proposalSaid(key, args), ...(code && lang !== language() ? { lang: lang.code } : {}) });
  };
  const langOf = (a: ActionRequest) => language(str(a, 'lang'));
  const link = (a: ActionRequest) => (str(a, 'utteranceId') ? { utteranceId: str(a, 'utteranceId')! } : {});

  actions.on('inventory.count', (a) => {
    const item = need(a, 'item');
    const quantity = num(a, 'quantity');
    if (quantity === undefined) throw new Error(`inventory.count needs a quantity, got ${JSON.stringify(a.args.quantity)}`);
    const unit = str(a, 'unit');
    lists.record({ list: SYSTEM_LISTS.inventory, item, quantity, unit: unit ?? null, op: 'set', ...link(a) });
    const lang = langOf(a);
    said(a, 'counted', { what: spokenNumbers(sayQuantity(item, quantity, unit, lang), lang) });
  });

  actions.on('item.locate', (a) => {
    const item = need(a, 'item');
    const found = lists.lines(SYSTEM_LISTS.locations).find((l) => itemKey(l.item) === itemKey(item) && l.note);
    if (found) said(a, 'located', { item, where: found.note! });
    else said(a, 'not_located', { item });
  });

  actions.on('issue.report', (a) => {
    const text = need(a, 'object');
    lists.record({ list: SYSTEM_LISTS.issues, item: text, op: 'add', ...link(a) });
    said(a, 'reported', { what: spokenNumbers(text, langOf(a)) });
  });

  actions.on('manager.call', (a) => {
    const where = str(a, 'object');
    lists.record({ list: SYSTEM_LISTS.managerCalls, item: where ?? 'manager wanted', op: 'add', ...link(a) });
    if (deps.forwarded('manager.call')) {
      said(a, 'calling');
      return;
    }
    // Saying "calling" with nothing to call would leave someone waiting for nobody.
    deps.log.warn('manager.call is not forwarded to any target; only logged (set actions.forward.manager.call)', {});
    said(a, 'no_pager');
  });
}
