import { errorMessage } from '../../core/errors.js';
import { readReply, type ConversationReply, type ConversationRequest } from './reply.js';

/** How a call failed, for the spoken notice and the hint in the log. */
export type FailureKind = 'no-token' | 'unreachable' | 'timeout' | 'unauthorized' | 'http' | 'garbled';

export class HaCallError extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'HaCallError';
  }
}

export interface HaClientOptions {
  /** Base URL without a trailing slash (http://homeassistant.local:8123). */
  url: string;
  /** The long-lived access token; undefined when HARK_HA_TOKEN is not set. */
  token: string | undefined;
  /** Hard limit per request (connect, headers and body together). */
  timeoutMs: number;
  fetch?: typeof fetch;
}

/**
 * Home Assistant's REST API, the two calls hark makes: the conversation agent and the API's own
 * "running" probe (`hark doctor`). One attempt per request, never retried: a person is waiting
 * for the answer, and a retried "turn on the fan" could act twice.
 */
export class HaClient {
  private readonly fetch: typeof fetch;
  constructor(private readonly opts: HaClientOptions) {
    this.fetch = opts.fetch ?? fetch;
  }

  /** POST /api/conversation/process. Throws HaCallError naming what failed. */
  async process(req: ConversationRequest): Promise<ConversationReply> {
    const body = await this.call('POST', '/api/conversation/process', JSON.stringify(req));
    try {
      return readReply(body);
    } catch (err) {
      throw new HaCallError('garbled', `${this.opts.url}/api/conversation/process answered something that is not a conversation reply: ${errorMessage(err)}`);
    }
  }

  /** GET /api/: {"message": "API running."} when the URL and the token are right. */
  async running(): Promise<string> {
    const body = await this.call('GET', '/api/');
    let message: unknown;
    try {
      message = (JSON.parse(body) as { message?: unknown }).message;
    } catch {
      message = undefined;
    }
    if (typeof message !== 'string')
      throw new HaCallError(
        'garbled',
        `${this.opts.url}/api/ answered ${JSON.stringify(body.slice(0, 80))}, not {"message": "API running."}: is this Home Assistant?`,
      );
    return message;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: string): Promise<string> {
    const where = `${this.opts.url}${path}`;
    if (!this.opts.token) throw new HaCallError('no-token', `no access token: set HARK_HA_TOKEN (a long-lived access token from your Home Assistant profile)`);
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      const res = await this.fetch(where, {
        method,
        headers: { authorization: `Bearer ${this.opts.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body } : {}),
        signal: timeout,
      });
      // The body is read under the same deadline: a server that sends headers and stalls is a timeout too.
      const text = await res.text();
      if (res.status === 401 || res.status === 403)
        throw new HaCallError(
          'unauthorized',
          `${where} answered HTTP ${res.status}: Home Assistant refused the token in HARK_HA_TOKEN (make a new long-lived access token in your Home Assistant profile)`,
        );
      if (!res.ok) throw new HaCallError('http', `${where} answered HTTP ${res.status}${text ? `: ${text.slice(0, 120)}` : ''}`);
      return text;
    } catch (err) {
      if (err instanceof HaCallError) throw err;
      if (timeout.aborted) throw new HaCallError('timeout', `${where}: no answer within ${this.opts.timeoutMs} ms`);
      throw new HaCallError('unreachable', `cannot reach ${where}: ${describeNetworkError(err)}`);
    }
  }
}

/** fetch's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, ...). */
function describeNetworkError(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` (${cause.message})` : ''}`;
  if (cause?.message) return cause.message;
  return errorMessage(err);
}
