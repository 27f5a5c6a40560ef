import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock, TimerHandle } from '../core/clock.js';

/** A client that has this much unsent is too slow (or gone without a FIN): drop it. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * Server-sent events to every open viewer page. A comment line goes out every heartbeat so proxies
 * and the SSH tunnel keep the connection open and a dead peer is noticed; a client is forgotten the
 * moment its connection closes.
 */
export class SseHub {
  private readonly clients = new Set<ServerResponse>();
  private timer: TimerHandle | null = null;
  private seq = 0;

  constructor(private readonly opts: { clock: Clock; heartbeatMs: number; maxClients: number }) {}

  get size(): number {
    return this.clients.size;
  }

  /** Take over the response; false (and nothing written) when the hub is full. */
  add(req: IncomingMessage, res: ServerResponse): boolean {
    if (this.clients.size >= this.opts.maxClients) return false;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    // The browser reconnects 3 s after a drop; the page refetches what it missed.
    res.write('retry: 3000\n: connected\n\n');
    this.clients.add(res);
    const forget = () => this.remove(res);
    req.on('close', forget);
    res.on('close', forget);
    res.on('error', forget);
    if (!this.timer) this.beat();
    return true;
  }

  send(event: string, data: unknown): void {
    if (this.clients.size === 0) return;
    const frame = `id: ${++this.seq}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const res of this.clients) this.write(res, frame);
  }

  closeAll(): void {
    for (const res of this.clients) res.end();
    this.clients.clear();
    this.stopBeat();
  }

  private write(res: ServerResponse, frame: string): void {
    if (res.writableLength > MAX_BUFFERED_BYTES) {
      this.remove(res);
      res.destroy();
      return;
    }
    res.write(frame);
  }

  private remove(res: ServerResponse): void {
    this.clients.delete(res);
    if (this.clients.size === 0) this.stopBeat();
  }

  private beat(): void {
    this.timer = this.opts.clock.setTimer(this.opts.heartbeatMs, () => {
      this.timer = null;
      if (this.clients.size === 0) return;
      for (const res of this.clients) this.write(res, `: heartbeat\n\n`);
      this.beat();
    });
  }

  private stopBeat(): void {
    this.opts.clock.clearTimer(this.timer);
    this.timer = null;
  }
}
