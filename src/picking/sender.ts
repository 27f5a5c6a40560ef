import { Backoff } from '../core/backoff.js';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { PickResult } from './assignment.js';
import type { Outbox } from './outbox.js';

/** A way to the warehouse system: resolves when it has taken the result, throws when it has not. */
export interface ResultChannel {
  readonly name: string;
  send(result: PickResult): Promise<void>;
}

export interface SenderOptions {
  outbox: Outbox;
  channel: ResultChannel;
  clock: Clock;
  wallNow: () => number;
  log: Logger;
  /** A result waits this long after its confirmation ("undo" can still take it back). */
  holdMs: number;
  retryFirstMs: number;
  retryMaxMs: number;
  onSent?: (r: PickResult) => void;
}

/** The warehouse settings a sender reads (picking.wms). */
export interface SenderTiming {
  holdMs: number;
  retryFirstMs: number;
  retryMaxMs: number;
}

/**
 * The sender the device and `hark simulate` both run: the warehouse is a real peer on the wall
 * clock, so its holds and retries are timed by the system clock even when the dialogue runs on a
 * virtual one.
 */
export function wallClockSender(outbox: Outbox, channel: ResultChannel, wms: SenderTiming, log: Logger, onSent?: (r: PickResult) => void): OutboxSender {
  return new OutboxSender({
    outbox,
    channel,
    clock: new SystemClock(),
    wallNow: Date.now,
    log,
    holdMs: wms.holdMs,
    retryFirstMs: wms.retryFirstMs,
    retryMaxMs: wms.retryMaxMs,
    ...(onSent ? { onSent } : {}),
  });
}

/**
 * Sends the outbox to the warehouse system, one result at a time and in order: the next goes only
 * once the one before it was taken, so the warehouse sees picks as they were confirmed. A failed
 * send is retried with a doubling delay, forever: a result is never dropped, and the warehouse
 * de-duplicates a repeat by its id (a reply lost on the way makes one).
 */
export class OutboxSender {
  private timer: TimerHandle | undefined;
  private sending: Promise<void> | null = null;
  private readonly backoff: Backoff;
  private stopped = false;
  private failures = 0;
  /** A kick came while a send was under way: look again once it is done. */
  private again = false;

  constructor(private readonly o: SenderOptions) {
    this.backoff = new Backoff(o.retryFirstMs, o.retryMaxMs);
  }

  /** Look at the outbox now (a pick was just confirmed, or at start). */
  kick(): void {
    if (this.stopped) return;
    if (this.sending) {
      this.again = true;
      return;
    }
    if (this.timer && this.failures > 0) return; // backing off: the retry timer will look
    this.o.clock.clearTimer(this.timer);
    this.timer = undefined;
    this.run();
  }

  private run(): void {
    this.again = false;
    this.sending = this.next().finally(() => {
      this.sending = null;
      if (this.again && !this.timer) this.kick();
    });
  }

  /** How many sends in a row have failed (0: the way is clear). */
  get failing(): number {
    return this.failures;
  }

  /** Resolves when nothing is being sent right now. */
  async idle(): Promise<void> {
    while (this.sending) await this.sending;
  }

  stop(): void {
    this.stopped = true;
    this.o.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  private later(ms: number): void {
    if (this.stopped) return;
    this.o.clock.clearTimer(this.timer);
    this.timer = this.o.clock.setTimer(ms, () => {
      this.timer = undefined;
      this.run();
    });
  }

  private async next(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const row = this.o.outbox.first();
      if (!row) return;
      const wait = row.createdAt + this.o.holdMs - this.o.wallNow();
      if (wait > 0) return this.later(wait);
      try {
        await this.o.channel.send(row.result);
      } catch (err) {
        const message = errorMessage(err);
        this.failures++;
        this.o.outbox.markFailed(row.seq, message);
        this.o.log.warn('pick result not taken; will retry', {
          channel: this.o.channel.name,
          id: row.id,
          seq: row.seq,
          attempts: row.attempts + 1,
          retryInMs: this.backoff.nextMs,
          error: message,
        });
        const delay = this.backoff.fail();
        return this.later(delay);
      }
      this.o.outbox.markSent(row.seq, this.o.wallNow());
      this.failures = 0;
      this.backoff.reset();
      this.o.onSent?.(row.result);
    }
  }
}
