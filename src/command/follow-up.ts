import type { FollowUp } from '../language/requests.js';
import type { LastRequest } from '../language/situation.js';
import { itemArgs } from './kitchen-verb.js';
import { english } from '../language/pack/english.js';
import type { Language } from '../language/pack/language.js';

/**
 * Follow-ups without the wake word: for a few seconds after hark acted on a command, the
 * person may go on as people do, leaning on what was just done:
 *
 * - after a list request: "and two pints of milk", "also some butter", "plus eggs" → the same
 *   list, the same verb;
 * - after setting a timer: "make it ten minutes", "make that 8", "change it to ten minutes",
 *   "actually twelve minutes", "no, ten minutes" → that timer, changed to the new length.
 *
 * The kitchen language reads the words (its follow.* sentences, only while the window is open);
 * this says what doing it means. Pure.
 * Why: docs/decisions.md#follow-ups-without-the-wake-word.
 */
export type { LastRequest } from '../language/situation.js';

export type FollowUpStep =
  /** An action to request directly (`length`: the timer's new length, when it changes one). */
  | { action: string; args: Record<string, unknown>; length?: number }
  /** Understood, nothing to do: say this. */
  | { say: string };

/** `lang`: the language the follow-up was said in (its reply is said in it). */
export function followUpStep(f: FollowUp, last: LastRequest, lang: Language = english()): FollowUpStep | null {
  if (f.kind === 'more') {
    if (last.kind !== 'list') return null;
    const items = f.items.length === 1 ? itemArgs(f.items[0]!) : { items: f.items.map(itemArgs) };
    return { action: `list.${last.op}`, args: { list: last.list, ...items, ...(f.unread ? { unread: f.unread } : {}) } };
  }
  if (last.kind !== 'timer') return null;
  const seconds = f.seconds;
  if (seconds === last.seconds) return { say: lang.reply('timer.same_length') };
  if (last.label) return { action: 'timer.set', args: { seconds, label: last.label }, length: seconds };
  const delta = seconds - last.seconds;
  return { action: delta > 0 ? 'timer.add' : 'timer.remove', args: { seconds: Math.abs(delta), latest: true }, length: seconds };
}
