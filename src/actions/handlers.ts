import type { EffectSink } from '../router/effects.js';
import type { ActionRouter } from './action-router.js';
import type { KitchenTimers } from './timers.js';

/**
 * The actions hark carries out itself. Others (voice.set, continue, generate) are for the speech
 * and intent subsystems to register, or for targets through actions.forward. A last-wins action
 * whose effect can be cut short registers an `undo` beside its handler: the ActionRouter runs it
 * when a conflicting action supersedes it (the one place "stop what it started" lives).
 */
export function registerBuiltInHandlers(actions: ActionRouter, deps: { timers: KitchenTimers; emit: EffectSink; lastSpoken: () => string | undefined }): void {
  const { timers, emit } = deps;
  actions.on('stop', () => emit({ type: 'stop-speaking' }));
  // Stop has nothing to undo (what it stopped stays stopped). A superseded repeat is cut off before
  // the correction speaks ("repeat number 3. no, number 5").
  actions.on(
    'repeat',
    () => {
      const last = deps.lastSpoken();
      emit({ type: 'speak', text: last ?? 'I have not said anything yet.' });
    },
    { undo: () => emit({ type: 'stop-speaking' }) },
  );
  actions.on('timer.set', (a) => {
    const seconds = Number(a.args.seconds);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`timer.set needs a positive number of seconds, got ${JSON.stringify(a.args.seconds)}`);
    timers.set(seconds, typeof a.args.label === 'string' && a.args.label ? a.args.label : undefined);
  });
  actions.on('timer.cancel', (a) => timers.cancel({ ...(typeof a.args.label === 'string' ? { label: a.args.label } : {}), all: a.args.all === true }));
  actions.on('timer.status', (a) => timers.status(typeof a.args.label === 'string' ? a.args.label : undefined));
  actions.on('timer.done', (a) => {
    const label = typeof a.args.label === 'string' && a.args.label ? a.args.label : undefined;
    emit({ type: 'speak', text: label ? `${label.charAt(0).toUpperCase()}${label.slice(1)} timer done.` : 'Timer done.', earcon: 'timer' });
  });
}
