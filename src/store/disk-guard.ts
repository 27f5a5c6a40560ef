import type { Database } from 'better-sqlite3';
import { existsSync, statSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Bus } from '../core/bus.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { Checkpointer } from './checkpointer.js';

/** The store's settings for a small or full disk (StoreOptions carries them). */
export interface DiskOptions {
  /** Free bytes on the file system holding `dir`, to decide when audio storage may resume. */
  freeBytes?: (dir: string) => number;
  /** After a full disk, audio storage resumes once this much is free (and resumeAfterMs has passed). */
  resumeFreeBytes?: number;
  resumeAfterMs?: number;
  /** Default true: WAL checkpoints run in a worker thread instead of inside a commit. */
  backgroundCheckpoint?: boolean;
  /** Full disk: rows that fit nowhere wait in memory, at most this many (default 1000); then the oldest is lost. */
  maxPendingRows?: number;
  /** Full disk: the oldest stored audio given up per attempt to make room (default 16 MB). */
  reclaimBytes?: number;
  /**
   * Headroom: a segment's audio is not stored when it would leave less than this free on the file
   * system (default 0: only a full disk stops audio), so the disk never fills with audio and the text
   * always has room.
   */
  minFreeBytes?: number;
  /**
   * A file of this size (`<db>.reserve`, default 0: none) kept beside the log and given up the
   * moment a write finds the disk full: room for the checkpoint and the audio deletes that make room.
   */
  reserveBytes?: number;
}

/** What the guard reports for the store's health(). */
export interface DiskHealth {
  paused: { reason: string; at: number } | null;
  lastWriteError: { at: number; what: string; error: string } | null;
  writeFailures: number;
  pendingRows: number;
  rowsLost: number;
  reclaimedSegments: number;
}

interface GuardContext {
  db: Database;
  path: string;
  bus?: Bus;
  logger?: Logger;
  wallNow: () => number;
}

/** A write that could not be done yet (full disk): done later, in order, from these few values. */
interface PendingWrite {
  what: string;
  run: () => void;
}

export const PAGE_BYTES = 4096;
const DEFAULT_RESUME_FREE_BYTES = 64 * 1024 * 1024;
const DEFAULT_RESUME_AFTER_MS = 5 * 60_000;
const DEFAULT_MAX_PENDING = 1000;
const DEFAULT_RECLAIM_BYTES = 16 * 1024 * 1024;
const MB = 1024 * 1024;

/**
 * What keeps the segment log writable on a small or full disk, apart from the rows it
 * writes (store.ts): the WAL's bound and checkpoints, the reserve file, the pause of audio storage,
 * the oldest audio given up to make room, and the bounded queue of rows waiting for room. The store
 * asks it before and after each write; it never writes a row itself.
 * Why: docs/decisions.md#a-full-disk-keeps-every-row.
 */
export class DiskGuard {
  private readonly db: Database;
  private readonly path: string;
  private readonly bus?: Bus;
  private readonly logger?: Logger;
  private readonly wallNow: () => number;
  private readonly checkpointer: Checkpointer | null;
  private paused: { reason: string; at: number } | null = null;
  private lastWriteError: DiskHealth['lastWriteError'] = null;
  private writeFailures = 0;
  private readonly pending: PendingWrite[] = [];
  private rowsLost = 0;
  private reclaimed = 0;
  private readonly reservePath: string;
  private reserveHeld = false;
  private readonly minFree: number;
  /** Bytes written since the last checkpoint this store knows finished; past walBound, checkpoint here and now. */
  private unCheckpointed = 0;
  private readonly walBound: number;
  private lastSeenCheckpoint: { log: number; checkpointed: number } | null = null;

  constructor(
    ctx: GuardContext,
    private readonly opts: DiskOptions,
  ) {
    this.db = ctx.db;
    this.path = ctx.path;
    this.bus = ctx.bus;
    this.logger = ctx.logger;
    this.wallNow = ctx.wallNow;
    // The WAL is bounded by the disk it is on: checkpoint often and trim it small where
    // space is short, so it can never grow to fill a small card and leave the checkpoint no room.
    this.minFree = opts.minFreeBytes ?? 0;
    const free = this.free();
    const reserve = opts.reserveBytes ?? 0;
    // What the WAL holds not yet checkpointed must fit in the reserve: a full disk then still has room
    // to checkpoint it (the file grows by that much) and empty the WAL.
    const everyBytes = clamp(Math.floor(Math.min(free / 16, reserve > 0 ? reserve / 2 : Infinity)), 64 * 1024, 4 * MB);
    this.walBound = reserve > 0 ? reserve : Infinity;
    this.db.pragma(`journal_size_limit = ${clamp(Math.floor(free / 8), 512 * 1024, 16 * MB)}`);
    if (opts.backgroundCheckpoint === false) this.db.pragma(`wal_autocheckpoint = ${Math.max(16, Math.floor(everyBytes / PAGE_BYTES))}`);
    this.checkpointer = opts.backgroundCheckpoint === false ? null : new Checkpointer(this.db, this.path, this.logger, everyBytes);
    this.reservePath = `${this.path}.reserve`;
    this.holdReserve();
  }

  /** Audio storage stopped by a full disk (or the headroom), with why and since when. */
  get audioPaused(): { reason: string; at: number } | null {
    return this.paused;
  }

  get pendingRows(): number {
    return this.pending.length;
  }

  health(): DiskHealth {
    return {
      paused: this.paused,
      lastWriteError: this.lastWriteError,
      writeFailures: this.writeFailures,
      pendingRows: this.pending.length,
      rowsLost: this.rowsLost,
      reclaimedSegments: this.reclaimed,
    };
  }

  /** The background checkpointer stops (the store is closing). */
  closeCheckpointer(): void {
    void this.checkpointer?.close();
  }

  // ---- full disk: reclaim, queue, flush ----

  /**
   * Make room, then try once more; null if it still does not fit. Room comes from, in order: the
   * reserve file (given up at once: no write needed), a TRUNCATE checkpoint (the WAL's pages move
   * into the file and the WAL shrinks), and the oldest stored audio (its pages are reused by the
   * next rows).
   */
  retryAfterReclaim<R>(run: () => R): R | null {
    const released = this.releaseReserve();
    const checkpointed = this.checkpointNow();
    const reclaimed = this.reclaimAudio();
    if (reclaimed > 0) this.checkpointNow();
    if (!released && !checkpointed && reclaimed === 0) return null;
    try {
      return run();
    } catch (err) {
      if (!isSqliteError(err) || !isDiskFull(err)) throw err;
      return null;
    }
  }

  /**
   * Delete the audio (only the audio: rows, transcripts and actions stay) of the oldest segments that
   * still have it, up to reclaimBytes. Their pages go on SQLite's free list, where the next rows land,
   * so this makes room even when the file system has not one byte left. Returns the segments reclaimed.
   */
  private reclaimAudio(): number {
    const want = this.opts.reclaimBytes ?? DEFAULT_RECLAIM_BYTES;
    try {
      const { ids, bytes } = this.db.transaction(() => {
        const rows = this.db
          .prepare(
            'SELECT a.segment_id AS id, s.audio_bytes AS bytes FROM segment_audio a JOIN segments s ON s.id = a.segment_id ORDER BY a.segment_id LIMIT 500',
          )
          .all() as { id: number; bytes: number }[];
        const ids: number[] = [];
        let bytes = 0;
        for (const r of rows) {
          if (bytes >= want) break;
          ids.push(r.id);
          bytes += r.bytes;
        }
        if (ids.length === 0) return { ids, bytes };
        const list = JSON.stringify(ids);
        this.db.prepare('DELETE FROM segment_audio WHERE segment_id IN (SELECT value FROM json_each(?))').run(list);
        this.db.prepare('DELETE FROM segment_raw_audio WHERE segment_id IN (SELECT value FROM json_each(?))').run(list);
        this.db.prepare("UPDATE segments SET audio_state = 'reclaimed', audio_bytes = 0, raw_bytes = 0 WHERE id IN (SELECT value FROM json_each(?))").run(list);
        return { ids, bytes };
      })();
      if (ids.length === 0) return 0;
      this.reclaimed += ids.length;
      this.logger?.warn('store disk full: deleted the oldest stored audio to keep the text rows', {
        path: this.path,
        segments: ids.length,
        bytes,
        firstId: ids[0],
        lastId: ids.at(-1),
      });
      this.bus?.emit('store.audio-reclaimed', { segments: ids.length, bytes });
      return ids.length;
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      this.logger?.error('store disk full: could not delete old audio to make room', { path: this.path, error: errorMessage(err) });
      return 0;
    }
  }

  enqueue(what: string, run: () => void): void {
    const max = this.opts.maxPendingRows ?? DEFAULT_MAX_PENDING;
    if (this.pending.length >= max) {
      const lost = this.pending.shift()!;
      this.rowsLost++;
      this.writeFailures++;
      this.lastWriteError = { at: this.wallNow(), what: lost.what, error: `the queue of rows waiting for disk space is full (${max})` };
      this.logger?.error('store: the queue of rows waiting for disk space is full; the oldest waiting row is lost', { path: this.path, what: lost.what, max });
      this.bus?.emit('store.write-failed', { what: lost.what, error: 'pending queue full' });
    }
    this.pending.push({ what, run });
    if (this.pending.length === 1) this.logger?.warn('store disk full: rows wait in memory until there is room', { path: this.path, what });
    this.bus?.emit('store.row-queued', { what, pending: this.pending.length });
  }

  /** Write waiting rows in order; true when none is left waiting. */
  flushPending(): boolean {
    while (this.pending.length > 0) {
      const next = this.pending[0]!;
      try {
        next.run();
      } catch (err) {
        if (!isSqliteError(err)) throw err;
        if (isDiskFull(err) && this.retryAfterReclaim(next.run) === null) return false;
        if (!isDiskFull(err)) this.writeFailed(next.what, err);
      }
      this.pending.shift();
      if (this.pending.length === 0) this.logger?.info('store: rows that waited for disk space are written', { path: this.path });
    }
    return true;
  }

  pauseAudio(reason: string): void {
    if (this.paused) return;
    this.paused = { reason, at: this.wallNow() };
    this.logger?.error('STORE DISK FULL: audio storage stopped; segments are logged without audio until space is freed', {
      path: this.path,
      reason,
    });
    this.bus?.emit('store.audio-paused', { reason, path: this.path });
  }

  /** Room for this much audio (stored twice for a while: in the WAL, then in the file) above the headroom? */
  roomForAudio(bytes: number): boolean {
    const free = this.free();
    if (free - 2 * bytes >= this.minFree) return true;
    this.pauseAudio(
      `free space ${Math.round(free / 1024)} KB leaves no room for audio above the headroom (store.minFreeMb ${Math.round((this.minFree / MB) * 100) / 100})`,
    );
    return false;
  }

  private free(): number {
    try {
      return (this.opts.freeBytes ?? freeBytesOn)(dirname(this.path));
    } catch {
      return Number.POSITIVE_INFINITY;
    }
  }

  /** Create the reserve file when there is room for it above the headroom. */
  private holdReserve(): void {
    const size = this.opts.reserveBytes ?? 0;
    if (size <= 0 || this.reserveHeld) return;
    if (existsSync(this.reservePath) && statSync(this.reservePath).size === size) {
      this.reserveHeld = true;
      return;
    }
    if (this.free() < size + this.minFree / 2) return;
    try {
      writeFileSync(this.reservePath, Buffer.alloc(size));
      this.reserveHeld = true;
    } catch (err) {
      try {
        unlinkSync(this.reservePath);
      } catch {
        /* never created */
      }
      this.logger?.warn('store: could not create the reserve file', { path: this.reservePath, error: errorMessage(err) });
    }
  }

  /** Give the reserve file's space back to the file system (a full disk); true if there was one. */
  private releaseReserve(): boolean {
    if (!this.reserveHeld) return false;
    this.reserveHeld = false;
    try {
      unlinkSync(this.reservePath);
      this.logger?.warn('store disk full: gave up the reserve file to keep the text rows', { path: this.reservePath });
      return true;
    } catch (err) {
      this.logger?.error('store: could not remove the reserve file', { path: this.reservePath, error: errorMessage(err) });
      return false;
    }
  }

  /**
   * Count a write for the checkpointer. If the background one has fallen behind by more than the
   * reserve could absorb (its worker busy, the event loop never idle), checkpoint here: the WAL must
   * never hold more unmerged pages than a full disk leaves room to merge.
   */
  wroteBytes(bytes: number): void {
    this.checkpointer?.wrote(bytes);
    this.unCheckpointed += bytes;
    const done = this.checkpointer?.last;
    if (done && done !== this.lastSeenCheckpoint) {
      this.lastSeenCheckpoint = done;
      this.unCheckpointed = bytes;
    }
    if (this.unCheckpointed > this.walBound) this.checkpointNow();
  }

  /** A TRUNCATE checkpoint on this connection; true if the WAL was emptied. */
  checkpointNow(): boolean {
    try {
      const [r] = this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
      const ok = r !== undefined && r.busy === 0;
      if (ok) this.unCheckpointed = 0;
      return ok;
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      return false;
    }
  }

  /** The housekeeping tick: audio storage resumes once there is room again; the reserve is taken back. */
  maybeResumeAudio(): void {
    if (!this.paused) {
      if (!this.reserveHeld) this.holdReserve();
      return;
    }
    if (this.wallNow() - this.paused.at < (this.opts.resumeAfterMs ?? DEFAULT_RESUME_AFTER_MS)) return;
    const free = (this.opts.freeBytes ?? freeBytesOn)(dirname(this.path));
    if (free < (this.opts.resumeFreeBytes ?? DEFAULT_RESUME_FREE_BYTES)) return;
    this.paused = null;
    this.holdReserve();
    this.logger?.info('store audio storage resumed', { path: this.path, freeBytes: free });
    this.bus?.emit('store.audio-resumed', { path: this.path });
  }

  writeFailed(what: string, err: unknown): void {
    if (isDiskFull(err)) this.pauseAudio(errorMessage(err));
    this.writeFailures++;
    this.lastWriteError = { at: this.wallNow(), what, error: errorMessage(err) };
    this.logger?.error('store write failed; the row is lost, hark carries on', { path: this.path, what, error: errorMessage(err) });
    this.bus?.emit('store.write-failed', { what, error: errorMessage(err) });
  }
}

export function isSqliteError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_');
}

export function isDiskFull(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'SQLITE_FULL';
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}

function freeBytesOn(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}
