import type { Clock } from '../core/clock.js';
import { CircuitBreaker, type Permit, type RefusalWording } from '../core/circuit-breaker.js';

export interface OutageOptions {
  failures: number;
  openMs: number;
}

/** Said in the log and to the router when a request is not sent. */
const OUTAGE_WORDING: RefusalWording = {
  open: (left, last) => `not asking for ${Math.ceil(left / 1000)} s after: ${last}`,
  probing: 'a probe request is already in flight',
};

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
 * The breaking itself is the shared CircuitBreaker (the one speech-to-text uses for the cloud);
 * this adds only what the intent pass needs: when an outage began and ended. Pure: time from the Clock.
 */
export class OutageBreaker {
  private readonly circuit: CircuitBreaker;
  private down = false;

  constructor(opts: OutageOptions & { clock: Clock }) {
    this.circuit = new CircuitBreaker({ failures: opts.failures, openMs: opts.openMs }, opts.clock, undefined, OUTAGE_WORDING);
  }

  /** True between the first failure of an outage and the next success. */
  get inOutage(): boolean {
    return this.down;
  }

  permit(): Permit {
    return this.circuit.acquire();
  }

  /** The model answered (whatever it said). Returns true when this ended an outage. */
  success(): boolean {
    const ended = this.down;
    this.down = false;
    this.circuit.success();
    return ended;
  }

  /** A request failed. `announce` is true for the first failure of an outage. */
  failure(reason: string): { announce: boolean; opened: boolean } {
    const announce = !this.down;
    this.down = true;
    return { announce, opened: this.circuit.failure(reason) };
  }

  /** A request gave up because its caller did (a rule's timeout): no verdict on the model. */
  release(): void {
    this.circuit.release();
  }
}
