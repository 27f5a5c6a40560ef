import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { HarkError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { migrate } from './schema.js';

/** The WAL is truncated back to this after a checkpoint, so it cannot creep across an SD card. */
export const JOURNAL_SIZE_LIMIT = 16 * 1024 * 1024;
/** The page cache per connection, in KiB (see openConfigured). */
const CACHE_KIB = 2000;

export interface OpenOptions {
  /** Move a corrupt file aside and start fresh (the daemon); false refuses it (the viewer: not our file). */
  recoverCorrupt: boolean;
  /** Refuse to create a new file (the viewer: a typo in --db must not serve an empty database). */
  mustExist?: boolean;
  logger?: Logger;
  wallNow?: () => number;
}

export interface CorruptRecovery {
  /** Where the corrupt file now is; its -wal and -shm sit beside it with the same stem. */
  movedTo: string;
  detail: string;
}

export interface OpenedDatabase {
  db: Database;
  recovered: CorruptRecovery | null;
  /** How long the start-up integrity check took (ms); 0 for a new file. */
  checkMs: number;
}

/**
 * Open (or create) the segment log: pragmas, integrity check, migrations. A file that fails the
 * check is kept, renamed `<name>.corrupt-<time>`, and a fresh one takes its place, so hark keeps
 * logging and a technician can still take the old file away for a look.
 */
export function openDatabase(path: string, opts: OpenOptions): OpenedDatabase {
  const wallNow = opts.wallNow ?? Date.now;
  if (opts.mustExist && !existsSync(path)) throw new HarkError(`${path}: no such database file`);
  if (existsSync(path) && statSync(path).isDirectory()) throw new HarkError(`${path}: is a directory, not a database file`);
  try {
    mkdirSync(dirname(path), { recursive: true });
  } catch (err) {
    throw new HarkError(`cannot create the directory for ${path}: ${errorMessage(err)} (set store.path, or run hark as the user that owns it)`, { cause: err });
  }

  const fresh = !existsSync(path) || statSync(path).size === 0;
  let checkMs = 0;
  let problem: string | null = null;
  if (!fresh) {
    const t0 = performance.now();
    problem = integrityProblem(path);
    checkMs = performance.now() - t0;
  }
  if (problem === null) {
    try {
      return { db: openConfigured(path, fresh), recovered: null, checkMs };
    } catch (err) {
      if (!isCorruption(err)) throw asHarkError(path, err);
      problem = errorMessage(err);
    }
  }
  if (!opts.recoverCorrupt) throw new HarkError(`${path}: database is corrupt (${problem}); hark viewer will not modify it`);
  const movedTo = moveAside(path, wallNow());
  opts.logger?.error('STORE CORRUPT: the segment log failed its integrity check; moved it aside and started a fresh one', { path, movedTo, detail: problem });
  try {
    return { db: openConfigured(path, true), recovered: { movedTo, detail: problem }, checkMs };
  } catch (err) {
    throw asHarkError(path, err);
  }
}

/**
 * quick_check on a read-only connection. Read-only matters: a read-write connection that fails on
 * a damaged file deletes the -wal and -shm as it closes, and those are evidence worth keeping.
 * Returns what is wrong, or null.
 */
function integrityProblem(path: string): string | null {
  let db: Database | undefined;
  try {
    db = new BetterSqlite3(path, { readonly: true, fileMustExist: true, timeout: 2000 });
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
    return problems.length > 0 ? `quick_check: ${problems.slice(0, 3).join('; ')}` : null;
  } catch (err) {
    if (isCorruption(err)) return errorMessage(err);
    throw asHarkError(path, err);
  } finally {
    db?.close();
  }
}

function openConfigured(path: string, fresh: boolean): Database {
  const db = new BetterSqlite3(path, { timeout: 2000 });
  try {
    if (fresh) {
      // Only takes effect before the first table exists; later it needs a full VACUUM.
      db.pragma('auto_vacuum = INCREMENTAL');
    }
    db.pragma('journal_mode = WAL');
    // FULL: every commit reaches the card before hark reports the row stored, so a power cut (the
    // appliance unplugged) loses nothing reported. NORMAL could lose the last commits. Measured
    // (test/bench/store-sync.bench.ts): +0.6 ms p50 per segment here, one fsync per segment on a Pi,
    // written after the action has run, so never between speech and action.
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT}`);
    // better-sqlite3 builds SQLite with a 16 MB page cache; every page of audio written passes through
    // it and stays, so on continuous talk hark's memory rose ~2 MB a minute for 8 minutes
    // (docs/decisions.md#sqlites-page-cache-is-2-mb; test/store/store-memory.test.ts) holding audio nobody reads again. SQLite's own 2 MB holds the
    // tables' and indexes' hot pages; the debug page's rare audio reads come from the OS's file cache.
    db.pragma(`cache_size = -${CACHE_KIB}`);
    migrate(db, path);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

function asHarkError(path: string, err: unknown): HarkError {
  if (err instanceof HarkError) return err;
  return new HarkError(`${path}: cannot open the segment log: ${errorMessage(err)}`, { cause: err });
}

/** Rename the file and its WAL/SHM together, keeping SQLite's `<db>-wal` naming so they still open as a set. */
function moveAside(path: string, nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().replace(/:/g, '-');
  let target = `${path}.corrupt-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.corrupt-${stamp}-${n}`;
  renameSync(path, target);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
  }
  return target;
}
