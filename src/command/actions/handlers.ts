import type { ListBook } from '../lists.js';
import { registerListHandlers } from './list-handlers.js';
import type { TimerPick } from '../../language/requests.js';
import type { EffectSink } from '../../core/effects.js';
import type { ActionRouter, FiredAction } from './action-router.js';
import type { KitchenTimers } from './timers.js';
import { ringText } from '../../language/say.js';
import { english } from '../../language/pack/english.js';
import type { Language } from '../../language/pack/language.js';
import { numberedPart, referenceNumber } from '../answers.js';

/**
 * The actions hark carries out itself. Others (voice.set, continue, generate) are for the speech
 * and intent subsystems to register, or for targets through actions.forward. A last-wins action
 * whose effect can be cut short registers an `undo` beside its handler: the ActionRouter runs it
 * when a conflicting action supersedes it (the one place "stop what it started" lives).
 */
/**
 * `language`: the device's language of a code, the first for none. An action said in another of
 * the device's languages carries `lang` (the kitchen verb adds it), and its reply is said in it.
 */
export function registerBuiltInHandlers(
  actions: ActionRouter,
  deps: { timers: KitchenTimers; lists: ListBook; emit: EffectSink; lastSpoken: () => string | undefined; language?: (code?: string) => Language },
): void {
  const { timers, emit } = deps;
  const language = (code?: string) => deps.language?.(code) ?? english();
  // "stop" silences a ringing timer first; otherwise it stops hark talking.
  actions.on('stop', () => {
    if (!timers.stopRinging('voice')) emit({ type: 'stop-speaking' });
  });
  // Stop has nothing to undo (what it stopped stays stopped). A superseded repeat is cut off before
  // the correction speaks ("repeat number 3. no, number 5").
  actions.on(
    'repeat',
    (a) => {
      const last = deps.lastSpoken();
      // "repeat number 3": the third item (or sentence) of the last thing said.
      const n = referenceNumber(a.args.reference);
      if (n !== null && last !== undefined) {
        emit({ type: 'speak', text: numberedPart(last, n) ?? language().reply('repeat.no_number', { number: n }) });
        return;
      }
      emit({ type: 'speak', text: last ?? language().reply('repeat.nothing') });
    },
    { undo: () => emit({ type: 'stop-speaking' }) },
  );
  actions.on('timer.set', (a) => {
    const seconds = Number(a.args.seconds);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`timer.set needs a positive number of seconds, got ${JSON.stringify(a.args.seconds)}`);
    timers.set(seconds, str(a.args.label), str(a.args.command), str(a.args.lang));
  });
  for (const op of ['cancel', 'status', 'pause', 'resume'] as const) {
    actions.on(`timer.${op}`, (a) => timers.act(op, pickOf(a), a.args.all === true, 0, undefined, str(a.args.lang)));
  }
  for (const op of ['add', 'remove'] as const) {
    actions.on(`timer.${op}`, (a) => {
      const seconds = Number(a.args.seconds);
      if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`timer.${op} needs a positive number of seconds, got ${JSON.stringify(a.args.seconds)}`);
      timers.act(op, pickOf(a), false, seconds, undefined, str(a.args.lang));
    });
  }
  actions.on('timer.done', (a) => {
    const code = str(a.args.lang);
    emit({
      type: 'speak',
      text: ringText(str(a.args.label), Number(a.args.lateSeconds ?? 0) * 1000, language(code)),
      earcon: 'timer',
      ring: 0,
      ...(code ? { lang: code } : {}),
    });
  });
  registerListHandlers(actions, deps.lists, emit, language);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v ? v : undefined;
}

function pickOf(a: FiredAction): TimerPick {
  const pick: TimerPick = {};
  const label = str(a.args.label);
  if (label) pick.name = label;
  if (typeof a.args.startSeconds === 'number') pick.startSeconds = a.args.startSeconds;
  const room = str(a.args.room);
  if (room) pick.area = { room, here: a.args.here !== false };
  if (a.args.latest === true) pick.latest = true;
  return pick;
}
