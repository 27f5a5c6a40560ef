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
import { Outbox } from './outbox.js';
import { wallClockSender, type OutboxSender } from './sender.js';
import { wmsLink } from './wms-link.js';

export interface SimulatedPicking {
  runtime: PickingRuntime;
  outbox: Outbox;
  /** Sending to picking.wms.url, with --live-wms only. */
  sender: OutboxSender | null;
  /** At the end of input: wait (real time, at most `ms`) until the outbox is empty. */
  drain(ms: number): Promise<void>;
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
  /** language.languages (the device's first is what picking speaks). */
  languages: readonly string[];
  device: string;
  router: CommandRouter;
  clock: Clock;
  log: Logger;
  outDir: string;
  print: (e: Record<string, unknown>) => void;
  /** Really send results to picking.wms.url (by default they are kept in the outbox, not sent). */
  liveWms?: boolean;
  mqtt: { url: string; device: string; topicPrefix: string; reconnectInitialMs: number };
  secrets: { wmsToken?: string | undefined; mqttUsername?: string | undefined; mqttPassword?: string | undefined };
}): SimulatedPicking {
  const dbPath = join(o.outDir, 'picking.db');
  const { db } = openDatabase(dbPath, { recoverCorrupt: false, logger: o.log });
  const ledger = new SqliteLedger(db, o.device);
  const outbox = new Outbox(db);
  const w = o.config.wms;
  // The warehouse system is a real peer on real time, whatever the dialogue's virtual clock says.
  let runtime: PickingRuntime | null = null;
  const link = o.liveWms
    ? wmsLink({
        picking: o.config,
        mqtt: o.mqtt,
        secrets: o.secrets,
        log: o.log,
        offer: (raw) => {
          const r = runtime!.offer(raw);
          o.print({
            type: 'picking',
            event: r.ok ? 'assignment-received' : 'assignment-refused',
            ...(r.ok ? { assignment: r.assignment.id, duplicate: r.duplicate } : { problems: r.problems }),
          });
          return r;
        },
        onConnected: () => {
          o.print({ type: 'picking', event: 'wms-connected' });
          sender?.kick();
        },
      })
    : null;
  const sender = link
    ? wallClockSender(outbox, link.channel, w, o.log, (r) => {
        o.print({ type: 'picking', event: 'sent', id: r.id, seq: r.seq });
        runtime?.checkOutbox();
      })
    : null;
  runtime = new PickingRuntime({
    config: o.config,
    languages: o.languages,
    router: o.router,
    ledger,
    clock: o.clock,
    log: o.log,
    outbox: { pending: () => outbox.state().pending, max: w.queueMax },
    onEvent: (e) => {
      o.print({ type: 'picking', ...e });
      if (e.event === 'confirmed') sender?.kick();
    },
  });
  link?.start();
  // Results kept from an earlier run go first.
  sender?.kick();
  const drain = async (ms: number): Promise<void> => {
    if (!sender) return;
    const until = Date.now() + ms;
    while (outbox.state().pending > 0 && Date.now() < until) {
      sender.kick();
      await new Promise((r) => setTimeout(r, 20));
    }
    sender.stop();
    await sender.idle();
    await link?.stop();
  };
  return { runtime, outbox, sender, drain, dbPath, close: () => db.close() };
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
