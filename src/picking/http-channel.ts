import type { PickResult } from './assignment.js';
import type { ResultChannel } from './sender.js';

/**
 * Results to the warehouse system over HTTP: a POST of the result's JSON. Taken means a 2xx reply;
 * anything else (a 5xx, a refusal, no answer within the timeout, no connection) is a failed send,
 * retried by the sender. `Idempotency-Key` carries the result's id, for a warehouse system that
 * de-duplicates by header rather than by body.
 */
export function httpChannel(o: { url: string; timeoutMs: number; token?: string | undefined }): ResultChannel {
  return {
    name: `http ${o.url}`,
    async send(result: PickResult): Promise<void> {
      const res = await fetch(o.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': result.id,
          ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
        },
        body: JSON.stringify(result),
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      // Read the body whatever it is, so the connection is free for the next result.
      const text = await res.text().catch(() => '');
      if (!res.ok) throw new Error(`${o.url} answered ${res.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
    },
  };
}
