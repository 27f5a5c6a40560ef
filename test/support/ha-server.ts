import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultQueue, HttpDouble, TextScript, readBody } from './http-double.js';

/**
 * A local Home Assistant that speaks its REST API as documented (developers.home-assistant.io,
 * "REST API" and "Conversation API"): every request needs `Authorization: Bearer <long-lived
 * token>` (else HTTP 401 "401: Unauthorized", as aiohttp answers); GET /api/ answers
 * {"message": "API running."}; POST /api/conversation/process takes {text, language?, agent_id?,
 * conversation_id?} (anything else, or a missing text, is HTTP 400 "Message format incorrect") and
 * answers {response: {response_type, language, data, speech: {plain: {speech, extra_data}}},
 * conversation_id, continue_conversation}. An unmatched sentence is HTTP 200 with response_type
 * "error" and data.code "no_intent_match", as Home Assistant's default agent answers. A new
 * conversation gets a new id (a ULID-like string); a known id continues it.
 * Replies are scripted by the text; faults on demand. Listens on 127.0.0.1 only.
 */
export type HaFault =
  /** HTTP 500 with Home Assistant's plain-text error page. */
  | 'http-500'
  /** Accept the request and never answer. */
  | 'hang'
  /** HTTP 200 with a body that is not JSON. */
  | 'garbage'
  /** HTTP 200 with JSON that is not a conversation reply. */
  | 'wrong-shape';

export interface HaAnswer {
  speech: string;
  type?: 'action_done' | 'query_answer' | 'error';
  /** The agent asks something back. */
  continueConversation?: boolean;
  /** data.code on an error reply. */
  code?: string;
}

export interface HaRecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
  /** Answered (false: refused for the token or the body, or a fault). */
  answered: boolean;
}

const FIELDS = new Set(['text', 'language', 'agent_id', 'conversation_id']);

export class HaDouble extends HttpDouble<HaRecordedRequest> {
  /** The token Home Assistant accepts. */
  token: string;
  delayMs = 0;
  private readonly script = new TextScript<HaAnswer>();
  private readonly faults = new FaultQueue<HaFault>();
  private readonly conversations = new Set<string>();

  constructor(opts: { token?: string } = {}) {
    super();
    this.token = opts.token ?? 'test-long-lived-token';
  }

  /** When the text contains `match` (case-insensitive) or matches it, answer so. Later entries win. */
  on(match: string | RegExp, answer: HaAnswer): this {
    this.script.add(match, answer);
    return this;
  }

  /** The next `times` conversation requests fail this way. */
  fail(fault: HaFault, times = 1): this {
    this.faults.add(fault, times);
    return this;
  }

  /** Conversation requests that reached the agent (past the token and the body checks). */
  get conversationsAsked(): Record<string, unknown>[] {
    return this.requests.filter((r) => r.path === '/api/conversation/process' && r.answered).map((r) => r.body!);
  }

  protected async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    const raw = await readBody(req);
    const rec: HaRecordedRequest = { method: req.method ?? 'GET', path, authorization: req.headers.authorization, body: null, answered: false };
    this.requests.push(rec);
    if (req.headers.authorization !== `Bearer ${this.token}`) return text(res, 401, '401: Unauthorized');
    if (req.method === 'GET' && path === '/api/') {
      rec.answered = true;
      return json(res, 200, { message: 'API running.' });
    }
    if (req.method !== 'POST' || path !== '/api/conversation/process') return text(res, 404, '404: Not Found');
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return json(res, 400, { message: 'Invalid JSON.' });
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return json(res, 400, { message: 'Message format incorrect: expected a dictionary' });
    const b = body as Record<string, unknown>;
    rec.body = b;
    const extra = Object.keys(b).find((k) => !FIELDS.has(k));
    if (extra) return json(res, 400, { message: `Message format incorrect: extra keys not allowed @ data['${extra}']` });
    if (typeof b.text !== 'string') return json(res, 400, { message: "Message format incorrect: required key not provided @ data['text']" });
    for (const k of ['language', 'agent_id', 'conversation_id']) {
      if (b[k] !== undefined && b[k] !== null && typeof b[k] !== 'string')
        return json(res, 400, { message: `Message format incorrect: expected str for dictionary value @ data['${k}']` });
    }
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    const fault = this.faults.take();
    if (fault) {
      switch (fault) {
        case 'http-500':
          return text(res, 500, '500 Internal Server Error\n\nServer got itself in trouble');
        case 'hang':
          return;
        case 'garbage':
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('<html><body>Bad Gateway</body></html>');
          return;
        case 'wrong-shape':
          return json(res, 200, { speech: 'Turned on the fan', ok: true });
      }
    }
    rec.answered = true;
    const language = typeof b.language === 'string' && b.language ? b.language : 'en';
    const given = typeof b.conversation_id === 'string' && b.conversation_id ? b.conversation_id : null;
    const conversationId = given && this.conversations.has(given) ? given : ulid();
    this.conversations.add(conversationId);
    const answer = this.answerFor(b.text);
    const type = answer.type ?? 'action_done';
    json(res, 200, {
      continue_conversation: answer.continueConversation ?? false,
      response: {
        response_type: type,
        language,
        data: type === 'error' ? { code: answer.code ?? 'no_intent_match' } : { targets: [], success: [], failed: [] },
        speech: { plain: { speech: answer.speech, extra_data: null } },
      },
      conversation_id: conversationId,
    });
  }

  private answerFor(said: string): HaAnswer {
    return this.script.find(said) ?? { speech: "Sorry, I couldn't understand that", type: 'error', code: 'no_intent_match' };
  }
}

export async function startHaDouble(opts: { token?: string } = {}): Promise<HaDouble> {
  return new HaDouble(opts).start();
}

/** 26 Crockford base-32 characters, as Home Assistant's ULID conversation ids. */
function ulid(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  return [...randomBytes(26)].map((b) => alphabet[b % 32]).join('');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(body);
}
