import type { Clock, TimerHandle } from '../../core/clock.js';

/**
 * A run Home Assistant cancelled before answering (run-end.ts), held until what follows says why:
 * a disconnect (it is stopping), an announcement (it is the answer), or nothing within the window
 * (`unexplained` runs). One at a time; a newer run or hark stopping settles it quietly.
 */
export class CancelledRun<C> {
  private held: { conn: C; timer: TimerHandle } | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  hold(conn: C, unexplained: () => void): void {
    this.settle();
    const timer = this.clock.setTimer(this.windowMs, () => {
      this.held = null;
      unexplained();
    });
    this.held = { conn, timer };
  }

  /** Settles the held run (only `conn`'s, when given); true when there was one to settle. */
  settle(conn?: C): boolean {
    if (!this.held || (conn !== undefined && this.held.conn !== conn)) return false;
    this.clock.clearTimer(this.held.timer);
    this.held = null;
    return true;
  }
}
