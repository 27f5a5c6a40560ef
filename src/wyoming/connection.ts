import { connect, type Socket } from 'node:net';
import { encodeEvent, WyomingFrameError, WyomingParser, type FrameLimits, type WyomingEvent } from './framing.js';
import { parseInfo, type WyomingInfo } from './info.js';
import type { WyomingServer } from './server-url.js';

/**
 * Why talking to a Wyoming server failed:
 * connect — refused, unreachable or not answering the connect in time;
 * timeout — connected, but the answer did not come in time;
 * closed — the server closed the connection before the exchange was over;
 * protocol — it sent bytes that are not Wyoming (bad header, oversized length, unknown event);
 * server — it answered with an `error` event.
 */
export type WyomingErrorKind = 'connect' | 'timeout' | 'closed' | 'protocol' | 'server';

export class WyomingError extends Error {
  constructor(
    readonly kind: WyomingErrorKind,
    readonly server: string,
    message: string,
  ) {
    super(`Wyoming server ${server}: ${message}`);
    this.name = 'WyomingError';
  }
}

export interface ConnectOptions {
  connectTimeoutMs: number;
  limits?: Partial<FrameLimits>;
}

/**
 * One TCP connection to a Wyoming server: events out, events in (in order, through the bounded
 * parser), and the first failure kept, so every later read rejects with the same clear reason.
 * The reference servers close the connection after each exchange: hark opens one per exchange.
 */
export class WyomingConnection {
  private readonly parser: WyomingParser;
  private readonly queue: WyomingEvent[] = [];
  private waiter: { resolve: (e: WyomingEvent) => void; reject: (e: Error) => void } | null = null;
  private failure: WyomingError | null = null;
  private closedByUs = false;

  private constructor(
    private readonly socket: Socket,
    readonly server: WyomingServer,
    limits: Partial<FrameLimits> | undefined,
  ) {
    this.parser = new WyomingParser(limits);
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => {
      if (this.failure) return;
      let events: WyomingEvent[];
      try {
        events = this.parser.feed(d);
      } catch (err) {
        this.fail(new WyomingError('protocol', server.url, err instanceof WyomingFrameError ? err.message : String(err)));
        socket.destroy();
        return;
      }
      for (const e of events) this.push(e);
      // Good events before bad bytes in one read were delivered above; now the fault.
      const broken = this.parser.error;
      if (broken && !this.failure) {
        this.fail(new WyomingError('protocol', server.url, broken.message));
        socket.destroy();
      }
    });
    socket.on('error', (err: NodeJS.ErrnoException) => this.fail(new WyomingError('closed', server.url, `connection lost (${err.code ?? err.message})`)));
    socket.on('close', () => {
      const how = this.parser.atBoundary ? 'closed the connection' : 'closed the connection in the middle of an event';
      this.fail(new WyomingError('closed', server.url, how));
    });
  }

  /** Open a connection; rejects with a `connect` WyomingError (refused, unreachable, too slow). */
  static open(server: WyomingServer, o: ConnectOptions): Promise<WyomingConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: server.host, port: server.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new WyomingError('connect', server.url, `no connection within ${o.connectTimeoutMs} ms`));
      }, o.connectTimeoutMs);
      const onError = (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(
          new WyomingError(
            'connect',
            server.url,
            err.code === 'ECONNREFUSED' ? 'connection refused (is the service running?)' : `cannot connect (${err.code ?? err.message})`,
          ),
        );
      };
      socket.once('error', onError);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', onError);
        resolve(new WyomingConnection(socket, server, o.limits));
      });
    });
  }

  /** Send one event. False when the socket's buffer is full (the caller may wait for drain()). */
  send(type: string, data: Record<string, unknown> = {}, payload: Uint8Array | null = null): boolean {
    if (this.failure || this.socket.destroyed) return false;
    return this.socket.write(encodeEvent(type, data, payload));
  }

  /**
   * The next event from the server. An `error` event rejects as a `server` failure. With `within`, no
   * event by then is a `timeout` failure worded as `within.why` ("no audio within 3000 ms of
   * synthesize"): the connection is closed with that as its reason, so whoever reads it next hears
   * what happened, not that hark hung up.
   */
  next(within?: { ms: number; why: string }): Promise<WyomingEvent> {
    const e = this.queue.shift();
    if (e) return Promise.resolve(e);
    if (this.failure) return Promise.reject(this.failure);
    const waiting = new Promise<WyomingEvent>((resolve, reject) => (this.waiter = { resolve, reject }));
    if (!within) return waiting;
    const timer = setTimeout(() => this.close(new WyomingError('timeout', this.server.url, within.why)), within.ms);
    return waiting.finally(() => clearTimeout(timer));
  }

  /**
   * Hang up now: no more events, the socket is destroyed. `reason` is what later reads reject with
   * (default: hark closed it). Closing an already failed or closed connection only makes sure the
   * socket is gone — every path out of an exchange calls this, whatever happened before.
   */
  close(reason?: WyomingError): void {
    this.closedByUs = true;
    this.fail(reason ?? new WyomingError('closed', this.server.url, 'connection closed by hark'));
    this.socket.destroy();
  }

  get closed(): boolean {
    return this.closedByUs || this.failure !== null;
  }

  private push(e: WyomingEvent): void {
    if (e.type === 'error') {
      const text = typeof e.data.text === 'string' ? e.data.text : 'no reason given';
      const code = typeof e.data.code === 'string' ? ` (${e.data.code})` : '';
      this.fail(new WyomingError('server', this.server.url, `error: ${text}${code}`));
      this.socket.destroy();
      return;
    }
    if (e.type === 'ping') {
      // Keep-alive from newer servers: answered, never surfaced.
      this.send('pong', typeof e.data.text === 'string' ? { text: e.data.text } : {});
      return;
    }
    const w = this.waiter;
    if (w) {
      this.waiter = null;
      w.resolve(e);
    } else this.queue.push(e);
  }

  private fail(err: WyomingError): void {
    if (this.failure) return;
    this.failure = err;
    const w = this.waiter;
    this.waiter = null;
    w?.reject(err);
  }
}

/**
 * Ask a server what it offers (`describe` → `info`), on a connection of its own. Rejects with a
 * WyomingError: cannot connect, no info within `timeoutMs`, or an answer that is not an info.
 */
export async function describeServer(server: WyomingServer, o: { connectTimeoutMs: number; timeoutMs: number }): Promise<WyomingInfo> {
  const conn = await WyomingConnection.open(server, o);
  try {
    conn.send('describe');
    const until = Date.now() + o.timeoutMs;
    for (;;) {
      const e = await conn.next({ ms: Math.max(0, until - Date.now()), why: `no info within ${o.timeoutMs} ms of describe` });
      if (e.type === 'info') return parseInfo(e.data);
      // Anything before the info (a stray event from a busy satellite server) is skipped.
    }
  } finally {
    conn.close();
  }
}
