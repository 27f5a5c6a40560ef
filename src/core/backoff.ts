/**
 * The one exponential backoff of hark's reconnects and restarts (the microphone's recorder,
 * Deepgram's socket, aplay, the broker): the first failure waits `initialMs`, each next one twice
 * the last, never more than `maxMs`; a success starts over. Pure: it counts and computes, the
 * caller owns the timer.
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly initialMs: number,
    private readonly maxMs: number,
  ) {}

  /** One more failure in a row: the wait before the next attempt. */
  fail(): number {
    this.failures++;
    return this.waitAfter(this.failures);
  }

  /** It worked (or ran long enough to count as a fresh start): the next failure waits `initialMs`. */
  reset(): void {
    this.failures = 0;
  }

  /** What the next failure will wait (for logs and status). */
  get nextMs(): number {
    return this.waitAfter(this.failures + 1);
  }

  private waitAfter(failures: number): number {
    // Doubling stops at the bound: 2 ** failures would overflow to Infinity after ~1000 failures.
    let wait = this.initialMs;
    for (let i = 1; i < failures && wait < this.maxMs; i++) wait *= 2;
    return Math.min(this.maxMs, wait);
  }
}
