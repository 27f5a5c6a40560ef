import type { Database } from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';

/** Ask for a checkpoint once this much has gone into the WAL (SQLite's own default is ~4 MB). */
export const CHECKPOINT_EVERY_BYTES = 4 * 1024 * 1024;
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * WAL checkpoints off the main thread. SQLite's automatic checkpoint runs inside whichever commit
 * crosses the threshold, copying megabytes into the database file and syncing it right there: on an
 * SD card that is a stall of hundreds of ms in the daemon's event loop, between one utterance and
 * the next. Here a worker thread with its own connection runs PASSIVE checkpoints (they never block
 * the writer), and the main connection's automatic checkpoint is off. If the worker dies, automatic
 * checkpoints come back on, so the WAL can never grow without bound.
 *
 * The worker is inline source (not a file) so it runs the same from src/ under the tests and from
 * dist/ when installed.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path, { timeout: 5000 });
parentPort.on('message', () => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ ok: true, log: r.log, checkpointed: r.checkpointed });
  } catch (err) {
    parentPort.postMessage({ ok: false, error: String(err && err.message || err) });
  }
});
`;

export class Checkpointer {
  private worker: Worker | null;
  private pending = 0;
  private busy = false;
  /** A commit landed while the worker was checkpointing: its frames are not covered yet. */
  private raced = false;
  private lastResult: { log: number; checkpointed: number } | null = null;

  constructor(
    private readonly db: Database,
    path: string,
    private readonly logger?: Logger,
    /** Bytes written between checkpoints (the store sizes it to the disk it is on). */
    private readonly everyBytes = CHECKPOINT_EVERY_BYTES,
  ) {
    db.pragma('wal_autocheckpoint = 0');
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, sqlite } });
    this.worker.unref();
    this.worker.on('message', (m: { ok: boolean; error?: string; log?: number; checkpointed?: number }) => {
      this.busy = false;
      if (m.ok) this.lastResult = { log: m.log!, checkpointed: m.checkpointed! };
      else this.logger?.warn('background checkpoint failed', { error: m.error });
      // The WAL only restarts (and is trimmed to journal_size_limit) at a commit that finds every
      // frame copied; frames committed during this checkpoint need one more, short, pass.
      if (this.raced) this.request();
    });
    this.worker.on('error', (err) => this.fallBack(errorMessage(err)));
    this.worker.on('exit', (code) => {
      if (this.worker) this.fallBack(`worker exited with code ${code}`);
    });
  }

  /** Count bytes written; past the threshold, ask the worker for a checkpoint (never waits). */
  wrote(bytes: number): void {
    this.pending += bytes;
    if (this.busy) this.raced = true;
    else if (this.pending >= this.everyBytes) this.request();
  }

  /** The last background checkpoint's WAL frames and how many of them were copied (for tests). */
  get last(): { log: number; checkpointed: number } | null {
    return this.lastResult;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
  }

  private request(): void {
    if (!this.worker) return;
    this.pending = 0;
    this.raced = false;
    this.busy = true;
    this.worker.postMessage('checkpoint');
  }

  private fallBack(why: string): void {
    if (!this.worker) return;
    this.worker = null;
    this.db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    this.logger?.warn('background checkpointer stopped; SQLite checkpoints on commit again', { error: why });
  }
}
