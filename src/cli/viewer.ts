import type { Command } from 'commander';
import { Bus } from '../core/bus.js';
import { HarkError } from '../core/errors.js';
import { createLogger } from '../core/log.js';
import { debugToken } from '../debug/from-config.js';
import { DEFAULT_PORT, DebugServer } from '../debug/server.js';
import { Store } from '../store/store.js';
import { action, loadConfigFor, out } from './common.js';

interface ViewerOpts {
  db?: string;
  port?: string;
  host?: string;
  config?: string;
}

export function register(program: Command): void {
  program
    .command('viewer')
    .description('serve the audio debug viewer over a segment log without the daemon (e.g. a copy taken off the Pi)')
    .option('--db <file>', 'the database to serve (default: store.path from the config)')
    .option('-p, --port <n>', `port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)`)
    .option('--host <address>', 'address to listen on (default 127.0.0.1; any other needs HARK_DEBUG_TOKEN)')
    .option('-c, --config <file>', 'config file (for store.path and debug.token)')
    .action(
      action(async (opts: ViewerOpts) => {
        const { config, secrets } = loadConfigFor(opts);
        const port = parsePort(opts.port ?? String(DEFAULT_PORT));
        const logger = createLogger({ level: config.log.level, json: config.log.json });
        const bus = new Bus();
        // Never prune or "repair" a file a technician brought here to look at.
        const store = new Store({ path: opts.db ?? config.store.path, bus, logger, mustExist: true, recoverCorrupt: false, housekeeping: null });
        let server: DebugServer;
        try {
          server = new DebugServer({ store, bus, host: opts.host ?? '127.0.0.1', port, token: debugToken(config.debug, secrets), logger, mode: 'viewer' });
          await server.listen();
        } catch (err) {
          store.close();
          throw err;
        }
        const { segments } = store.health();
        out(`hark viewer: serving ${store.path} (${segments} segments) at ${server.url}${debugToken(config.debug, secrets) ? '?token=<your token>' : ''}`);
        out('press Ctrl-C to stop');
        await new Promise<void>((resolve) => {
          const stop = () => {
            process.off('SIGINT', stop);
            process.off('SIGTERM', stop);
            void server.close().then(() => {
              store.close();
              resolve();
            });
          };
          process.once('SIGINT', stop);
          process.once('SIGTERM', stop);
        });
      }),
    );
}

function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text) || +text > 65_535)
    throw new HarkError(`--port: must be a whole number from 0 to 65535 (got ${JSON.stringify(text)})`, { exitCode: 2 });
  return +text;
}
