import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HarkError, errorMessage } from '../core/errors.js';
import { SegmentReader, actionView, type ActionRow } from '../store/queries.js';
import type { ActionView, AudioState, SegmentView } from '../store/records.js';
import { SCHEMA_VERSION, schemaVersion } from '../store/schema.js';
import { oldOutcome, wasCancelled, type OldOutcome } from './outcome.js';

/** A stored segment as replay needs it: when, how it was opened, and what happened. */
export interface StoredSegment {
  id: number;
  startedAt: number;
  endedAt: number;
  createdAt: number;
  openedBy: string | null;
  /** hangover, max-length, ptt-release, ...: a hangover close came that long after the words ended. */
  closeReason: string | null;
  /** How long before the close the words ended, as the device counted it; null in a row from before hark kept it. */
  trailingSilenceMs: number | null;
  maxProb: number | null;
  sampleRate: number;
  audio: AudioState;
  cancelled: boolean;
  /** Rows the intent pass (Ollama proposals, commits) stored for this segment: replay does not run it. */
  intentRows: number;
  old: OldOutcome;
}

export interface StoredRange {
  segments: StoredSegment[];
  /** The last moment the log knows about in this range (newest row written): timers are run up to here. */
  horizonMs: number;
  /** The newest segment in the whole file, to say so when --since matched nothing. */
  newestStartedAt: number | null;
}

const PAGE = 200;

/**
 * The segment log, opened read-only. Replay must never change the file it reads — it may be the
 * live database of a running daemon, or evidence a technician copied off a Pi — so this is not the
 * Store (which migrates, sets WAL mode, checkpoints and optimises on close): it is a read-only
 * connection, and the file is refused with a clear message when it is missing, not SQLite, not a
 * hark log, from a newer hark, or corrupt.
 */
export class ReplaySource {
  private readonly reader: SegmentReader;

  private constructor(
    readonly path: string,
    private readonly db: Database,
  ) {
    this.reader = new SegmentReader(db);
  }

  static open(path: string): ReplaySource {
    if (!existsSync(path)) throw new HarkError(`${path}: no such database file (give the segment log with --db, e.g. /var/lib/hark/hark.db)`);
    if (statSync(path).isDirectory()) throw new HarkError(`${path}: is a directory, not a database file`);
    let db: Database;
    try {
      db = openReadOnly(path);
    } catch (err) {
      throw openError(path, err);
    }
    try {
      // One line on stderr: quick_check's rows can be many lines each ("Page 20: never used" x 100).
      const problems = (db.pragma('quick_check') as { quick_check: string }[])
        .flatMap((r) => r.quick_check.split('\n'))
        .filter((l) => l && l !== 'ok' && !l.startsWith('*** in database'));
      if (problems.length) {
        const more = problems.length > 3 ? `; and ${problems.length - 3} more` : '';
        throw new HarkError(`${path}: database is corrupt (quick_check: ${problems.slice(0, 3).join('; ')}${more}); replay will not read it`);
      }
      const hasSegments = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'segments'").get() !== undefined;
      const version = schemaVersion(db);
      if (!hasSegments || version < 1) throw new HarkError(`${path}: not a hark segment log (no segments table); give the file hark run writes (store.path)`);
      if (version > SCHEMA_VERSION)
        throw new HarkError(`${path}: database schema version ${version} is newer than this hark understands (${SCHEMA_VERSION}); upgrade hark`);
    } catch (err) {
      db.close();
      throw openError(path, err);
    }
    return new ReplaySource(path, db);
  }

  /** Segments whose first sample is at or after `sinceMs`, oldest first, each with what happened. */
  range(sinceMs: number | null): StoredRange {
    try {
      return this.readRange(sinceMs);
    } catch (err) {
      throw openError(this.path, err);
    }
  }

  /** The segment's PCM, or null when it was not stored (disk full, store.audio off). */
  audio(id: number): Int16Array | null {
    try {
      return this.reader.audio(id)?.pcm ?? null;
    } catch (err) {
      throw openError(this.path, err);
    }
  }

  close(): void {
    this.db.close();
  }

  private readRange(sinceMs: number | null): StoredRange {
    // Paged newest-first through the reader the debug API uses (one view shape for the whole
    // codebase), stopping once a page reaches back past `since`. Ids grow with time; started_at
    // decides membership and order.
    const views: SegmentView[] = [];
    let before: number | undefined;
    for (;;) {
      const page = this.reader.list({ limit: PAGE, ...(before !== undefined ? { before } : {}) });
      views.push(...page.segments);
      const oldest = page.segments[page.segments.length - 1];
      if (page.nextBefore === null || (sinceMs !== null && oldest && oldest.startedAt < sinceMs)) break;
      before = page.nextBefore;
    }
    const newestStartedAt = views.length ? Math.max(...views.slice(0, PAGE).map((v) => v.startedAt)) : null;
    const chosen = views.filter((v) => sinceMs === null || v.startedAt >= sinceMs).sort((a, b) => a.startedAt - b.startedAt || a.id - b.id);
    const later = this.laterActions(chosen);
    let horizonMs = 0;
    const segments = chosen.map((v, i) => {
      const mine = later[i] ?? [];
      horizonMs = Math.max(horizonMs, v.createdAt, v.endedAt, ...mine.map((a) => a.createdAt));
      return {
        id: v.id,
        startedAt: v.startedAt,
        endedAt: v.endedAt,
        createdAt: v.createdAt,
        openedBy: v.openedBy,
        closeReason: v.closeReason,
        trailingSilenceMs: v.trailingSilenceMs,
        maxProb: v.maxProb,
        sampleRate: v.sampleRate,
        audio: v.audio,
        cancelled: wasCancelled(v),
        intentRows: v.intents.length,
        old: oldOutcome(v, mine),
      };
    });
    return { segments, horizonMs, newestStartedAt };
  }

  /**
   * Actions stored without a segment (fired from a timer after their segment was written: a
   * kitchen timer ringing, a confirmation timing out), each given to the segment
   * written last before it. Those before the first chosen segment belong to segments not replayed.
   */
  private laterActions(chosen: readonly SegmentView[]): ActionView[][] {
    const out: ActionView[][] = chosen.map(() => []);
    if (chosen.length === 0) return out;
    const byCreated = chosen.map((v, i) => ({ at: v.createdAt, i })).sort((a, b) => a.at - b.at);
    const rows = this.db
      .prepare('SELECT * FROM actions WHERE segment_id IS NULL AND created_at >= ? ORDER BY created_at, id')
      .all(byCreated[0]!.at) as ActionRow[];
    let k = 0;
    for (const r of rows) {
      while (k + 1 < byCreated.length && byCreated[k + 1]!.at <= r.created_at) k++;
      out[byCreated[k]!.i]!.push(actionView(r));
    }
    return out;
  }
}

/**
 * A plain read-only connection to a WAL-mode file still creates `-wal` and `-shm` beside it (and
 * fails where the directory is not writable). A file with no `-wal` was closed cleanly and nobody
 * has it open — a copy taken off the Pi — so it is opened `immutable`: SQLite then reads it with no
 * locks and no side files at all. A file with a `-wal` may be the live log of a running daemon (or
 * a copy whose newest rows are still in the WAL): that needs an ordinary reader, which shares the
 * daemon's `-shm` and never writes the database itself.
 */
function openReadOnly(path: string): Database {
  if (!existsSync(`${path}-wal`)) {
    // URI filenames are a process-wide switch in better-sqlite3, read when its addon loads; the
    // replay command opens no database before this one. If something did, the URI is taken as a
    // plain (missing) file name and we fall back to the ordinary reader below.
    process.env.SQLITE_USE_URI ??= '1';
    try {
      return new BetterSqlite3(`${pathToFileURL(resolve(path)).href}?immutable=1`, { readonly: true, timeout: 2000 });
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'SQLITE_CANTOPEN') throw err;
    }
  }
  return new BetterSqlite3(path, { readonly: true, fileMustExist: true, timeout: 2000 });
}

function openError(path: string, err: unknown): HarkError {
  if (err instanceof HarkError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_NOTADB') return new HarkError(`${path}: not a SQLite database (${errorMessage(err)})`, { cause: err });
  if (typeof code === 'string' && code.startsWith('SQLITE_CORRUPT'))
    return new HarkError(`${path}: database is corrupt (${errorMessage(err)}); replay will not read it`, { cause: err });
  return new HarkError(`${path}: cannot read the segment log: ${errorMessage(err)}`, { cause: err });
}
