import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import { HarkError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { CommandRouter } from '../command/router.js';
import { openDatabase } from '../store/open.js';
import type { PickingConfig } from './config.js';
import { PickingRuntime } from './runtime.js';
import { SqliteLedger } from './sqlite-ledger.js';

export interface SimulatedPicking {
  runtime: PickingRuntime;
  /** The picking file in the out dir: run simulate again on the same dir and the picker resumes. */
  dbPath: string;
  close(): void;
}

/**
 * Picking in `hark simulate`: the real dialogue and the real SQLite ledger, in `picking.db` inside the
 * out dir (so a second run on the same dir goes on where the first stopped, as the device does after
 * a restart). Assignment files are offered in order once the frame is open; a malformed one stops
 * simulate with every problem named, as bad input at start does.
 */
export function simulatePicking(o: {
  config: PickingConfig;
  device: string;
  router: CommandRouter;
  clock: Clock;
  log: Logger;
  outDir: string;
  print: (e: Record<string, unknown>) => void;
}): SimulatedPicking {
  const dbPath = join(o.outDir, 'picking.db');
  const { db } = openDatabase(dbPath, { recoverCorrupt: false, logger: o.log });
  const ledger = new SqliteLedger(db, o.device);
  const runtime = new PickingRuntime({
    config: o.config,
    router: o.router,
    ledger,
    clock: o.clock,
    log: o.log,
    onEvent: (e) => o.print({ type: 'picking', ...e }),
  });
  return { runtime, dbPath, close: () => db.close() };
}

/** Read and offer an assignment file; its problems, each by field, stop simulate (exit 2). */
export function offerFile(runtime: PickingRuntime, path: string): void {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new HarkError(`--assignment ${path}: ${errorMessage(err)}`, { exitCode: 2 });
  }
  const r = runtime.offer(raw);
  if (!r.ok) throw new HarkError(r.problems.map((p) => `--assignment ${path}: ${p}`).join('\n'), { exitCode: 2 });
}
