import type { Clock, TimerHandle } from '../core/clock.js';
import type { LastRequest } from '../language/situation.js';
import type { Reading } from '../language/requests.js';
import type { EffectSink } from '../core/effects.js';
import { followUpStep, type FollowUpStep } from './follow-up.js';
import type { Language } from '../language/pack/language.js';

/** What the open window takes of words said without the wake word. */
export type WindowTake =
  /** A follow-up on what was just done ("and two pints of milk", "make it ten"): this step. */
  | { kind: 'follow-up'; step: FollowUpStep }
  /** A timer or list request said plainly ("and a 4 minute timer for the wings"): as if the wake word came first. */
  | { kind: 'request' };

/** Where words said now would land. */
export interface WindowScene {
  /** Only the base frame is open. */
  atBase: boolean;
  /** The top frame is a query kept open under a request (it held words). */
  inQuery: boolean;
  /** The words start with the wake phrase: the router's, not the window's. */
  woken: boolean;
}

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

  /**
   * The window's part of "is this said to hark?", asked the same way whether hark only wonders
   * (the interruption filter, while it speaks) or acts (dispatch): a follow-up on what was just
   * done, or a timer or list request that acts. A question ("did the timer go off?") is as likely
   * asked of a colleague; other frames answer for themselves. `read` is asked only when the window
   * could take anything.
   */
  take(scene: WindowScene, read: () => Reading | null, speaking?: (code?: string) => Language): WindowTake | null {
    if (!this.open || scene.woken || (!scene.atBase && !scene.inQuery)) return null;
    const r = read();
    if (!r) return null;
    if (r.kind === 'follow-up') {
      const step = this.last ? followUpStep(r.follow, this.last, speaking?.(r.lang)) : null;
      return step ? { kind: 'follow-up', step } : null;
    }
    return (r.kind === 'timer' || r.kind === 'list') && !r.question ? { kind: 'request' } : null;
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
