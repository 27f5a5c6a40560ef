import { DeliveryError, type Delivery, type Target } from './target.js';

/** The target name frames' submissions are routed to while the intent pass runs (intent.frames). */
export const INTENT_TARGET = 'intent';

/**
 * What the intent pass answers a submission with. `handOver`: the model could not place the text
 * among hark's intents, and the frame's own target (Home Assistant) should have it instead.
 */
export type IntentOutcome = { detail: string } | { unavailable: string } | { handOver: string };

export interface IntentSink {
  /** One line for people: "Ollama qwen2.5:0.5b-instruct at http://127.0.0.1:11434". */
  describe(): string;
  submit(d: Delivery): Promise<IntentOutcome>;
}

/**
 * Hands submitted text to the intent pass: it asks the model for a proposal and hark
 * asks the person yes or no. Resolves once the question is asked, not once it is answered.
 *
 * When the model cannot be reached, the text goes to the frame's own target instead (the
 * submissions file by default), so a request made during an outage is kept, not lost.
 */
export class IntentTarget implements Target {
  readonly type = 'intent';
  constructor(
    readonly name: string,
    private readonly sink: IntentSink,
    private readonly fallback: (frame: string | undefined) => Target | undefined,
    /** The frame's own target waits for this submission (Home Assistant asked something back): straight there. */
    private readonly direct: (d: Delivery) => boolean = () => false,
  ) {}

  describe(): string {
    return `intent pass (${this.sink.describe()})`;
  }

  async deliver(d: Delivery): Promise<string | undefined> {
    const straight = this.direct(d) ? this.fallback(d.frame) : undefined;
    if (straight) return `an answer for ${straight.describe()}: ${(await straight.deliver(d)) ?? 'delivered'}`;
    const outcome = await this.sink.submit(d);
    if ('detail' in outcome) return outcome.detail;
    const other = this.fallback(d.frame);
    if ('handOver' in outcome) {
      if (!other) throw new DeliveryError(`the intent model could not place it (${outcome.handOver}) and the frame has no target of its own`, 1);
      return `the intent model could not place it (${outcome.handOver}); handed to ${other.describe()}: ${(await other.deliver(d)) ?? 'delivered'}`;
    }
    if (!other) throw new DeliveryError(`intent model unavailable: ${outcome.unavailable}`, 1);
    const kept = await other.deliver(d);
    return `intent model unavailable (${outcome.unavailable}); kept in ${other.describe()}${kept && !other.describe().includes(kept) ? `: ${kept}` : ''}`;
  }
}
