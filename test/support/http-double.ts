import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';

/**
 * What every HTTP test double shares (the Home Assistant and Ollama doubles): a real server on
 * 127.0.0.1 at a free port, every request recorded, replies scripted by the text they carry, faults
 * queued on demand, and a close that does not wait for a client that keeps its connection open.
 * What each peer answers and rejects stays in its own double, written from that peer's source.
 */
export abstract class HttpDouble<Recorded> {
  readonly requests: Recorded[] = [];
  url = '';
  private readonly sockets = new Set<Socket>();
  private readonly server = createServer((req, res) => void this.handle(req, res));

  constructor() {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

/** Replies chosen by the text a request carries: it contains `match` (case-insensitive) or matches it. Later entries win. */
export class TextScript<Answer> {
  private readonly entries: { match: string | RegExp; answer: Answer }[] = [];

  add(match: string | RegExp, answer: Answer): void {
    this.entries.unshift({ match, answer });
  }

  find(text: string): Answer | undefined {
    const low = text.toLowerCase();
    for (const e of this.entries) {
      if (typeof e.match === 'string' ? low.includes(e.match.toLowerCase()) : e.match.test(text)) return e.answer;
    }
    return undefined;
  }
}

/** Faults for the next requests, in order: each `times` times (Infinity: until cleared). */
export class FaultQueue<Fault> {
  private readonly queue: { fault: Fault; times: number }[] = [];

  add(fault: Fault, times: number): void {
    this.queue.push({ fault, times });
  }

  /** The fault this request meets, if any (used up as it goes). */
  take(): Fault | undefined {
    const f = this.queue[0];
    if (!f) return undefined;
    if (--f.times <= 0) this.queue.shift();
    return f.fault;
  }

  clear(): void {
    this.queue.length = 0;
  }
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

/** A 127.0.0.1 URL nothing listens on (bound then released): the peer is down, or not running. */
export async function closedUrl(): Promise<string> {
  const srv = createTcpServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
