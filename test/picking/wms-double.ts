import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One delivery as it reached the warehouse system (every one, repeats too). */
export interface Delivery {
  id: string;
  seq: number;
  body: Record<string, unknown>;
  idempotencyKey: string | undefined;
}

type Fault = { kind: '500' } | { kind: 'slow'; ms: number } | { kind: 'lose-reply' };

/**
 * A warehouse system as docs/picking.md describes it, on a real socket at 127.0.0.1: it takes pick
 * results at POST /results (version 1 JSON), de-duplicates them by id as the page asks, and answers
 * 200 (a repeat too: it already has it). Faults on demand: down (nothing listens on its port), the
 * next N requests answered 500, slow replies, and replies lost after the result was kept (the
 * sender cannot tell, so it sends again: a duplicate delivery).
 */
export class WmsDouble {
  readonly deliveries: Delivery[] = [];
  /** Results kept, first delivery of each id, in the order they arrived. */
  readonly kept: Delivery[] = [];
  private readonly faults: Fault[] = [];
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/results`;
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => server.listen(this.port, '127.0.0.1', r));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Down: the port refuses connections until up(). */
  async down(): Promise<void> {
    const s = this.server;
    this.server = null;
    for (const sock of this.sockets) sock.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }

  up(): Promise<this> {
    return this.start();
  }

  fail(n: number): void {
    for (let i = 0; i < n; i++) this.faults.push({ kind: '500' });
  }
  slow(ms: number, n = 1): void {
    for (let i = 0; i < n; i++) this.faults.push({ kind: 'slow', ms });
  }
  loseReplies(n: number): void {
    for (let i = 0; i < n; i++) this.faults.push({ kind: 'lose-reply' });
  }

  close(): Promise<void> {
    return this.down();
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || req.url !== '/results') {
      res.writeHead(404).end('no such endpoint');
      return;
    }
    if (req.headers['content-type'] !== 'application/json') {
      res.writeHead(415).end('results are JSON');
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      res.writeHead(400).end('not JSON');
      return;
    }
    if (body.version !== 1 || body.type !== 'pick' || typeof body.id !== 'string' || typeof body.seq !== 'number') {
      res.writeHead(422).end('not a version 1 pick result');
      return;
    }
    const fault = this.faults.shift();
    if (fault?.kind === '500') {
      res.writeHead(500).end('internal error');
      return;
    }
    const d: Delivery = { id: body.id, seq: body.seq, body, idempotencyKey: req.headers['idempotency-key'] as string | undefined };
    this.deliveries.push(d);
    if (!this.kept.some((k) => k.id === d.id)) this.kept.push(d);
    if (fault?.kind === 'slow') await new Promise((r) => setTimeout(r, fault.ms));
    if (fault?.kind === 'lose-reply') {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
  }
}
