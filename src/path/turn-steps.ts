import type { PreparedProposal } from '../intent/intent-pass.js';
import type { Speech } from '../speech/create.js';
import type { CascadeSteps } from '../turn/cascade.js';
import type { Turn, Worked } from '../turn/turns.js';

export interface TurnStepDeps {
  speech: Speech;
  /** The intent pass's look-ahead (IntentPass.prepare), when the pass runs. */
  prepare: () => ((text: string, signal: AbortSignal) => Promise<PreparedProposal>) | null;
  /** Hand the open request over now (SegmentPath.submitHeld): the pass answers it from the prepared reply. */
  submitHeld: (frame: string, signal: AbortSignal) => Promise<unknown>;
}

/**
 * The cascade's steps on the appliance. An answer: the text as is, rendered by espeak-ng, played as a
 * clip; with no voice to render with (simulate and replay, whose playback is modelled on the clock),
 * said through the queue at the moment the clip would play, so the cascade's timing is the device's. A proposal: the model asked at the first timer (the reply kept for the submission), the
 * question it leads to rendered at the second (espeak-ng's cache then has it when the confirm frame
 * says it), and at the third the request handed over, so the question is said at once.
 */
export function turnSteps(d: TurnStepDeps): CascadeSteps<Turn, Worked, Int16Array | null> {
  const { speech } = d;
  return {
    model: async (turn, signal) => {
      if (turn.kind === 'answer') return { turn, spoken: turn.text };
      const prepare = d.prepare();
      if (!prepare) return { turn, spoken: null };
      return { turn, spoken: (await prepare(turn.text, signal)).spoken };
    },
    render: async (w) => {
      if (w.turn.kind === 'answer') {
        if (!speech.tts) return null;
        return speech.tts.render(w.spoken!, w.turn.lang ? { lang: w.turn.lang } : undefined);
      }
      // Rendering ahead is only a head start: without a voice, or on a failure, the question is rendered when said.
      if (!speech.tts || w.spoken === null) return null;
      return speech.tts.render(w.spoken).catch(() => null);
    },
    play: async (pcm, w, signal) => {
      if (w.turn.kind === 'answer') {
        if (pcm) return speech.queue.clip(pcm, w.turn.text, { priority: 'readback' }).done;
        return speech.tts ? undefined : speech.queue.say(w.turn.text, { priority: 'readback', ...(w.turn.lang ? { lang: w.turn.lang } : {}) }).done;
      }
      return d.submitHeld(w.turn.frame, signal);
    },
    stopPlayback: () => speech.queue.stop('barge-in'),
  };
}
