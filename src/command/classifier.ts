import type { Clock } from '../core/clock.js';

/**
 * The async rule kind. A classifier (the Ollama intent pass plugs in here) looks at an utterance
 * the synchronous rules did not settle and answers with a label, or null for "not mine".
 *
 * The router waits for it (rules after it in the frame, and later utterances, wait their turn),
 * but never longer than the rule's timeoutMs: then the signal aborts and the utterance falls
 * through to the next rule, as if the classifier had said null. A classifier that throws also
 * falls through (and is logged): a slow or broken model must not make hark deaf.
 */
export interface ClassifierInput {
  /** The utterance as said (original text). */
  text: string;
  /** Normalised text (lower case, no punctuation). */
  norm: string;
  /** Frame whose rule asked. */
  frame: string;
  /** Stack, bottom to top. */
  stack: readonly string[];
  utteranceId: string;
  atMs: number;
}

export interface ClassifierVerdict {
  label: string;
  /** Extra slots for the rule's verbs ({slot} templates in say/action args). */
  slots?: Record<string, string | number>;
  confidence?: number;
  /**
   * Run once the rule's verbs have run (the intent pass asks its yes/no question here, so a `pop`
   * in the rule closes the rule's frame first instead of the question).
   */
  after?: () => void;
}

export interface Classifier {
  classify(input: ClassifierInput, signal: AbortSignal): Promise<ClassifierVerdict | null>;
}

export type ClassifierOutcome = 'label' | 'none' | 'timeout' | 'error';

/**
 * Ask once, bounded by the clock: resolves with the verdict, or null on "not mine", a bad answer,
 * an error or the timeout (which also aborts the call). Never rejects. `report` hears how it went.
 */
export function askClassifier(opts: {
  clock: Clock;
  classifier: Classifier;
  timeoutMs: number;
  input: ClassifierInput;
  onError: (err: unknown) => void;
  report: (outcome: ClassifierOutcome, verdict: ClassifierVerdict | null, ms: number) => void;
}): Promise<ClassifierVerdict | null> {
  const { clock } = opts;
  const started = clock.now();
  return new Promise((resolve) => {
    const controller = new AbortController();
    let done = false;
    const finish = (verdict: ClassifierVerdict | null, outcome: ClassifierOutcome): void => {
      if (done) return;
      done = true;
      clock.clearTimer(timer);
      opts.report(outcome, verdict, clock.now() - started);
      resolve(verdict);
    };
    const timer = clock.setTimer(opts.timeoutMs, () => {
      controller.abort();
      finish(null, 'timeout');
    });
    const failed = (err: unknown): void => {
      opts.onError(err);
      finish(null, 'error');
    };
    let pending: Promise<ClassifierVerdict | null>;
    try {
      pending = Promise.resolve(opts.classifier.classify(opts.input, controller.signal));
    } catch (err) {
      return failed(err);
    }
    pending.then((v) => {
      const valid = v && typeof v.label === 'string' && v.label ? v : null;
      finish(valid, valid ? 'label' : 'none');
    }, failed);
  });
}
