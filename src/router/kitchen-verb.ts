import { LIST_VERB_STARTS, parseListCommand } from '../kitchen/list-language.js';
import { parseTimerCommand, TIMER_VERB_STARTS, type TimerCommand, type TimerPick } from '../kitchen/timer-language.js';
import type { EffectSink } from './effects.js';

/** Kitchen timers run from one second to a day; anything else is a mishearing. */
export const TIMER_MAX_SECONDS = 86_400;

export type KitchenRequest = { family: 'timer'; command: TimerCommand } | { family: 'list'; command: NonNullable<ReturnType<typeof parseListCommand>> };

/**
 * Could a timer or list request go on from these words ("cancel" … "the rice timer", "add" … "eggs
 * to the list")? Used to hold off acting early on a phrase that is also a request's first words.
 */
export function mayStartKitchen(words: readonly string[]): boolean {
  if (!words.length) return false;
  return [...TIMER_VERB_STARTS, ...LIST_VERB_STARTS].some((v) => v.length >= words.length && words.every((w, i) => v[i] === w));
}

/** The kitchen language over one utterance's words: a timer or list request, or null. */
export function parseKitchen(words: readonly string[], area: string | undefined): KitchenRequest | null {
  const timer = parseTimerCommand(words, area ? { area } : {});
  if (timer) return { family: 'timer', command: timer };
  const list = parseListCommand(words);
  return list ? { family: 'list', command: list } : null;
}

function pickArgs(p: TimerPick): Record<string, unknown> {
  return {
    ...(p.name ? { label: p.name } : {}),
    ...(p.startSeconds !== undefined ? { startSeconds: p.startSeconds } : {}),
    ...(p.area ? { room: p.area.room, here: p.area.here } : {}),
    ...(p.latest ? { latest: true } : {}),
  };
}

/**
 * The `kitchen` verb: a parsed kitchen request becomes an action request (timer.set, timer.cancel,
 * timer.status, timer.pause, timer.resume, timer.add, timer.remove; list.add, list.remove,
 * list.read, list.clear), or a question back when something is missing.
 */
export function kitchenVerb(request: KitchenRequest, emit: EffectSink): void {
  if (request.family === 'list') {
    const c = request.command;
    emit({ type: 'action', name: `list.${c.op}`, args: 'item' in c ? { list: c.list, item: c.item } : { list: c.list } });
    return;
  }
  const c = request.command;
  switch (c.op) {
    case 'start-many':
      for (const t of c.timers) kitchenVerb({ family: 'timer', command: { op: 'start', seconds: t.seconds, ...(t.name ? { name: t.name } : {}) } }, emit);
      return;
    case 'start':
    case 'delay': {
      if (c.seconds === null) {
        emit({ type: 'speak', text: 'For how long? For example: set a timer for ten minutes.' });
        return;
      }
      if (c.seconds < 1 || c.seconds > TIMER_MAX_SECONDS) {
        emit({ type: 'speak', text: 'A timer can run from 1 second to 24 hours.' });
        return;
      }
      const extra = c.op === 'delay' ? { command: c.command } : c.name ? { label: c.name } : {};
      emit({ type: 'action', name: 'timer.set', args: { seconds: c.seconds, ...extra } });
      return;
    }
    case 'add':
    case 'remove':
      emit({ type: 'action', name: `timer.${c.op}`, args: { seconds: c.seconds, ...pickArgs(c.pick) } });
      return;
    default:
      emit({ type: 'action', name: `timer.${c.op}`, args: { ...pickArgs(c.pick), ...(c.all ? { all: true } : {}) } });
  }
}
