import { readDuration } from '../language/duration.js';

/**
 * Follow-ups without the wake word (issue 19): for a few seconds after hark acted on a command, the
 * person may go on as people do, leaning on what was just done:
 *
 * - after a list request: "and two pints of milk", "also some butter", "plus eggs" → the same
 *   list, the same verb;
 * - after setting a timer: "make it ten minutes", "make that 8", "change it to ten minutes",
 *   "actually twelve minutes", "no, ten minutes" → that timer, changed to the new length.
 *
 * Anything else in the window is handled as if the wake word came first only when it is a request
 * hark's rules can carry out alone (a timer or list request: the caller checks); the rest of a
 * kitchen's talk stays ignored. Pure: words in, what to do out.
 */
export type LastRequest =
  | { kind: 'list'; op: 'add' | 'remove'; list: string }
  | { kind: 'timer'; seconds: number; label?: string };

export type FollowUp =
  /** Words to handle as if said after the wake word. */
  | { text: string }
  /** An action to request directly (`length`: the timer's new length, when it changes one). */
  | { action: string; args: Record<string, unknown>; length?: number }
  /** Understood, nothing to do: say this. */
  | { say: string };

const JOINERS = new Set(['and', 'also', 'plus', 'oh']);
const LEAD = new Set(['um', 'uh', 'er', 'oh', 'ok', 'okay', 'actually', 'no', 'sorry', 'wait', 'hmm']);

function dropLead(words: readonly string[], lead: ReadonlySet<string>): string[] {
  let i = 0;
  while (i < words.length && lead.has(words[i]!)) i++;
  return words.slice(i);
}

/** "make it ten minutes", "change it to 10 minutes", "actually ten minutes", "10 minutes instead". */
function newLength(words: readonly string[]): number | null {
  let w = dropLead(words, LEAD);
  if (w.at(-1) === 'instead') w = w.slice(0, -1);
  if (w.at(-1) === 'please') w = w.slice(0, -1);
  const lead = [
    ['make', 'it'], ['make', 'that'], ['make', 'it', 'a'], ['change', 'it', 'to'], ['change', 'that', 'to'], ['change', 'it', 'to', 'a'],
    ['set', 'it', 'to'], ['set', 'it', 'for'], ['make', 'the', 'timer'], ['i', 'meant'], ['i', 'said'],
  ].sort((a, b) => b.length - a.length).find((l) => l.every((x, k) => w[k] === x));
  const rest = lead ? w.slice(lead.length) : w;
  // "make it ten" without a unit: the unit of the timer just set is minutes in a kitchen.
  const d = readDuration(rest, 0) ?? readDuration([...rest, 'minutes'], 0);
  if (!d) return null;
  const tail = rest.slice(d.next > rest.length ? rest.length : d.next);
  if (tail.length && !(tail.length === 1 && tail[0] === 'timer')) return null;
  // A bare duration ("ten minutes") counts only after a correction word or "make it": alone it may be talk.
  if (!lead && w.length === words.length) return null;
  return d.seconds;
}

export function readFollowUp(words: readonly string[], last: LastRequest): FollowUp | null {
  if (!words.length) return null;
  if (last.kind === 'list') {
    const w = dropLead(words, new Set(['um', 'uh', 'er']));
    if (!JOINERS.has(w[0] ?? '')) return null;
    let item = w.slice(1);
    if (item[0] === 'and') item = item.slice(1);
    if (item.at(-1) === 'please') item = item.slice(0, -1);
    if (item[0] === 'some' && item.length > 1) item = item.slice(1);
    if (!item.length || item.includes('list')) return null;
    return { text: `${last.op === 'add' ? 'add' : 'remove'} ${item.join(' ')} ${last.op === 'add' ? 'to' : 'from'} the ${last.list} list` };
  }
  const seconds = newLength(words);
  if (seconds === null) return null;
  if (seconds === last.seconds) return { say: 'It is already set for that.' };
  if (last.label) return { action: 'timer.set', args: { seconds, label: last.label }, length: seconds };
  const delta = seconds - last.seconds;
  return { action: delta > 0 ? 'timer.add' : 'timer.remove', args: { seconds: Math.abs(delta), latest: true }, length: seconds };
}
