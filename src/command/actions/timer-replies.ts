import type { Language } from '../../language/pack/language.js';
import { joinAll, timerName } from '../../language/say.js';
import { capitalise } from '../../language/timer-pick.js';
import type { KitchenTimer } from './timer-types.js';

/** What is left of a timer, said: `leftMs` is the timers' own reading of it. */
type LeftMs = (t: KitchenTimer) => number;

/** "How long is left": one timer's answer, or every picked timer's, each a sentence of its own. */
export function statusReply(timers: readonly KitchenTimer[], lang: Language, leftMs: LeftMs): string {
  const left = (t: KitchenTimer) => lang.durations.say(Math.ceil(leftMs(t) / 1000));
  if (timers.length === 1) {
    const t = timers[0]!;
    const args = { timer: timerName(t, lang), left: left(t) };
    return t.command
      ? lang.reply('timer.until', { left: left(t), command: t.command })
      : lang.reply(t.state === 'paused' ? 'timer.paused_left' : t.state === 'ringing' ? 'timer.ringing' : 'timer.left', args);
  }
  const item = (t: KitchenTimer) => {
    const args = { timer: capitalise(t.command ?? timerName(t, lang)), left: left(t) };
    return lang.phrase(t.state === 'ringing' ? 'timer.status_item_ringing' : t.state === 'paused' ? 'timer.status_item_paused' : 'timer.status_item', args);
  };
  // The items are sentences of their own: "2 timers. Rice timer: 5 minutes left. Pasta timer: ringing."
  return lang.reply('timer.status_many', { count: timers.length, timers: timers.map(item).join('. ') });
}

/** "Paused the rice timer with 5 minutes left and …", or the same resumed. */
export function pausedOrResumedReply(op: 'paused' | 'resumed', timers: readonly KitchenTimer[], lang: Language, leftMs: LeftMs): string {
  const left = (t: KitchenTimer) => lang.durations.say(Math.ceil(leftMs(t) / 1000));
  return lang.reply(`timer.${op}`, {
    timers: joinAll(
      timers.map((t) => lang.phrase(`timer.${op}_item`, { timer: timerName(t, lang), left: left(t) })),
      'and',
      lang,
    ),
  });
}
