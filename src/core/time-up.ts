/**
 * A one-shot "time is up" (hark is stopping and speech-to-text has no more time) that many short waits
 * race against. A plain pending promise would not do: each `Promise.race` against it leaves a reaction
 * on it until it settles — at shutdown — and that reaction keeps the race's own result (a whole
 * transcript) reachable, so a day of segments piled up. Here a wait that finished is
 * forgotten.
 */
export class TimeUp {
  private readonly waiting = new Set<() => void>();
  private up = false;

  /** Time is up: every wait still running gives its `instead` now, and every later wait too. */
  fire(): void {
    if (this.up) return;
    this.up = true;
    for (const stop of [...this.waiting]) stop();
    this.waiting.clear();
  }

  /** Waits still running (0 once they have all finished: nothing is kept for a finished one). */
  get pending(): number {
    return this.waiting.size;
  }

  /**
   * `p`'s outcome, or `instead` once time is up, whichever comes first. `p` already settled wins over
   * time already up, as `Promise.race([p, upPromise])` did.
   */
  race<T, U>(p: Promise<T>, instead: U): Promise<T | U> {
    return new Promise<T | U>((resolve, reject) => {
      const stop = () => resolve(instead);
      p.then(
        (v) => {
          this.waiting.delete(stop);
          resolve(v);
        },
        (e: unknown) => {
          this.waiting.delete(stop);
          reject(e);
        },
      );
      if (this.up) queueMicrotask(stop);
      else this.waiting.add(stop);
    });
  }
}
