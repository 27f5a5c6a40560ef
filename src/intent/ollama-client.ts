import { Backoff } from '../core/backoff.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { Ollama } from 'ollama';
import { errorMessage } from '../core/errors.js';
import { ModelCallAborted, ModelUnavailable, type ChatMessage, type ModelReply, type ProposalModel, type UnavailableKind } from './proposal-model.js';

/**
 * The Ollama adapter: the `ollama` package with an explicit host, structured output, temperature
 * 0 and keep_alive, plus what the package does not give a non-streamed call: a hard deadline. Its
 * chat() cannot be aborted, so every request gets its own Ollama instance whose fetch carries the
 * request's AbortSignal (the deadline, joined with the caller's); an abort cuts the connection
 * whether the headers or the body are still on their way.
 *
 * Failures that may pass (refused connection, 5xx, a cut or garbled body) are retried with
 * exponential backoff while the deadline allows; a missing model (404) or a rejected request
 * (other 4xx) is not: asking again cannot fix it.
 */
export interface OllamaClientOptions {
  host: string;
  model: string;
  /** Ollama duration ("30m", "1h") or seconds; -1 keeps the model loaded for good. */
  keepAlive: string;
  /** Hard limit for one proposal, retries and backoff included. */
  timeoutMs: number;
  /** Further attempts after a failure that may pass. */
  retries: number;
  /** Wait before retry n: backoffMs × 2^(n-1). */
  backoffMs: number;
  /** Loading a model from an SD card can take a while; only the warm-up waits this long. */
  warmUpTimeoutMs: number;
}

export interface OllamaModelInfo {
  name: string;
  size?: number;
}

/** Ollama reads a bare number as seconds and a string as a Go duration ("30m"; "-1" is not one). */
export function keepAliveValue(v: string): string | number {
  return /^-?\d+$/.test(v.trim()) ? Number(v) : v.trim();
}

interface Attempt {
  kind: UnavailableKind;
  message: string;
  retry: boolean;
}

function describeFailure(err: unknown, deadlineMs: number, deadline: AbortSignal): Attempt {
  if (deadline.aborted) return { kind: 'timeout', message: `no answer within ${deadlineMs} ms`, retry: false };
  const e = err as { name?: string; status_code?: number; cause?: { code?: string; message?: string } };
  if (e?.name === 'ResponseError') {
    const status = e.status_code ?? 0;
    if (status === 404) return { kind: 'model-missing', message: `HTTP 404: ${errorMessage(err)}`, retry: false };
    if (status >= 500) return { kind: 'server-error', message: `HTTP ${status}: ${errorMessage(err)}`, retry: true };
    return { kind: 'rejected', message: `HTTP ${status}: ${errorMessage(err)}`, retry: false };
  }
  if (e?.name === 'SyntaxError') return { kind: 'bad-response', message: `the server's answer is not JSON (${errorMessage(err)})`, retry: true };
  const code = e?.cause?.code;
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ECONNRESET') {
    return { kind: 'unreachable', message: `${code}${e.cause?.message ? ` (${e.cause.message})` : ''}`, retry: true };
  }
  // undici says "terminated" when the body stops mid-way.
  if (errorMessage(err) === 'terminated' || e?.cause?.message === 'other side closed')
    return { kind: 'bad-response', message: 'the answer was cut off mid-way', retry: true };
  return { kind: 'unreachable', message: errorMessage(err) + (e?.cause?.message ? ` (${e.cause.message})` : ''), retry: true };
}

/**
 * A fetch bound to one signal. Error bodies are rewritten as Ollama's own {"error": "..."} JSON:
 * the package prints to stdout when an error body is not JSON, and stdout is `hark simulate`'s
 * output.
 */
function boundFetch(signal: AbortSignal): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, { ...init, signal });
    if (res.ok) return res;
    const text = await res.text();
    let error = text.trim() || `HTTP ${res.status}`;
    try {
      const parsed = JSON.parse(text) as { error?: unknown };
      if (typeof parsed?.error === 'string') error = parsed.error;
    } catch {
      // Not JSON (a proxy's HTML page): keep the text.
    }
    return new Response(JSON.stringify({ error }), { status: res.status, statusText: res.statusText, headers: { 'content-type': 'application/json' } });
  };
}

export class OllamaClient implements ProposalModel {
  constructor(private readonly opts: OllamaClientOptions) {}

  get model(): string {
    return this.opts.model;
  }
  get host(): string {
    return this.opts.host;
  }

  async propose(messages: readonly ChatMessage[], format: Record<string, unknown>, signal?: AbortSignal): Promise<ModelReply> {
    const { timeoutMs } = this.opts;
    const started = performance.now();
    const deadline = AbortSignal.timeout(timeoutMs);
    const both = signal ? AbortSignal.any([signal, deadline]) : deadline;
    let last: Attempt = { kind: 'unreachable', message: 'not attempted', retry: false };
    /** The last failure that was not the deadline itself: what a technician needs to see. */
    let cause: Attempt | undefined;
    let attempts = 0;
    // Retries within one call, bounded by its deadline rather than by a longest wait.
    const backoff = new Backoff(this.opts.backoffMs, Infinity);
    for (let n = 0; n <= this.opts.retries; n++) {
      if (n > 0) {
        const wait = backoff.fail();
        // Only retry if there is time left for the wait and a request after it.
        if (performance.now() - started + wait >= timeoutMs) break;
        await sleep(wait, undefined, { signal: both }).catch(() => undefined);
      }
      if (signal?.aborted) throw new ModelCallAborted();
      if (deadline.aborted) break;
      attempts++;
      try {
        const ollama = new Ollama({ host: this.opts.host, fetch: boundFetch(both) });
        const res = await ollama.chat({
          model: this.opts.model,
          messages: messages.map((m) => ({ role: m.role, content: m.content })),
          format,
          stream: false,
          keep_alive: keepAliveValue(this.opts.keepAlive),
          options: { temperature: 0 },
        });
        const content = typeof res?.message?.content === 'string' ? res.message.content : '';
        return {
          content,
          model: typeof res?.model === 'string' && res.model ? res.model : this.opts.model,
          latencyMs: Math.round(performance.now() - started),
          attempts,
        };
      } catch (err) {
        if (signal?.aborted) throw new ModelCallAborted();
        last = describeFailure(err, timeoutMs, deadline);
        if (last.kind !== 'timeout') cause = last;
        if (!last.retry) break;
      }
    }
    if (deadline.aborted && last.kind !== 'model-missing' && last.kind !== 'rejected') {
      last = { kind: 'timeout', message: `${cause ? `${cause.message}, then ` : ''}no answer within ${timeoutMs} ms`, retry: false };
    }
    throw new ModelUnavailable(
      last.kind,
      `${this.opts.host} (${this.opts.model}): ${last.message}${attempts > 1 ? ` after ${attempts} attempts` : ''}`,
      attempts,
    );
  }

  /** An empty chat loads the model and keeps it loaded for keep_alive (Ollama's documented "load a model"). */
  async warmUp(): Promise<void> {
    const deadline = AbortSignal.timeout(this.opts.warmUpTimeoutMs);
    try {
      const ollama = new Ollama({ host: this.opts.host, fetch: boundFetch(deadline) });
      await ollama.chat({ model: this.opts.model, messages: [], stream: false, keep_alive: keepAliveValue(this.opts.keepAlive) });
    } catch (err) {
      const f = describeFailure(err, this.opts.warmUpTimeoutMs, deadline);
      throw new ModelUnavailable(f.kind, `${this.opts.host} (${this.opts.model}): ${f.message}`, 1);
    }
  }

  /** Server version (`hark doctor`). */
  async version(timeoutMs = 3000): Promise<string> {
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const r = await new Ollama({ host: this.opts.host, fetch: boundFetch(deadline) }).version();
      return String(r.version);
    } catch (err) {
      const f = describeFailure(err, timeoutMs, deadline);
      throw new ModelUnavailable(f.kind, `${this.opts.host}: ${f.message}`, 1);
    }
  }

  /** Models pulled on the server (`hark doctor`). */
  async models(timeoutMs = 3000): Promise<OllamaModelInfo[]> {
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const r = await new Ollama({ host: this.opts.host, fetch: boundFetch(deadline) }).list();
      return (r.models ?? []).map((m) => ({ name: m.name, ...(typeof m.size === 'number' ? { size: m.size } : {}) }));
    } catch (err) {
      const f = describeFailure(err, timeoutMs, deadline);
      throw new ModelUnavailable(f.kind, `${this.opts.host}: ${f.message}`, 1);
    }
  }
}

/** Is `model` among the pulled ones? "qwen2.5:0.5b-instruct" matches itself; a bare name matches ":latest". */
export function modelPulled(model: string, pulled: readonly OllamaModelInfo[]): OllamaModelInfo | undefined {
  const want = model.includes(':') ? model : `${model}:latest`;
  return pulled.find((m) => m.name === want || m.name === model);
}
