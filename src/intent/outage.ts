import type { Clock } from '../core/clock.js';

/**
 * When Ollama is down, slow or missing its model, hark says so once per outage and stops asking
 * for a while, instead of making every cook wait out a 6 s timeout to hear the same apology.
 *
 * - A request that fails (after its retries) starts an outage; the first failure of an outage is
 *   the one hark announces (`announce: true`); later ones in the same outage are silent.
 * - After `failures` consecutive failures the breaker opens: no calls for `openMs`. Then one probe
 *   is let through; its failure opens it again (same outage, still silent), its success ends the
 *   outage, so the next failure is announced again.
 *
 * Pure: time from the Clock.
 */
export type Permit = { allowed: true; probe: boolean } | { allowed: false; reason: string; retryInMs: number };

export interface OutageOptions {
  failures: number;
  openMs: number;
}

export class OutageBreaker {
  private consecutive = 0;
  private openedAt: number | null = null;
  private probing = false;
  private down = false;
  private lastReason = '';

  constructor(private readonly opts: OutageOptions & { clock: Clock }) {}

  /** True between the first failure of an outage and the next success. */
  get inOutage(): boolean {
    return this.down;
  }
  get state(): 'closed' | 'open' | 'half-open' {
    if (this.openedAt === null) return 'closed';
    return this.opts.clock.now() - this.openedAt >= this.opts.openMs ? 'half-open' : 'open';
  }

  permit(): Permit {
    if (this.openedAt === null) return { allowed: true, probe: false };
    const left = this.openedAt + this.opts.openMs - this.opts.clock.now();
    if (left > 0) return { allowed: false, reason: `not asking for ${Math.ceil(left / 1000)} s after: ${this.lastReason}`, retryInMs: left };
    if (this.probing) return { allowed: false, reason: 'a probe request is already in flight', retryInMs: 0 };
    this.probing = true;
    return { allowed: true, probe: true };
  }

  /** The model answered (whatever it said). Returns true when this ended an outage. */
  success(): boolean {
    const ended = this.down;
    this.consecutive = 0;
    this.openedAt = null;
    this.probing = false;
    this.down = false;
    return ended;
  }

  /** A request failed. `announce` is true for the first failure of an outage. */
  failure(reason: string): { announce: boolean; opened: boolean } {
    const announce = !this.down;
    this.down = true;
    this.lastReason = reason;
    this.consecutive++;
    const wasProbe = this.probing;
    this.probing = false;
    const opened = wasProbe || this.consecutive >= this.opts.failures;
    if (opened) this.openedAt = this.opts.clock.now();
    return { announce, opened };
  }

  /** A request gave up because its caller did (a rule's timeout): no verdict on the model. */
  release(): void {
    this.probing = false;
  }
}
