import { Backoff } from '../../../core/backoff.js';
import { errorMessage } from '../../../core/errors.js';
import { DeliveryError, type Delivery, type Target } from './target.js';

export interface WebhookOptions {
  url: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Further attempts after the first fails (network error, timeout, 5xx, 408, 429). */
  retries: number;
  /** Wait before retry n is backoffMs * 2^(n-1). */
  backoffMs: number;
  headers?: Record<string, string>;
}

/**
 * POSTs each delivery as JSON. A 4xx other than 408/429 means the receiver rejected the body, so
 * it is not retried; everything else is retried with backoff, and the whole thing is bounded by
 * (retries + 1) × timeout plus the backoffs.
 */
export class WebhookTarget implements Target {
  readonly type = 'webhook';
  constructor(
    readonly name: string,
    private readonly opts: WebhookOptions,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  describe(): string {
    return `webhook ${this.opts.url}`;
  }

  async deliver(d: Delivery): Promise<string | undefined> {
    const body = JSON.stringify({ target: this.name, ...d });
    const attempts = this.opts.retries + 1;
    let last = '';
    // Retries within one delivery: no bound beyond the few `retries` allowed.
    const backoff = new Backoff(this.opts.backoffMs, Infinity);
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await this.sleep(backoff.fail());
      try {
        const res = await fetch(this.opts.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...this.opts.headers },
          body,
          signal: AbortSignal.timeout(this.opts.timeoutMs),
        });
        // Drain the body so the connection is released.
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return `HTTP ${res.status}`;
        last = `HTTP ${res.status}`;
        const retriable = res.status >= 500 || res.status === 408 || res.status === 429;
        if (!retriable) throw new DeliveryError(`${this.opts.url} answered ${last}; not retried`, attempt);
      } catch (err) {
        if (err instanceof DeliveryError) throw err;
        const e = err as Error;
        last = e.name === 'TimeoutError' || e.name === 'AbortError' ? `no answer within ${this.opts.timeoutMs} ms` : errorMessage(err);
      }
    }
    throw new DeliveryError(`${this.opts.url}: ${last} (after ${attempts} attempt${attempts === 1 ? '' : 's'})`, attempts);
  }
}
