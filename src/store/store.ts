import type { Database } from 'better-sqlite3';
import { existsSync, statSync, statfsSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Bus } from '../core/bus.js';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { StoredRowKind, TranscriptSummary } from './events.js';
import { Checkpointer } from './checkpointer.js';
import { Housekeeping } from './housekeeping.js';
import { openDatabase, type CorruptRecovery } from './open.js';
import { SegmentReader } from './queries.js';
import type {
  ActionInput,
  AudioState,
  IntentInput,
  ListItemInput,
  ListItemView,
  RecordedSegment,
  RowLink,
  SegmentInput,
  SegmentPage,
  SegmentQuery,
  SegmentView,
  SegmentWrite,
  TranscriptInput,
  UtteranceInput,
} from './records.js';
import type { RetentionPlan, RetentionPolicy } from './retention.js';
import { echoTrackProblem } from './echo-track.js';
import { schemaVersion } from './schema.js';
import { RowWriter, segmentRow } from './writer.js';
import { TimerTable } from './timers.js';

export interface HousekeepingOptions extends RetentionPolicy {
  /** Time between retention runs; a full batch runs again after `batchPauseMs`. */
  intervalMs: number;
  batchPauseMs?: number;
}

export interface StoreOptions {
  path: string;
  bus?: Bus;
  logger?: Logger;
  /** Drives the housekeeping timer. */
  clock?: Clock;
  /** Wall-clock ms since the epoch: row times and retention ages. */
  wallNow?: () => number;
  /** null: never delete anything (the viewer serving a copied file). */
  housekeeping?: HousekeepingOptions | null;
  /** Default true. False refuses a corrupt file instead of moving it aside. */
  recoverCorrupt?: boolean;
  mustExist?: boolean;
  /** Default true. False keeps the text rows and metadata only. */
  storeAudio?: boolean;
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

export interface StoreHealth {
  path: string;
  schemaVersion: number;
  segments: number;
  audioBytes: number;
  /** The database file and its WAL on disk. */
  fileBytes: number;
  audioStorage: 'on' | 'off' | 'paused-disk-full';
  pausedReason: string | null;
  pausedAt: number | null;
  recovered: CorruptRecovery | null;
  /** The most recent write that failed, if any since start. */
  lastWriteError: { at: number; what: string; error: string } | null;
  writeFailures: number;
  /** Rows waiting for room on a full disk, and rows lost because that queue was full. */
  pendingRows: number;
  rowsLost: number;
  /** Segments whose audio was deleted (oldest first) to make room for text. */
  reclaimedSegments: number;
}

/** A write that could not be done yet (full disk): done later, in order, from these few values. */
interface PendingWrite {
  what: string;
  run: () => void;
}

const PAGE_BYTES = 4096;
const DEFAULT_RESUME_FREE_BYTES = 64 * 1024 * 1024;
const DEFAULT_RESUME_AFTER_MS = 5 * 60_000;
const DEFAULT_MAX_PENDING = 1000;
const DEFAULT_RECLAIM_BYTES = 16 * 1024 * 1024;
const MB = 1024 * 1024;

/**
 * The segment log. The daemon calls recordSegment() once per segment, after its action has been
 * dispatched (never between speech and action), and the add*() methods for rows that come later.
 * Writes never throw for SQLite trouble: a full disk stops audio storage and keeps the text, any
 * other failure is logged and reported on the bus, and hark carries on.
 */
export class Store {
  readonly path: string;
  /** The connection itself, for tests and tools; hark code goes through the methods. */
  readonly db: Database;
  readonly recovered: CorruptRecovery | null;
  private readonly writer: RowWriter;
  private readonly reader: SegmentReader;
  private readonly housekeeping: Housekeeping | null;
  private readonly checkpointer: Checkpointer | null;
  private readonly bus?: Bus;
  private readonly logger?: Logger;
  private readonly clock: Clock;
  private readonly wallNow: () => number;
  private readonly opts: StoreOptions;
  private timer: TimerHandle | null = null;
  private readonly audioOn: boolean;
  private paused: { reason: string; at: number } | null = null;
  private lastWriteError: StoreHealth['lastWriteError'] = null;
  private writeFailures = 0;
  private closed = false;
  private readonly pending: PendingWrite[] = [];
  private rowsLost = 0;
  private reclaimed = 0;
  private readonly reservePath: string;
  private reserveHeld = false;
  private readonly minFree: number;
  /** Bytes written since the last checkpoint this store knows finished; past walBound, checkpoint here and now. */
  private unCheckpointed = 0;
  private readonly walBound: number;

  constructor(opts: StoreOptions) {
    this.opts = opts;
    this.path = opts.path;
    this.bus = opts.bus;
    this.logger = opts.logger;
    this.clock = opts.clock ?? new SystemClock();
    this.wallNow = opts.wallNow ?? Date.now;
    this.audioOn = opts.storeAudio ?? true;
    const opened = openDatabase(opts.path, {
      recoverCorrupt: opts.recoverCorrupt ?? true,
      mustExist: opts.mustExist,
      logger: opts.logger,
      wallNow: this.wallNow,
    });
    this.db = opened.db;
    this.recovered = opened.recovered;
    if (opened.checkMs > 1000) this.logger?.warn('store integrity check was slow', { path: this.path, ms: Math.round(opened.checkMs) });
    this.writer = new RowWriter(this.db);
    this.reader = new SegmentReader(this.db);
    this.housekeeping = opts.housekeeping ? new Housekeeping(this.db, opts.housekeeping) : null;
    // The WAL is bounded by the disk it is on (issue 21): checkpoint often and trim it small where
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
    if (this.recovered) this.bus?.emit('store.corrupt', { path: this.path, ...this.recovered });
  }

  /** Start the housekeeping timer (the first run comes one batch pause after start). */
  start(): void {
    if (this.housekeeping && !this.timer && !this.closed) this.schedule(this.opts.housekeeping!.batchPauseMs ?? 1000);
  }

  // ---- writes ----

  /**
   * One transaction: the segment, its PCM, and whatever transcripts/utterance/intents/actions it has.
   * A full disk never costs the text: audio storage stops, the oldest stored audio is given up to make
   * room, and a row that still does not fit waits in a bounded queue (null is returned) until it does.
   */
  recordSegment(w: SegmentWrite): RecordedSegment | null {
    if (this.closedWrite('segment')) return null;
    const createdAt = this.wallNow();
    // What a queued write keeps: the text rows and segmentRow()'s few numbers, never the PCM.
    const rest = { transcripts: w.transcripts ?? [], utterance: w.utterance, intents: w.intents ?? [], actions: w.actions ?? [], listItems: w.listItems ?? [] };
    const row = segmentRow(w.segment, !this.audioOn);
    // Issue 20: the raw microphone of a segment heard over playback, stored with its audio or not at all.
    const raw = this.echoRaw(w.segment);
    const pcmBytes = w.segment.pcm.byteLength + (raw?.byteLength ?? 0);
    const attempt = (pcm: Int16Array | null): RecordedSegment => {
      const id = this.db.transaction(() => {
        const segId = this.writer.insertSegmentRow(row, pcm, createdAt, raw);
        const utteranceId = rest.utterance?.id;
        for (const t of rest.transcripts) this.writer.insertTranscript(segId, t, createdAt);
        if (rest.utterance) this.writer.insertUtterance(segId, rest.utterance, createdAt);
        for (const i of rest.intents) this.writer.insertIntent(segId, { utteranceId, ...i }, createdAt);
        for (const a of rest.actions) this.writer.insertAction(segId, { utteranceId, ...a }, createdAt);
        for (const l of rest.listItems) this.writer.insertListItem(segId, { utteranceId, ...l }, createdAt);
        return segId;
      })();
      return { id, audio: pcm ? 'stored' : this.audioOn ? 'disk-full' : 'off' };
    };
    const announce = (r: RecordedSegment) => {
      this.wroteBytes(PAGE_BYTES + (r.audio === 'stored' ? pcmBytes : 0));
      this.bus?.emit('store.segment', { id: r.id, audio: r.audio, transcripts: rest.transcripts.map(summary) });
    };
    const later = () => announce(attempt(null));
    // Earlier rows still waiting go first: the log keeps the order things happened in.
    if (!this.flushPending()) {
      this.enqueue('segment', later);
      return null;
    }
    let result: RecordedSegment | null = null;
    try {
      result = attempt(this.audioOn && !this.paused && this.roomForAudio(pcmBytes) ? w.segment.pcm : null);
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      if (!isDiskFull(err)) {
        this.writeFailed('segment', err);
        return null;
      }
      this.pauseAudio(errorMessage(err));
      result = this.retryAfterReclaim(() => attempt(null));
      if (!result) {
        this.enqueue('segment', later);
        return null;
      }
    }
    announce(result);
    // Close to the bottom of the disk: keep the WAL at its smallest after every segment.
    if (this.paused) this.checkpointNow();
    return result;
  }

  /** A segment's raw track if it is fit to store; a bad one is logged and left out, never the segment. */
  private echoRaw(s: SegmentInput): Int16Array | null {
    if (!s.echo) return null;
    const problem = echoTrackProblem(s.echo, s.pcm.length);
    if (!problem) return s.echo.raw;
    this.logger?.warn('store: the raw microphone track is not stored; the segment is', { problem });
    return null;
  }

  addTranscript(t: TranscriptInput & RowLink): number | null {
    return this.late('transcript', t, (seg, now) => this.writer.insertTranscript(seg, t, now), summary(t));
  }

  addUtterance(u: UtteranceInput & RowLink): string | null {
    return this.late('utterance', u, (seg, now) => {
      this.writer.insertUtterance(seg, u, now);
      return u.id;
    });
  }

  addIntent(i: IntentInput & RowLink): number | null {
    return this.late('intent', i, (seg, now) => this.writer.insertIntent(seg, i, now));
  }

  addAction(a: ActionInput & RowLink): number | null {
    return this.late('action', a, (seg, now) => this.writer.insertAction(seg, a, now));
  }

  /**
   * A later conflicting action superseded one already written (seed 000's last-wins): its row says
   * so, and by what. False when the row is not there (or the store is closed or failing).
   */
  supersedeAction(utteranceId: string | null, name: string, by: string): boolean {
    if (this.closedWrite('action')) return false;
    const run = () => this.writer.supersedeAction(utteranceId, name, by);
    if (!this.flushPending()) {
      this.enqueue('action', () => void run());
      return false;
    }
    try {
      return run();
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      if (isDiskFull(err)) {
        const done = this.retryAfterReclaim(run);
        if (done === null) this.enqueue('action', () => void run());
        return done ?? false;
      }
      this.writeFailed('action', err);
      return false;
    }
  }

  addListItem(l: ListItemInput & RowLink): number | null {
    return this.late('list-item', l, (seg, now) => this.writer.insertListItem(seg, l, now));
  }

  // ---- reads ----

  listSegments(query: SegmentQuery): SegmentPage {
    return this.reader.list(query);
  }

  getSegment(id: number): SegmentView | undefined {
    return this.reader.get(id);
  }

  /** undefined: no such segment; null: its audio was not stored. */
  getAudio(id: number): { pcm: Int16Array; sampleRate: number } | null | undefined {
    return this.reader.audio(id);
  }

  /** The raw microphone of a segment heard over playback (issue 20): see SegmentReader.rawAudio. */
  getRawAudio(id: number): ReturnType<SegmentReader['rawAudio']> {
    return this.reader.rawAudio(id);
  }

  listItems(list?: string): ListItemView[] {
    return this.reader.listItems(list);
  }

  /** Kitchen timers kept across restarts (issue 14; store/timers.ts). */
  timers(): TimerTable {
    return (this.timerTable ??= new TimerTable(this.db, this.wallNow));
  }
  private timerTable: TimerTable | undefined;

  health(): StoreHealth {
    const totals = this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(audio_bytes), 0) AS bytes FROM segments').get() as { n: number; bytes: number };
    return {
      path: this.path,
      schemaVersion: schemaVersion(this.db),
      segments: totals.n,
      audioBytes: totals.bytes,
      fileBytes: fileSize(this.path) + fileSize(this.path + '-wal'),
      audioStorage: !this.audioOn ? 'off' : this.paused ? 'paused-disk-full' : 'on',
      pausedReason: this.paused?.reason ?? null,
      pausedAt: this.paused?.at ?? null,
      recovered: this.recovered,
      lastWriteError: this.lastWriteError,
      writeFailures: this.writeFailures,
      pendingRows: this.pending.length,
      rowsLost: this.rowsLost,
      reclaimedSegments: this.reclaimed,
    };
  }

  // ---- housekeeping ----

  /** One retention batch plus the disk-space check; the timer calls this, tests may too. */
  runHousekeeping(): RetentionPlan | null {
    if (this.closed) return null;
    this.flushPending();
    this.maybeResumeAudio();
    if (!this.housekeeping) return null;
    let plan: RetentionPlan;
    try {
      plan = this.housekeeping.runBatch(this.wallNow());
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      this.logger?.error('store retention failed', { path: this.path, error: errorMessage(err) });
      return null;
    }
    if (plan.deleteIds.length > 0) {
      this.logger?.info('store retention', { deleted: plan.deleteIds.length, byAge: plan.byAge, bySize: plan.bySize, freedBytes: plan.freedBytes });
      this.bus?.emit('store.retention', { deleted: plan.deleteIds.length, byAge: plan.byAge, bySize: plan.bySize, freedBytes: plan.freedBytes });
    }
    if (this.housekeeping.freePages() > 0) plan.more = true;
    return plan;
  }

  /** Stop the timer, checkpoint the WAL into the file, close. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.clock.clearTimer(this.timer);
    this.timer = null;
    if (!this.flushPending()) this.logger?.error('store closed with rows still waiting for disk space; they are lost', { path: this.path, rows: this.pending.length });
    void this.checkpointer?.close();
    try {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.db.pragma('optimize');
    } catch (err) {
      this.logger?.warn('store checkpoint at close failed', { path: this.path, error: errorMessage(err) });
    }
    this.db.close();
  }

  // ---- internals ----

  private schedule(delayMs: number): void {
    this.timer = this.clock.setTimer(delayMs, () => {
      this.timer = null;
      const plan = this.runHousekeeping();
      if (this.closed) return;
      const hk = this.opts.housekeeping!;
      this.schedule(plan?.more ? (hk.batchPauseMs ?? 1000) : hk.intervalMs);
    });
  }

  private late<T extends number | string>(
    kind: StoredRowKind,
    link: RowLink,
    insert: (segmentId: number | null, createdAt: number) => T,
    transcript?: TranscriptSummary,
  ): T | null {
    if (this.closedWrite(kind)) return null;
    const createdAt = this.wallNow();
    const run = () =>
      this.db.transaction(() => {
        const seg = this.writer.resolveSegment(link.segmentId, link.utteranceId);
        return { id: insert(seg, createdAt), segmentId: seg };
      })();
    const done = (r: { id: T; segmentId: number | null }) => {
      this.wroteBytes(PAGE_BYTES);
      this.bus?.emit('store.row', { kind, id: r.id, segmentId: r.segmentId, ...(transcript ? { transcript } : {}) });
      return r.id;
    };
    if (!this.flushPending()) {
      this.enqueue(kind, () => void done(run()));
      return null;
    }
    try {
      return done(run());
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      if (!isDiskFull(err)) {
        this.writeFailed(kind, err);
        return null;
      }
      this.pauseAudio(errorMessage(err));
      const r = this.retryAfterReclaim(run);
      if (r) return done(r);
      this.enqueue(kind, () => void done(run()));
      return null;
    }
  }

  // ---- full disk: reclaim, queue, flush ----

  /**
   * Make room, then try once more; null if it still does not fit. Room comes from, in order: the
   * reserve file (given up at once: no write needed), a TRUNCATE checkpoint (the WAL's pages move
   * into the file and the WAL shrinks), and the oldest stored audio (its pages are reused by the
   * next rows).
   */
  private retryAfterReclaim<R>(run: () => R): R | null {
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
          .prepare('SELECT a.segment_id AS id, s.audio_bytes AS bytes FROM segment_audio a JOIN segments s ON s.id = a.segment_id ORDER BY a.segment_id LIMIT 500')
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
      this.logger?.warn('store disk full: deleted the oldest stored audio to keep the text rows', { path: this.path, segments: ids.length, bytes, firstId: ids[0], lastId: ids.at(-1) });
      this.bus?.emit('store.audio-reclaimed', { segments: ids.length, bytes });
      return ids.length;
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      this.logger?.error('store disk full: could not delete old audio to make room', { path: this.path, error: errorMessage(err) });
      return 0;
    }
  }

  private enqueue(what: string, run: () => void): void {
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
  private flushPending(): boolean {
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

  /** A write that arrives after close (a straggler during shutdown) is dropped with a note, not a crash. */
  private closedWrite(what: string): boolean {
    if (this.closed) this.logger?.warn('store is closed; write dropped', { what });
    return this.closed;
  }

  private pauseAudio(reason: string): void {
    if (this.paused) return;
    this.paused = { reason, at: this.wallNow() };
    this.logger?.error('STORE DISK FULL: audio storage stopped; segments are logged without audio until space is freed', {
      path: this.path,
      reason,
    });
    this.bus?.emit('store.audio-paused', { reason, path: this.path });
  }

  /** Room for this much audio (stored twice for a while: in the WAL, then in the file) above the headroom? */
  private roomForAudio(bytes: number): boolean {
    const free = this.free();
    if (free - 2 * bytes >= this.minFree) return true;
    this.pauseAudio(`free space ${Math.round(free / 1024)} KB leaves no room for audio above the headroom (store.minFreeMb ${Math.round((this.minFree / MB) * 100) / 100})`);
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
  private wroteBytes(bytes: number): void {
    this.checkpointer?.wrote(bytes);
    this.unCheckpointed += bytes;
    const done = this.checkpointer?.last;
    if (done && done !== this.lastSeenCheckpoint) {
      this.lastSeenCheckpoint = done;
      this.unCheckpointed = bytes;
    }
    if (this.unCheckpointed > this.walBound) this.checkpointNow();
  }
  private lastSeenCheckpoint: { log: number; checkpointed: number } | null = null;

  /** A TRUNCATE checkpoint on this connection; true if the WAL was emptied. */
  private checkpointNow(): boolean {
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

  private maybeResumeAudio(): void {
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

  private writeFailed(what: string, err: unknown): void {
    if (isDiskFull(err)) this.pauseAudio(errorMessage(err));
    this.writeFailures++;
    this.lastWriteError = { at: this.wallNow(), what, error: errorMessage(err) };
    this.logger?.error('store write failed; the row is lost, hark carries on', { path: this.path, what, error: errorMessage(err) });
    this.bus?.emit('store.write-failed', { what, error: errorMessage(err) });
  }
}


function summary(t: TranscriptInput): TranscriptSummary {
  return { engine: t.engine, sttMs: t.sttMs ?? null, droppedReason: t.droppedReason ?? null, fallbackReason: t.fallbackReason ?? null };
}

function isSqliteError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_');
}

function isDiskFull(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === 'SQLITE_FULL';
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, v));
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

function freeBytesOn(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}
