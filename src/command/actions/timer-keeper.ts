import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { TimerRow } from '../../store/timers.js';
import type { KitchenTimer, TimerKeeper } from './timers.js';

/** The store's timer table as the keeper needs it (Store.timers() satisfies this). */
export interface TimerTableLike {
  save(t: TimerRow): void;
  remove(id: number): void;
  all(): TimerRow[];
}

/**
 * Keeps kitchen timers in the store across restarts. The timers run on the process clock, which
 * starts again at every boot, so rows hold wall-clock times and this converts both ways. A failed
 * write is logged and hark carries on: the timer still rings this time, it only would not survive
 * a power cut.
 */
export class StoreTimerKeeper implements TimerKeeper {
  constructor(
    private readonly table: TimerTableLike,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly wallNow: () => number = Date.now,
  ) {}

  save(t: KitchenTimer): void {
    const dueAt = t.state === 'paused' ? null : Math.round(this.wallNow() + (t.dueAtMs - this.clock.now()));
    this.guard('save', () =>
      this.table.save({
        id: t.id,
        label: t.label ?? null,
        seconds: t.seconds,
        state: t.state,
        dueAt,
        remainingMs: t.remainingMs ?? null,
        command: t.command ?? null,
        lang: t.lang ?? null,
      }),
    );
  }

  remove(id: number): void {
    this.guard('remove', () => this.table.remove(id));
  }

  /** Every kept timer, in this process's clock time. */
  load(): KitchenTimer[] {
    let rows: TimerRow[] = [];
    this.guard('load', () => (rows = this.table.all()));
    const offset = this.clock.now() - this.wallNow();
    return rows.map((r) => ({
      id: r.id,
      seconds: r.seconds,
      state: r.state,
      dueAtMs: r.dueAt === null ? this.clock.now() : r.dueAt + offset,
      ...(r.label ? { label: r.label } : {}),
      ...(r.remainingMs !== null ? { remainingMs: r.remainingMs } : {}),
      ...(r.command ? { command: r.command } : {}),
      ...(r.lang ? { lang: r.lang } : {}),
    }));
  }

  private guard(what: string, fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.log.error(`could not ${what} a kept timer`, { error: errorMessage(err) });
    }
  }
}
