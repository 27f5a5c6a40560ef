/**
 * Time as the functional core sees it. Pure state machines never read Date.now() or call setTimeout
 * themselves: they are handed a Clock, so tests drive them with a virtual one and `hark simulate`
 * runs hours of timers in milliseconds.
 */
export type TimerHandle = { readonly id: number };

export interface Clock {
  /** Milliseconds on this clock's own timeline (monotonic). */
  now(): number;
  setTimer(delayMs: number, fn: () => void): TimerHandle;
  clearTimer(handle: TimerHandle | undefined | null): void;
}

/** Wall-clock implementation for the daemon. */
export class SystemClock implements Clock {
  private readonly timers = new Map<number, NodeJS.Timeout>();
  private next = 1;
  now(): number {
    return performance.now();
  }
  setTimer(delayMs: number, fn: () => void): TimerHandle {
    const id = this.next++;
    const t = setTimeout(
      () => {
        this.timers.delete(id);
        fn();
      },
      Math.max(0, delayMs),
    );
    this.timers.set(id, t);
    return { id };
  }
  clearTimer(handle: TimerHandle | undefined | null): void {
    if (!handle) return;
    const t = this.timers.get(handle.id);
    if (t) clearTimeout(t);
    this.timers.delete(handle.id);
  }
}

/**
 * A clock that only moves when told to. Timers due at the same instant fire in the order they were
 * set; a timer set by a firing timer for "now" fires in the same advance.
 */
export class VirtualClock implements Clock {
  private t: number;
  private next = 1;
  private readonly timers = new Map<number, { at: number; seq: number; fn: () => void }>();
  constructor(startMs = 0) {
    this.t = startMs;
  }
  now(): number {
    return this.t;
  }
  setTimer(delayMs: number, fn: () => void): TimerHandle {
    const id = this.next++;
    this.timers.set(id, { at: this.t + Math.max(0, delayMs), seq: id, fn });
    return { id };
  }
  clearTimer(handle: TimerHandle | undefined | null): void {
    if (handle) this.timers.delete(handle.id);
  }
  /** Number of timers still waiting. */
  pending(): number {
    return this.timers.size;
  }
  /** Time of the earliest pending timer, or undefined. */
  nextDue(): number | undefined {
    let best: number | undefined;
    for (const t of this.timers.values()) if (best === undefined || t.at < best) best = t.at;
    return best;
  }
  /** Move to `targetMs`, firing every timer due on the way, in time order. */
  advanceTo(targetMs: number): void {
    for (;;) {
      let dueId: number | undefined;
      let due: { at: number; seq: number; fn: () => void } | undefined;
      for (const [id, timer] of this.timers) {
        if (timer.at > targetMs) continue;
        if (!due || timer.at < due.at || (timer.at === due.at && timer.seq < due.seq)) {
          due = timer;
          dueId = id;
        }
      }
      if (!due || dueId === undefined) break;
      this.timers.delete(dueId);
      if (due.at > this.t) this.t = due.at;
      due.fn();
    }
    if (targetMs > this.t) this.t = targetMs;
  }
  advanceBy(ms: number): void {
    this.advanceTo(this.t + ms);
  }
}
