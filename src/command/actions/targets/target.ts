/**
 * Where submitted text and forwarded actions go. Each target is an adapter (file, webhook, speak,
 * and later the intent pass); the command core only knows this interface.
 */
export interface Delivery {
  kind: 'submit' | 'action';
  /** Command-core clock time (virtual in `hark simulate`). */
  atMs: number;
  /** submit: the frame that submitted, its text, inventory items, and the utterances it came from. */
  frame?: string;
  text?: string;
  items?: string[];
  utteranceIds?: string[];
  /** submit: the language the words were said in, when not the device's first (whoever answers them answers in it). */
  lang?: string;
  /** action: the fired action. */
  action?: string;
  args?: Record<string, unknown>;
}

export interface Target {
  readonly name: string;
  readonly type: string;
  /** One line for people: "file /var/lib/hark/submissions.jsonl". */
  describe(): string;
  /** Resolves with a short detail ("HTTP 200") once delivered; rejects with a DeliveryError. */
  deliver(d: Delivery): Promise<string | undefined>;
}

export class DeliveryError extends Error {
  constructor(
    message: string,
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}
