import type { VirtualClock } from './clock.js';

/**
 * How `hark simulate` and `hark replay` move through virtual time: timer by timer, settling after
 * each, so what a timer sets off (a delivery, the cascade's next step, a ring) lands, and is reported,
 * at the time it happened, before the next timer or input line. `settle` resolves once nothing is in
 * flight (Conversation.settle: while the model or the voice works, virtual time follows real time).
 */
export class VirtualDrive {
  constructor(
    readonly clock: VirtualClock,
    readonly settle: () => Promise<void>,
  ) {}

  /** Run every timer due by `limitMs`, settling after each; the clock stays at the last one run. */
  async runTimers(limitMs: number): Promise<void> {
    for (;;) {
      const due = this.clock.nextDue();
      if (due === undefined || due > limitMs) break;
      this.clock.advanceTo(due);
      await this.settle();
    }
  }

  /** Move the clock to `targetMs`, timer by timer on the way. */
  async advanceTo(targetMs: number): Promise<void> {
    await this.runTimers(targetMs);
    this.clock.advanceTo(targetMs);
  }
}
