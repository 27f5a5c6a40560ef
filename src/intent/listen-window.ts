import type { Clock, TimerHandle } from '../core/clock.js';

/**
 * The two-buffer sliding context window, for always-listen mode, where hark hears a whole kitchen
 * and must not call the model for every sentence
 * (docs/decisions.md#always-listen-mode-a-two-buffer-window-deduplication-a-rate-limit).
 *
 * - Unprocessed: what was heard since the last call, the text to classify (max bufferMaxChars;
 *   going over forces a call).
 * - Context: text already classified, sent as "previous context" only, so "it" and "the milk"
 *   resolve without the model re-proposing what it already proposed (max contextChars, FIFO).
 *
 * A call is triggered by a question mark, a pause (the caller signals it: a closed query, an
 * utterance end), inactivity (triggerTimeoutMs after the last text) or overflow; at most one call
 * per rateLimitMs (a trigger inside it is skipped; the inactivity timer tries again). Pure: time
 * from the Clock, the only output is the batch handed back (or to onBatch, from the timer).
 */
export type Trigger = 'question' | 'pause' | 'inactivity' | 'overflow';

export interface Heard {
  text: string;
  ids: readonly string[];
}

export interface Batch {
  /** What to classify. */
  newText: string;
  /** Earlier text, for context only ('' when none). */
  context: string;
  ids: string[];
  trigger: Trigger;
}

export interface ListenWindowOptions {
  bufferMaxChars: number;
  contextChars: number;
  triggerTimeoutMs: number;
  rateLimitMs: number;
  triggerOnQuestionMark: boolean;
  triggerOnPause: boolean;
}

const chars = (items: readonly Heard[]): number => items.reduce((n, h) => n + h.text.length + 1, 0) - (items.length ? 1 : 0);

export class ListenWindow {
  private unprocessed: Heard[] = [];
  private contextItems: Heard[] = [];
  private lastCallAt = Number.NEGATIVE_INFINITY;
  private timer: TimerHandle | undefined;

  constructor(private readonly opts: ListenWindowOptions & { clock: Clock; onBatch: (batch: Batch) => void }) {}

  /** Something was heard. Returns the batch to classify now, or null (waiting for a trigger). */
  add(heard: Heard): Batch | null {
    const text = heard.text.trim();
    if (!text) return null;
    this.unprocessed.push({ text, ids: [...heard.ids] });
    this.arm(this.opts.triggerTimeoutMs);
    if (chars(this.unprocessed) > this.opts.bufferMaxChars) return this.take('overflow', true);
    if (this.opts.triggerOnQuestionMark && text.includes('?')) return this.take('question', false);
    return null;
  }

  /** The speaker paused (an utterance or a query ended). */
  pause(): Batch | null {
    return this.opts.triggerOnPause ? this.take('pause', false) : null;
  }

  /** Characters waiting to be classified, and held as context. */
  get sizes(): { unprocessed: number; context: number } {
    return { unprocessed: chars(this.unprocessed), context: chars(this.contextItems) };
  }

  /** Forget both buffers (a proposal was settled; what led to it is no context for the next). */
  clear(): void {
    this.unprocessed = [];
    this.contextItems = [];
    this.disarm();
  }

  dispose(): void {
    this.disarm();
  }

  private take(trigger: Trigger, force: boolean): Batch | null {
    if (this.unprocessed.length === 0) return null;
    const now = this.opts.clock.now();
    const wait = this.lastCallAt + this.opts.rateLimitMs - now;
    // Overflow is forced past the rate limit: waiting would only grow the buffer further.
    if (!force && wait > 0) {
      // Skipped; make sure something retries once the limit has passed.
      if (!this.timer) this.arm(wait);
      return null;
    }
    this.lastCallAt = now;
    const batch: Batch = {
      newText: this.unprocessed.map((h) => h.text).join(' '),
      context: this.contextItems.map((h) => h.text).join(' '),
      ids: this.unprocessed.flatMap((h) => h.ids),
      trigger,
    };
    this.contextItems.push(...this.unprocessed);
    this.unprocessed = [];
    this.trimContext();
    return batch;
  }

  private trimContext(): void {
    while (this.contextItems.length > 1 && chars(this.contextItems) > this.opts.contextChars) this.contextItems.shift();
    const only = this.contextItems[0];
    // One utterance longer than the whole window keeps its most recent part.
    if (this.contextItems.length === 1 && only && only.text.length > this.opts.contextChars) {
      this.contextItems[0] = { text: only.text.slice(-this.opts.contextChars), ids: only.ids };
    }
  }

  private arm(ms: number): void {
    this.disarm();
    this.timer = this.opts.clock.setTimer(ms, () => {
      this.timer = undefined;
      const batch = this.take('inactivity', false);
      if (batch) this.opts.onBatch(batch);
    });
  }

  private disarm(): void {
    if (this.timer) this.opts.clock.clearTimer(this.timer);
    this.timer = undefined;
  }
}
