import { request } from 'node:http';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import type { Clock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { DebugServer, type DebugServerOptions } from '../../src/debug/server.js';
import { Store, type StoreOptions } from '../../src/store/store.js';
import { scratch } from '../store/fixtures.js';

export interface Harness {
  store: Store;
  server: DebugServer;
  bus: Bus;
  url: string;
  logger: ReturnType<typeof memoryLogger>;
  close(): Promise<void>;
}

/** A real store file and a real server on 127.0.0.1 (a free port). */
export async function startHarness(
  opts: { server?: Partial<DebugServerOptions>; store?: Partial<StoreOptions>; clock?: Clock; suite?: string } = {},
): Promise<Harness> {
  const bus = new Bus();
  const logger = memoryLogger();
  const store = new Store({ path: join(scratch(opts.suite ?? 'debug'), 'hark.db'), bus, logger, housekeeping: null, ...opts.store });
  const server = new DebugServer({ store, bus, host: '127.0.0.1', port: 0, logger, ...(opts.clock ? { clock: opts.clock } : {}), ...opts.server });
  const url = await server.listen();
  return {
    store,
    server,
    bus,
    url,
    logger,
    async close() {
      await server.close();
      store.close();
    },
  };
}

/** A raw request (fetch cannot set Host, or send a body without Content-Length). */
export function rawRequest(
  url: string,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string; chunks?: Buffer[] },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(opts.path, url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (opts.chunks) for (const c of opts.chunks) req.write(c);
    req.end(opts.body);
  });
}
