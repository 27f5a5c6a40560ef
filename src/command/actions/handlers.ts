import type { ListBook } from '../lists.js';
import { registerListHandlers } from './list-handlers.js';
import type { TimerPick } from '../../language/requests.js';
import type { EffectSink } from '../../core/effects.js';
import type { ActionRouter, FiredAction } from './action-router.js';
import { ringText, type KitchenTimers } from './timers.js';
import { numberedPart, referenceNumber } from '../answers.js';

/**
 * The actions hark carries out itself. Others (voice.set, continue, generate) are for the speech
 * and intent subsystems to register, or for targets through actions.forward. A last-wins action
 * whose effect can be cut short registers an `undo` beside its handler: the ActionRouter runs it
 * when a conflicting action supersedes it (the one place "stop what it started" lives).
 */
export function registerBuiltInHandlers(actions: ActionRouter, deps: { timers: KitchenTimers; lists: ListBook; emit: EffectSink; lastSpoken: () => string | undefined }): void {
  const { timers, emit } = deps;
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
        emit({ type: 'speak', text: numberedPart(last, n) ?? `There is no number ${n}.` });
        return;
      }
      emit({ type: 'speak', text: last ?? 'I have not said anything yet.' });
    },
    { undo: () => emit({ type: 'stop-speaking' }) },
  );
  actions.on('timer.set', (a) => {
    const seconds = Number(a.args.seconds);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`timer.set needs a positive number of seconds, got ${JSON.stringify(a.args.seconds)}`);
    timers.set(seconds, str(a.args.label), str(a.args.command));
  });
  for (const op of ['cancel', 'status', 'pause', 'resume'] as const) {
    actions.on(`timer.${op}`, (a) => timers.act(op, pickOf(a), a.args.all === true));
  }
  for (const op of ['add', 'remove'] as const) {
    actions.on(`timer.${op}`, (a) => {
      const seconds = Number(a.args.seconds);
      if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`timer.${op} needs a positive number of seconds, got ${JSON.stringify(a.args.seconds)}`);
      timers.act(op, pickOf(a), false, seconds);
    });
  }
  actions.on('timer.done', (a) => {
    emit({ type: 'speak', text: ringText(str(a.args.label), Number(a.args.lateSeconds ?? 0) * 1000), earcon: 'timer', ring: 0 });
  });
  registerListHandlers(actions, deps.lists, emit);
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
