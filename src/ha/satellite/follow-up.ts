import type { Clock, TimerHandle } from '../../core/clock.js';

/**
 * The window after Home Assistant asked something back, in which the answer needs no wake phrase;
 * when it passes unanswered, `expired` runs once.
 */
export class FollowUpWindow {
  private until = 0;
  private timer: TimerHandle | null = null;

  constructor(private readonly clock: Clock) {}

  get open(): boolean {
    return this.clock.now() < this.until;
  }

  start(ms: number, expired: () => void): void {
    this.close();
    this.until = this.clock.now() + ms;
    this.timer = this.clock.setTimer(ms, () => {
      this.timer = null;
      expired();
    });
  }

  close(): void {
    this.until = 0;
    this.clock.clearTimer(this.timer);
    this.timer = null;
  }
}
