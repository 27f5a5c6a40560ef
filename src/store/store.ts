import type { Database } from 'better-sqlite3';
import { existsSync, statSync, statfsSync } from 'node:fs';
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
  SegmentPage,
  SegmentQuery,
  SegmentView,
  SegmentWrite,
  TranscriptInput,
  UtteranceInput,
} from './records.js';
import type { RetentionPlan, RetentionPolicy } from './retention.js';
import { schemaVersion } from './schema.js';
import { RowWriter } from './writer.js';

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
}

const PAGE_BYTES = 4096;
const DEFAULT_RESUME_FREE_BYTES = 64 * 1024 * 1024;
const DEFAULT_RESUME_AFTER_MS = 5 * 60_000;

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
    this.checkpointer = opts.backgroundCheckpoint === false ? null : new Checkpointer(this.db, this.path, this.logger);
    if (this.recovered) this.bus?.emit('store.corrupt', { path: this.path, ...this.recovered });
  }

  /** Start the housekeeping timer (the first run comes one batch pause after start). */
  start(): void {
    if (this.housekeeping && !this.timer && !this.closed) this.schedule(this.opts.housekeeping!.batchPauseMs ?? 1000);
  }

  // ---- writes ----

  /** One transaction: the segment, its PCM, and whatever transcripts/utterance/intents/actions it has. */
  recordSegment(w: SegmentWrite): RecordedSegment | null {
    if (this.closedWrite('segment')) return null;
    const attempt = (audio: AudioState): RecordedSegment => {
      const createdAt = this.wallNow();
      const id = this.db.transaction(() => {
        const segId = this.writer.insertSegment(w.segment, audio, createdAt);
        for (const t of w.transcripts ?? []) this.writer.insertTranscript(segId, t, createdAt);
        if (w.utterance) this.writer.insertUtterance(segId, w.utterance, createdAt);
        for (const i of w.intents ?? []) this.writer.insertIntent(segId, { utteranceId: w.utterance?.id, ...i }, createdAt);
        for (const a of w.actions ?? []) this.writer.insertAction(segId, { utteranceId: w.utterance?.id, ...a }, createdAt);
        for (const l of w.listItems ?? []) this.writer.insertListItem(segId, { utteranceId: w.utterance?.id, ...l }, createdAt);
        return segId;
      })();
      return { id, audio };
    };
    const audio: AudioState = !this.audioOn ? 'off' : this.paused ? 'disk-full' : 'stored';
    let result: RecordedSegment | null = null;
    try {
      result = attempt(audio);
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      if (isDiskFull(err) && audio === 'stored') {
        this.pauseAudio(errorMessage(err));
        try {
          result = attempt('disk-full');
        } catch (again) {
          if (!isSqliteError(again)) throw again;
          this.writeFailed('segment', again);
        }
      } else {
        this.writeFailed('segment', err);
      }
    }
    if (result) {
      this.checkpointer?.wrote(PAGE_BYTES + (result.audio === 'stored' ? w.segment.pcm.byteLength : 0));
      this.bus?.emit('store.segment', { id: result.id, audio: result.audio, transcripts: (w.transcripts ?? []).map(summary) });
    }
    return result;
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
    try {
      return this.writer.supersedeAction(utteranceId, name, by);
    } catch (err) {
      if (!isSqliteError(err)) throw err;
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

  listItems(list?: string): ListItemView[] {
    return this.reader.listItems(list);
  }

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
    };
  }

  // ---- housekeeping ----

  /** One retention batch plus the disk-space check; the timer calls this, tests may too. */
  runHousekeeping(): RetentionPlan | null {
    if (this.closed) return null;
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
    try {
      const { id, segmentId } = this.db.transaction(() => {
        const seg = this.writer.resolveSegment(link.segmentId, link.utteranceId);
        return { id: insert(seg, this.wallNow()), segmentId: seg };
      })();
      this.checkpointer?.wrote(PAGE_BYTES);
      this.bus?.emit('store.row', { kind, id, segmentId, ...(transcript ? { transcript } : {}) });
      return id;
    } catch (err) {
      if (!isSqliteError(err)) throw err;
      this.writeFailed(kind, err);
      return null;
    }
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

  private maybeResumeAudio(): void {
    if (!this.paused) return;
    if (this.wallNow() - this.paused.at < (this.opts.resumeAfterMs ?? DEFAULT_RESUME_AFTER_MS)) return;
    const free = (this.opts.freeBytes ?? freeBytesOn)(dirname(this.path));
    if (free < (this.opts.resumeFreeBytes ?? DEFAULT_RESUME_FREE_BYTES)) return;
    this.paused = null;
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

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

function freeBytesOn(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}
