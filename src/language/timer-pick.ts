import { english } from './pack/english.js';
import type { Language } from './pack/language.js';
import { joinAll, timerName } from './say.js';
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
export function describeTimer(t: { label?: string; seconds: number }, lang: Language = english()): string {
  return timerName(t, lang);
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export function pickTimers<T extends PickableTimer>(
  timers: readonly T[],
  pick: TimerPick,
  opts: { op: 'cancel' | 'status' | 'pause' | 'resume' | 'add' | 'remove'; all: boolean; deviceArea?: string },
  lang: Language = english(),
): PickResult<T> {
  if (pick.area && !pick.area.here) return { say: lang.reply('timer.elsewhere', { area: opts.deviceArea, room: pick.area.room }) };
  // Delayed commands are timers too, but only "cancel all" and a plain status reach them.
  let pool = timers.filter(
    (t) => t.command === undefined || (opts.all && opts.op === 'cancel') || (opts.op === 'status' && !pick.name && pick.startSeconds === undefined),
  );
  if (timers.length === 0 || pool.length === 0) return { say: lang.reply(opts.op === 'status' ? 'timer.none_running' : 'timer.none_to_act_on') };
  if (pick.name) {
    const named = pool.filter((t) => t.label === pick.name);
    if (!named.length) return { say: lang.reply('timer.no_such_name', { name: pick.name }) };
    pool = named;
  }
  if (pick.startSeconds !== undefined) {
    const sized = pool.filter((t) => t.seconds === pick.startSeconds);
    if (!sized.length) return { say: lang.reply('timer.no_such_size', { duration: lang.durations.say(pick.startSeconds) }) };
    pool = sized;
  }
  // Pause acts on running timers, resume on paused ones: that alone often settles which.
  if (opts.op === 'pause' || opts.op === 'resume') {
    const want = opts.op === 'pause' ? 'running' : 'paused';
    const fit = pool.filter((t) => t.state === want);
    if (!fit.length) {
      const pause = opts.op === 'pause';
      return {
        say:
          pool.length === 1
            ? lang.reply(pause ? 'timer.not_running' : 'timer.not_paused', { timer: timerName(pool[0]!, lang) })
            : lang.reply(pause ? 'timer.none_running_now' : 'timer.none_paused'),
      };
    }
    pool = fit;
  }
  if (pool.length === 1 || opts.all || opts.op === 'status') return { timers: pool };
  // "the last timer", "the newest one": the one set most recently.
  if (pick.latest) return { timers: [pool.reduce((a, b) => (b.id > a.id ? b : a))] };
  const choices = joinAll(
    pool.map((t) => lang.phrase('timer.choice', { timer: timerName(t, lang) })),
    'or',
    lang,
  );
  return { say: lang.reply('timer.which', { choices }), ask: pool };
}
