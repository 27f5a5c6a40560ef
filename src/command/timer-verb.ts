import { parseTimerCommand } from '../language/timer-language.js';
import type { Slots } from './compile.js';
import type { EffectSink } from '../core/effects.js';
import { kitchenVerb } from './kitchen-verb.js';
import { normalise } from '../language/text.js';

export { TIMER_MAX_SECONDS } from './kitchen-verb.js';

/**
 * The older `timer:` verb, for technicians' own pattern rules: slots `spec` (the whole request
 * after "set"), or `duration` and `label`; `all` for "cancel all timers". The default frames use
 * the `kitchen` rule and verb instead, which read the whole utterance.
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
  const words = normalise(`${slots.spec ?? slots.duration ?? ''} timer`)
    .split(' ')
    .filter(Boolean);
  const c = parseTimerCommand(words);
  const seconds = c && c.op === 'start' ? c.seconds : null;
  const name = label ?? (c && c.op === 'start' ? c.name : undefined);
  kitchenVerb({ family: 'timer', command: name ? ({ op: 'start', seconds, name } as never) : ({ op: 'start', seconds } as never) }, emit);
}
