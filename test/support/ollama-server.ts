import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultQueue, HttpDouble, TextScript, readBody } from './http-double.js';

/**
 * A local Ollama that speaks the REST API as documented (docs/api.md): POST /api/chat and
 * /api/generate, streamed as NDJSON or whole with `stream: false`, the final `done: true` record
 * with its duration fields (nanoseconds); an empty request loads the model (`done_reason: "load"`);
 * GET /api/tags and /api/version; `{"error": "..."}` bodies for errors, including the 404 for a
 * model that is not pulled. Replies are scripted by the last user message; faults on demand.
 * Listens on 127.0.0.1 only.
 */
export type Fault =
  /** HTTP 500 {"error": ...} (the runner crashed). */
  | 'http-500'
  /** HTTP 404 model not found (as when the requested model is not in `models`). */
  | 'model-missing'
  /** Accept the request and never send headers. */
  | 'hang'
  /** Send headers and part of the body, then drop the connection. */
  | 'cut'
  /** The model answers prose instead of JSON. */
  | 'non-json'
  /** The model answers JSON that is not {verb, object}. */
  | 'wrong-schema';

/** What the model "says": JSON to encode, raw content, or a fault. */
export type Reply = { json: unknown } | { content: string } | { fault: Fault };

export interface RecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | null;
  /** The last user message (chat) or the prompt (generate). */
  lastUser: string;
}

export interface OllamaDoubleOptions {
  /** Pulled models; anything else is 404. */
  models?: string[];
  version?: string;
  /** Delay before any /api/chat or /api/generate answer (a slow Pi). */
  delayMs?: number;
}

const NOT_RECOGNISED = { verb: 'unknown', object: null };

export class OllamaDouble extends HttpDouble<RecordedRequest> {
  models: string[];
  delayMs: number;
  private readonly script = new TextScript<Reply>();
  private readonly faults = new FaultQueue<Fault>();
  private version: string;

  constructor(opts: OllamaDoubleOptions = {}) {
    super();
    this.models = opts.models ?? ['qwen2.5:0.5b-instruct'];
    this.delayMs = opts.delayMs ?? 0;
    this.version = opts.version ?? '0.6.5';
  }

  /** When the last user message contains `match` (case-insensitive) or matches it, reply so. Later entries win. */
  on(match: string | RegExp, reply: Reply | { verb: string; object: string | null }): this {
    this.script.add(match, 'verb' in reply ? { json: reply } : reply);
    return this;
  }

  /** The next `times` chat/generate requests fail this way (Infinity: until clearFaults). */
  fail(fault: Fault, times = 1): this {
    this.faults.add(fault, times);
    return this;
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /** Requests to /api/chat that carried messages (warm-ups left out). */
  get chats(): RecordedRequest[] {
    return this.requests.filter((r) => r.path === '/api/chat' && Array.isArray(r.body?.messages) && (r.body!.messages as unknown[]).length > 0);
  }

  private replyFor(lastUser: string): Reply {
    const fault = this.faults.take();
    if (fault) return { fault };
    return this.script.find(lastUser) ?? { json: NOT_RECOGNISED };
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const raw = await readBody(req);
    let body: Record<string, unknown> | null = null;
    if (raw) {
      try {
        body = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        return json(res, 400, { error: 'invalid character in request body' });
      }
    }
    const lastUser = path === '/api/generate' ? String(body?.prompt ?? '') : lastUserMessage(body);
    this.requests.push({ method: req.method ?? 'GET', path, body, lastUser });

    if (req.method === 'GET' && path === '/api/version') return json(res, 200, { version: this.version });
    if (req.method === 'GET' && path === '/api/tags') return json(res, 200, { models: this.models.map(tag) });
    if (req.method !== 'POST' || (path !== '/api/chat' && path !== '/api/generate')) return json(res, 404, { error: '404 page not found' });

    const model = String(body?.model ?? '');
    if (!model) return json(res, 400, { error: 'model is required' });
    if (!this.models.includes(model)) return json(res, 404, { error: `model "${model}" not found, try pulling it first` });
    const chat = path === '/api/chat';
    const empty = chat ? !Array.isArray(body?.messages) || (body!.messages as unknown[]).length === 0 : !lastUser;
    if (empty)
      return json(res, 200, {
        model,
        created_at: now(),
        ...(chat ? { message: { role: 'assistant', content: '' } } : { response: '' }),
        done_reason: 'load',
        done: true,
      });

    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const reply = this.replyFor(lastUser);
    let content: string;
    if ('fault' in reply) {
      switch (reply.fault) {
        case 'http-500':
          return json(res, 500, { error: 'llama runner process has terminated: exit status 2' });
        case 'model-missing':
          return json(res, 404, { error: `model "${model}" not found, try pulling it first` });
        case 'hang':
          return; // headers never come; the socket stays open until the client gives up
        case 'cut':
          res.writeHead(200, { 'content-type': body?.stream === false ? 'application/json; charset=utf-8' : 'application/x-ndjson' });
          res.write(
            body?.stream === false
              ? `{"model":"${model}","created_at":"${now()}","message":{"role":"assistant","content":"{\\"verb\\": \\"add_`
              : `${JSON.stringify(chunk(model, chat, '{"verb": "add_'))}\n`,
          );
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        case 'non-json':
          content = 'Sure! It sounds like you want to add milk to the order list.';
          break;
        case 'wrong-schema':
          content = JSON.stringify({ intent: 'add_to_list', item: 'milk', amount: 3 });
          break;
      }
    } else content = 'json' in reply ? JSON.stringify(reply.json) : reply.content;

    const final = {
      model,
      created_at: now(),
      ...(chat ? { message: { role: 'assistant', content: body?.stream === false ? content : '' } } : { response: body?.stream === false ? content : '' }),
      done_reason: 'stop',
      done: true,
      total_duration: 412_000_000,
      load_duration: 9_000_000,
      prompt_eval_count: 180,
      prompt_eval_duration: 250_000_000,
      eval_count: 14,
      eval_duration: 150_000_000,
    };
    if (body?.stream === false) return json(res, 200, final);
    // Streamed: the content in a few pieces, then the final record with the statistics.
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const size = Math.max(1, Math.ceil(content.length / 3));
    for (let i = 0; i < content.length; i += size) res.write(`${JSON.stringify(chunk(model, chat, content.slice(i, i + size)))}\n`);
    res.end(`${JSON.stringify(final)}\n`);
  }
}

function chunk(model: string, chat: boolean, piece: string): Record<string, unknown> {
  return { model, created_at: now(), ...(chat ? { message: { role: 'assistant', content: piece } } : { response: piece }), done: false };
}

function lastUserMessage(body: Record<string, unknown> | null): string {
  const messages = Array.isArray(body?.messages) ? (body!.messages as { role?: string; content?: string }[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return String(messages[i]!.content ?? '');
  return '';
}

function tag(name: string): Record<string, unknown> {
  return {
    name,
    model: name,
    modified_at: '2025-05-01T10:00:00.000000000Z',
    size: 397_821_319,
    digest: 'a8b0c51577010a279d933d14c2a8ab4b268079d44c5c8830c0a93900f1827c67',
    details: { parent_model: '', format: 'gguf', family: 'qwen2', families: ['qwen2'], parameter_size: '494.03M', quantization_level: 'Q4_K_M' },
  };
}

const now = (): string => new Date().toISOString();

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export async function startOllamaDouble(opts: OllamaDoubleOptions = {}): Promise<OllamaDouble> {
  return new OllamaDouble(opts).start();
}
