import type { Clock, TimerHandle } from '../core/clock.js';
import type { LastRequest } from '../language/situation.js';
import type { EffectSink } from '../core/effects.js';

/**
 * The follow-up window (router.followUpMs): open for a few seconds after hark acts on a command,
 * renewed by each act, with what hark last did for a follow-up to lean on. Announces itself
 * (`follow-up` effects: the LED follows them). Time from the Clock only.
 */
export class FollowUpWindow {
  private follow: { until: number; timer: TimerHandle } | null = null;
  private lastRequest: LastRequest | null = null;

  constructor(private readonly opts: { clock: Clock; ms: number; emit: EffectSink }) {}

  get open(): boolean {
    return this.follow !== null && this.opts.clock.now() < this.follow.until;
  }

  /** What was last done, while the window is open. */
  get last(): LastRequest | null {
    return this.open ? this.lastRequest : null;
  }

  /** A command was carried out (`name`, `args`: the fired action): remember it and open the window. */
  acted(name: string, args: Record<string, unknown>): void {
    this.remember(name, args);
    if (this.opts.ms <= 0) return;
    const { clock } = this.opts;
    if (this.follow) clock.clearTimer(this.follow.timer);
    const until = clock.now() + this.opts.ms;
    this.follow = {
      until,
      timer: clock.setTimer(this.opts.ms, () => {
        this.follow = null;
        this.lastRequest = null;
        this.opts.emit({ type: 'follow-up', open: false });
      }),
    };
    this.opts.emit({ type: 'follow-up', open: true, untilMs: until });
  }

  /** The timer just set now runs for `seconds` ("make it ten minutes" changed it). */
  lengthened(seconds: number): void {
    if (this.lastRequest?.kind === 'timer') this.lastRequest = { ...this.lastRequest, seconds };
  }

  dispose(): void {
    if (this.follow) this.opts.clock.clearTimer(this.follow.timer);
    this.follow = null;
  }

  private remember(name: string, args: Record<string, unknown>): void {
    if (name === 'timer.set' && typeof args.seconds === 'number' && args.command === undefined) {
      this.lastRequest = { kind: 'timer', seconds: args.seconds, ...(typeof args.label === 'string' ? { label: args.label } : {}) };
    } else if ((name === 'list.add' || name === 'list.remove') && typeof args.list === 'string') {
      this.lastRequest = { kind: 'list', op: name === 'list.add' ? 'add' : 'remove', list: args.list };
    } else if (name !== 'timer.add' && name !== 'timer.remove') {
      this.lastRequest = null;
    }
  }
}
