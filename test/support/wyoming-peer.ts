import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * What the reference Wyoming servers have in common, written from rhasspy/wyoming 1.7 (not from what
 * hark sends): the event reader and writer of `wyoming/event.py`, the per-connection handler loop of
 * `wyoming/server.py`, on a real TCP socket on 127.0.0.1. The peers (wyoming-piper.ts,
 * wyoming-whisper.ts) add their handler's `handle_event`.
 *
 * Deliberately not hark's parser (src/wyoming/framing.ts): a double that reads with the code under
 * test would agree with it whatever it does.
 */

/** rhasspy/wyoming `Event`: type, data, payload. */
export interface PeerEvent {
  type: string;
  data: Record<string, unknown>;
  payload: Buffer | null;
}

/** One TCP connection as the peer saw it. */
export interface PeerConnection {
  readonly id: number;
  openedAt: number;
  /** performance.now() when the socket was fully closed; null while it is open. */
  closedAt: number | null;
  /** Who sent the first FIN/RST: hark ('client') or the server ('peer'). */
  closedBy: 'client' | 'peer' | null;
  /** Event types received, in order. */
  received: string[];
}

/** The version the reference library writes in every header (wyoming/VERSION). */
export const PEER_VERSION = '1.7.0';

/** Python's json.dumps with its default separators (", " and ": "), as the reference writes header lines. */
export function pyJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return `[${v.map(pyJson).join(', ')}]`;
  if (typeof v === 'object') {
    const parts = Object.entries(v as Record<string, unknown>).map(([k, x]) => `${JSON.stringify(k)}: ${pyJson(x)}`);
    return `{${parts.join(', ')}}`;
  }
  return JSON.stringify(v);
}

/**
 * event.py `async_write_event`: the header is `{type, version}` plus `data_length` when data is not
 * empty — data always goes as separate bytes after the line, never inline — and `payload_length` when
 * there is a payload; then `await writer.drain()` (here: the socket's 'drain' when its buffer is full).
 */
export async function writePeerEvent(
  socket: Socket,
  type: string,
  data: Record<string, unknown> | null = null,
  payload: Uint8Array | null = null,
): Promise<void> {
  if (socket.destroyed || socket.writableEnded) return;
  const header: Record<string, unknown> = { type, version: PEER_VERSION };
  const dataBytes = data && Object.keys(data).length > 0 ? Buffer.from(pyJson(data), 'utf8') : null;
  if (dataBytes) header.data_length = dataBytes.length;
  if (payload && payload.length > 0) header.payload_length = payload.length;
  const parts: Uint8Array[] = [Buffer.from(pyJson(header) + '\n', 'utf8')];
  if (dataBytes) parts.push(dataBytes);
  if (payload && payload.length > 0) parts.push(payload);
  if (!socket.write(Buffer.concat(parts))) await new Promise<void>((r) => socket.once('drain', r).once('close', r));
}

/**
 * event.py `async_read_event` on a socket: `readline()`, `json.loads`, then `readexactly(data_length)`
 * merged over `data`, then `readexactly(payload_length)`. A partial read waits for the rest (asyncio's
 * StreamReader). End of stream, or a line that is not JSON (ValueError), reads as None: the handler's
 * loop ends. A stream that ends inside an event (IncompleteReadError) ends it too.
 */
export class PeerReader {
  private buf = Buffer.alloc(0);
  private eof = false;
  private wake: (() => void) | null = null;

  constructor(socket: Socket) {
    socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.poke();
    });
    socket.on('end', () => {
      this.eof = true;
      this.poke();
    });
    socket.on('close', () => {
      this.eof = true;
      this.poke();
    });
  }

  async read(): Promise<PeerEvent | null> {
    const line = await this.readline();
    if (line === null || line.length === 0) return null;
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(line.toString('utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
    if (typeof header !== 'object' || header === null) return null;
    let data = (header.data as Record<string, unknown> | undefined) ?? {};
    const dataLength = typeof header.data_length === 'number' ? header.data_length : 0;
    if (dataLength > 0) {
      const bytes = await this.readexactly(dataLength);
      if (!bytes) return null;
      try {
        data = { ...data, ...(JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) };
      } catch {
        return null;
      }
    }
    const payloadLength = typeof header.payload_length === 'number' ? header.payload_length : 0;
    let payload: Buffer | null = null;
    if (payloadLength > 0) {
      payload = await this.readexactly(payloadLength);
      if (!payload) return null;
    }
    return { type: String(header.type), data, payload };
  }

  private poke(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }

  private async more(): Promise<boolean> {
    if (this.eof) return false;
    await new Promise<void>((r) => (this.wake = r));
    return true;
  }

  private async readline(): Promise<Buffer | null> {
    for (;;) {
      const nl = this.buf.indexOf(10);
      if (nl >= 0) {
        const line = this.buf.subarray(0, nl + 1);
        this.buf = this.buf.subarray(nl + 1);
        return line;
      }
      if (!(await this.more())) {
        // StreamReader.readline at EOF: whatever is left (b'' when nothing).
        const rest = this.buf;
        this.buf = Buffer.alloc(0);
        return rest.length ? rest : null;
      }
    }
  }

  private async readexactly(n: number): Promise<Buffer | null> {
    while (this.buf.length < n) if (!(await this.more())) return null;
    const out = Buffer.from(this.buf.subarray(0, n));
    this.buf = this.buf.subarray(n);
    return out;
  }
}

/**
 * server.py `AsyncTcpServer` + `AsyncEventHandler.run`: one handler per connection, reading events
 * until the stream ends or `handle_event` returns false (or raises); the connection then closes. A
 * handler that returns true keeps the connection open for as long as the client does.
 */
export abstract class WyomingPeer {
  readonly connections: PeerConnection[] = [];
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();

  /** handler.handle_event: false (or a throw) ends the connection. */
  protected abstract handle(event: PeerEvent, socket: Socket, conn: PeerConnection): Promise<boolean>;

  async listen(): Promise<this> {
    const server = createServer((socket) => void this.serve(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  get url(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  /** Connections still open at the server (a client that never hangs up leaks one each). */
  open(): PeerConnection[] {
    return this.connections.filter((c) => c.closedAt === null);
  }

  /** Stop listening and drop every connection (the service stopped). */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }

  private async serve(socket: Socket): Promise<void> {
    const conn: PeerConnection = { id: this.connections.length + 1, openedAt: performance.now(), closedAt: null, closedBy: null, received: [] };
    this.connections.push(conn);
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.on('error', () => {});
    socket.on('end', () => (conn.closedBy ??= 'client'));
    socket.on('close', () => {
      conn.closedBy ??= 'client';
      conn.closedAt = performance.now();
      this.sockets.delete(socket);
    });
    const reader = new PeerReader(socket);
    try {
      for (;;) {
        const event = await reader.read();
        if (!event) break;
        conn.received.push(event.type);
        if (!(await this.handle(event, socket, conn))) break;
      }
    } catch {
      // A handler that raised (after writing its error event, as wyoming-piper does): the run ends.
    } finally {
      // The handler task is over and its writer goes with it: the connection closes.
      conn.closedBy ??= 'peer';
      socket.end();
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
