import type { PreparedProposal } from '../intent/intent-pass.js';
import type { Speech } from '../speech/create.js';
import type { CascadeSteps } from '../turn/cascade.js';
import type { Turn, Worked } from '../turn/turns.js';

export interface TurnStepDeps {
  speech: Speech;
  /** The intent pass's look-ahead (IntentPass.prepare) for the request open in `frame`, when the pass runs. */
  prepare: () => ((text: string, signal: AbortSignal, frame: string) => Promise<PreparedProposal>) | null;
  /** Hand the open request over now (SegmentPath.submitHeld): the pass answers it from the prepared reply. */
  submitHeld: (frame: string, signal: AbortSignal) => Promise<unknown>;
}

const langOf = (w: Worked): { lang: string } | undefined => (w.lang ? { lang: w.lang } : undefined);

/**
 * The cascade's steps on the appliance. An answer: the text as is, rendered by espeak-ng (or the
 * language's voice), played as a clip; only a device with a voice to render with sends an answer
 * here (applySpeechEffect), so there is always one. A proposal: the model asked at the first timer
 * (the reply kept for the submission), the question it leads to, in the request's language,
 * rendered at the second with that language's voice (the voice's cache then has it when the confirm
 * frame says it), and at the third the request handed over, so the question is said at once.
 */
export function turnSteps(d: TurnStepDeps): CascadeSteps<Turn, Worked, Int16Array | null> {
  const { speech } = d;
  return {
    model: async (turn, signal) => {
      if (turn.kind === 'answer') return { turn, spoken: turn.text, ...(turn.lang ? { lang: turn.lang } : {}) };
      const prepare = d.prepare();
      if (!prepare) return { turn, spoken: null };
      const p = await prepare(turn.text, signal, turn.frame);
      return { turn, spoken: p.spoken, ...(p.lang ? { lang: p.lang } : {}) };
    },
    render: async (w) => {
      if (w.turn.kind === 'answer') {
        if (!speech.tts) throw new Error('an answer reached the response cascade on a device with no voice to render it');
        return speech.tts.render(w.spoken!, langOf(w));
      }
      // Rendering ahead is only a head start: without a voice, or on a failure, the question is rendered when said.
      if (!speech.tts || w.spoken === null) return null;
      return speech.tts.render(w.spoken, langOf(w)).catch(() => null);
    },
    play: async (pcm, w, signal) => {
      if (w.turn.kind === 'answer') return pcm ? speech.queue.clip(pcm, w.turn.text, { priority: 'readback' }).done : undefined;
      return d.submitHeld(w.turn.frame, signal);
    },
    stopPlayback: () => speech.queue.stop('barge-in'),
  };
}
