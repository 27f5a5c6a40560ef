import { sayDuration } from './duration.js';
import type { TimerPick } from './timer-language.js';

/**
 * Which timers a command acts on. Nothing acts on the wrong timer: a pick that fits several asks
 * which (except status, which answers for all it fits). Pure.
 */
export interface PickableTimer {
  id: number;
  label?: string;
  seconds: number;
  state: 'running' | 'paused' | 'ringing';
  command?: string;
}

/** `ask`: the timers the question offers, so an answer can pick among them. */
export type PickResult<T> = { timers: T[] } | { say: string; ask?: T[] };

/** "pizza timer", "5 minute timer", "1 hour, 15 minute and 30 second timer". */
export function describeTimer(t: { label?: string; seconds: number }): string {
  return t.label ? `${t.label} timer` : `${sayDuration(t.seconds).replace(/(hour|minute|second)s\b/g, '$1')} timer`;
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function orList(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

export function pickTimers<T extends PickableTimer>(
  timers: readonly T[],
  pick: TimerPick,
  opts: { op: 'cancel' | 'status' | 'pause' | 'resume' | 'add' | 'remove'; all: boolean; deviceArea?: string },
): PickResult<T> {
  if (pick.area && !pick.area.here) return { say: `I only keep the ${opts.deviceArea ?? 'timers in this room'}${opts.deviceArea ? ' timers' : ''}; there are no ${pick.area.room} timers here.` };
  // Delayed commands are timers too, but only "cancel all" and a plain status reach them.
  let pool = timers.filter((t) => t.command === undefined || (opts.all && opts.op === 'cancel') || (opts.op === 'status' && !pick.name && pick.startSeconds === undefined));
  if (timers.length === 0 || pool.length === 0) return { say: opts.op === 'status' ? 'No timers are running.' : 'There is no timer running.' };
  if (pick.name) {
    const named = pool.filter((t) => t.label === pick.name);
    if (!named.length) return { say: `There is no ${pick.name} timer.` };
    pool = named;
  }
  if (pick.startSeconds !== undefined) {
    const sized = pool.filter((t) => t.seconds === pick.startSeconds);
    if (!sized.length) return { say: `There is no ${sayDuration(pick.startSeconds)} timer.` };
    pool = sized;
  }
  // Pause acts on running timers, resume on paused ones: that alone often settles which.
  if (opts.op === 'pause' || opts.op === 'resume') {
    const want = opts.op === 'pause' ? 'running' : 'paused';
    const fit = pool.filter((t) => t.state === want);
    if (!fit.length) return { say: pool.length === 1 ? `The ${describeTimer(pool[0]!)} is ${opts.op === 'pause' ? 'not running' : 'not paused'}.` : `No timer is ${opts.op === 'pause' ? 'running' : 'paused'}.` };
    pool = fit;
  }
  if (pool.length === 1 || opts.all || opts.op === 'status') return { timers: pool };
  // "the last timer", "the newest one": the one set most recently.
  if (pick.latest) return { timers: [pool.reduce((a, b) => (b.id > a.id ? b : a))] };
  return { say: `Which timer: the ${orList(pool.map(describeTimer)).replace(/ or /, ' or the ')}?`, ask: pool };
}
