import type { Effect } from '../core/effects.js';
import type { Speech } from '../speech/create.js';
import type { TurnCascade } from '../turn/turns.js';

/** Which queue priority a spoken line gets: a question that waits for an answer and alerts go first. */
function priorityFor(effect: Extract<Effect, { type: 'speak' }>, topFrame: string | undefined): 'confirm' | 'alert' | 'normal' {
  if (topFrame === 'confirm') return 'confirm';
  if (effect.earcon === 'timer' || effect.earcon === 'error') return 'alert';
  return 'normal';
}

/**
 * Carry out what the command core asks of hark's voice: speak, play an earcon, stop speaking.
 * Everything else (actions, submits, timers) is recorded by the caller; this is only the speaker.
 */
export function applySpeechEffect(
  effect: Effect,
  speech: Speech | null,
  cascade: TurnCascade | null,
  topFrame: string | undefined,
  endOfSpeechAt?: number,
): void {
  if (!speech) return;
  switch (effect.type) {
    case 'speak':
      // The response cascade: an answer is prepared while the person may still go on, and played 2 s after they
      // stopped; speaking again throws it away. Notices ("Timer set.") are said at once.
      if (effect.answer && cascade && speech.tts) {
        cascade.start(
          { kind: 'answer', text: effect.text, ...(effect.lang ? { lang: effect.lang } : {}) },
          endOfSpeechAt === undefined ? {} : { endOfSpeechAt },
        );
        return;
      }
      {
        const ring = effect.ring !== undefined ? { ring: effect.ring } : {};
        const rate = effect.rate !== undefined ? { rate: effect.rate } : {};
        const lang = effect.lang ? { lang: effect.lang } : {};
        if (effect.earcon) speech.queue.earcon(effect.earcon, { priority: priorityFor(effect, topFrame), ...ring });
        speech.queue.say(effect.text, { priority: priorityFor(effect, topFrame), ...ring, ...rate, ...lang });
      }
      return;
    case 'earcon':
      speech.queue.earcon(effect.name);
      return;
    case 'stop-speaking':
      speech.queue.stop('command');
      cascade?.interrupt('command');
      return;
    case 'action':
      if (effect.name === 'voice.set' && typeof effect.args.voice === 'string') speech.tts?.setVoice(effect.args.voice);
      return;
    default:
      return;
  }
}
