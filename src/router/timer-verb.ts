import { parseTimerRequest } from '../intent/timer-request.js';
import type { Slots } from './compile.js';
import type { EffectSink } from './effects.js';
import { normalise } from './text.js';

/** Kitchen timers run from one second to a day; anything else is a mishearing. */
export const TIMER_MAX_SECONDS = 86_400;

/**
 * The `timer:` verb: turns a matched timer sentence into a timer action request. Slots, from the
 * default patterns or a technician's own: `spec` (the whole request after "set"), or `duration`
 * and `label`; `all` for "cancel all timers".
 */
export function timerVerb(op: 'set' | 'cancel' | 'status', slots: Slots, emit: EffectSink): void {
  const label = slots.label ? normalise(slots.label) : undefined;
  if (op === 'cancel') {
    emit({ type: 'action', name: 'timer.cancel', args: slots.all ? { all: true } : label ? { label } : {} });
    return;
  }
  if (op === 'status') {
    emit({ type: 'action', name: 'timer.status', args: label ? { label } : {} });
    return;
  }
  const words = normalise(slots.spec ?? slots.duration ?? '').split(' ').filter(Boolean);
  const request = parseTimerRequest(words);
  if (!request) {
    emit({ type: 'speak', text: 'For how long? For example: set a timer for ten minutes.' });
    return;
  }
  if (request.seconds < 1 || request.seconds > TIMER_MAX_SECONDS) {
    emit({ type: 'speak', text: 'A timer can run from 1 second to 24 hours.' });
    return;
  }
  const finalLabel = label ?? request.label;
  emit({ type: 'action', name: 'timer.set', args: finalLabel ? { seconds: request.seconds, label: finalLabel } : { seconds: request.seconds } });
}
