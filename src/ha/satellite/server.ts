import { createServer, type AddressInfo, type Server } from 'node:net';
import { SystemClock, type Clock } from '../../core/clock.js';
import type { Logger } from '../../core/log.js';
import { makeRoom } from './admission.js';
import { ApiConnection } from './connection.js';
import { MAX_PLAINTEXT_FRAME } from './framing.js';
import { loadNoise, NOISE_PROTOCOL } from './noise.js';
import { apiProto } from './proto.js';
import type { Satellite } from './satellite.js';

export interface ApiServerOptions {
  host: string;
  port: number;
  /** 32-byte Noise pre-shared key; null: plaintext. */
  key: Buffer | null;
  serverInfo: string;
  satellite: Satellite;
  log: Logger;
  /** The daemon's clock: the hello deadline and the keepalive run on it. */
  clock?: Clock;
  /** Clients at once (Home Assistant keeps one; a second is usually the ESPHome dashboard or a test). */
  maxClients?: number;
}

/** The native API's TCP server: one ApiConnection per client, all speaking for one Satellite. */
export class ApiServer {
  private server: Server | null = null;
  private readonly conns = new Set<ApiConnection>();

  constructor(private readonly o: ApiServerOptions) {}

  async listen(): Promise<number> {
    const proto = apiProto();
    const noise = this.o.key ? await loadNoise() : null;
    const max = this.o.maxClients ?? 8;
    const clock = this.o.clock ?? new SystemClock();
    const unknownTypes = new Set<number>();
    const server = createServer((socket) => {
      if (this.conns.size >= max) {
        // The newcomer is never the one refused: it may be Home Assistant (admission.ts).
        const victim = makeRoom([...this.conns]);
        if (!victim) {
          this.o.log.warn('ha satellite: too many clients; refusing one', { remote: socket.remoteAddress, max });
          socket.destroy();
          return;
        }
        victim.close(
          `let go to make room for a new client (${max} at most): ${victim.setupDone ? 'the one quiet the longest' : 'the oldest still in its hello'}`,
          'warn',
        );
      }
      const conn = new ApiConnection(socket, {
        proto,
        device: this.o.satellite,
        log: this.o.log,
        clock,
        noise,
        key: this.o.key,
        serverInfo: this.o.serverInfo,
        maxFrame: MAX_PLAINTEXT_FRAME,
        unknownTypes,
        onClose: (c) => this.conns.delete(c),
      });
      this.conns.add(conn);
      this.o.satellite.added(conn);
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port, this.o.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (err) => this.o.log.error('ha satellite: server error', { error: err.message }));
    return (server.address() as AddressInfo).port;
  }

  get encryption(): string | null {
    return this.o.key ? NOISE_PROTOCOL : null;
  }

  async close(): Promise<void> {
    this.o.satellite.stop();
    for (const c of this.conns) c.close('hark is stopping');
    const s = this.server;
    this.server = null;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }
}
