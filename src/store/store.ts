import type { Database } from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import type { Bus } from '../core/bus.js';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { StoredRowKind, TranscriptSummary } from './events.js';
import { DiskGuard, PAGE_BYTES, isSqliteError, type DiskHealth, type DiskOptions } from './disk-guard.js';
import { guardedWrite } from './guarded-write.js';
import { Housekeeping, type HousekeepingOptions } from './housekeeping.js';
import { openDatabase, type CorruptRecovery } from './open.js';
import { SegmentReader } from './queries.js';
import type {
  ActionInput,
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
import type { RetentionPlan } from './retention.js';
import { echoTrackProblem } from './echo-track.js';
import { schemaVersion } from './schema.js';
import { RowWriter, segmentRow } from './writer.js';
import { RingStopTable, TimerTable } from './timers.js';
import { EchoSkewTable } from './echo-skew.js';

/** Where the log is and what it does; the settings for a small or full disk are DiskOptions (disk-guard.ts). */
export interface StoreOptions extends DiskOptions {
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
  lastWriteError: DiskHealth['lastWriteError'];
  writeFailures: number;
  /** Rows waiting for room on a full disk, and rows lost because that queue was full. */
  pendingRows: number;
  rowsLost: number;
  /** Segments whose audio was deleted (oldest first) to make room for text. */
  reclaimedSegments: number;
}

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
  private readonly disk: DiskGuard;
  private readonly bus?: Bus;
  private readonly logger?: Logger;
  private readonly clock: Clock;
  private readonly wallNow: () => number;
  private readonly opts: StoreOptions;
  private timer: TimerHandle | null = null;
  private readonly audioOn: boolean;
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
    this.disk = new DiskGuard({ db: this.db, path: this.path, bus: this.bus, logger: this.logger, wallNow: this.wallNow }, opts);
    if (this.recovered) this.bus?.emit('store.corrupt', { path: this.path, ...this.recovered });
  }

  /** Start the housekeeping timer (the first run comes one batch pause after start). */
  start(): void {
    if (this.housekeeping && !this.timer && !this.closed) this.schedule(this.opts.housekeeping!.batchPauseMs ?? 1000);
  }

  // ---- writes ----

  /**
   * One transaction: the segment, its PCM, and whatever transcripts/utterance/intents/actions it has
   * (a full disk never costs the text: guarded-write.ts).
   */
  recordSegment(w: SegmentWrite): RecordedSegment | null {
    if (this.closedWrite('segment')) return null;
    const createdAt = this.wallNow();
    // What a queued write keeps: the text rows and segmentRow()'s few numbers, never the PCM.
    const rest = { transcripts: w.transcripts ?? [], utterance: w.utterance, intents: w.intents ?? [], actions: w.actions ?? [], listItems: w.listItems ?? [] };
    const row = segmentRow(w.segment, !this.audioOn);
    // The raw microphone of a segment heard over playback, stored with its audio or not at all.
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
      this.disk.wroteBytes(PAGE_BYTES + (r.audio === 'stored' ? pcmBytes : 0));
      this.bus?.emit('store.segment', { id: r.id, audio: r.audio, transcripts: rest.transcripts.map(summary) });
    };
    const result = guardedWrite(
      this.disk,
      'segment',
      () => attempt(this.audioOn && !this.disk.audioPaused && this.disk.roomForAudio(pcmBytes) ? w.segment.pcm : null),
      () => attempt(null),
      announce,
    );
    if (!result) return null;
    // Close to the bottom of the disk: keep the WAL at its smallest after every segment.
    if (this.disk.audioPaused) this.disk.checkpointNow();
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
   * A later conflicting action superseded one already written (the last-wins): its row says
   * so, and by what. False when the row is not there (or the store is closed or failing).
   */
  supersedeAction(utteranceId: string | null, name: string, by: string): boolean {
    if (this.closedWrite('action')) return false;
    return (
      guardedWrite(
        this.disk,
        'action',
        () => this.writer.supersedeAction(utteranceId, name, by),
        () => this.writer.supersedeAction(utteranceId, name, by),
        () => {},
      ) ?? false
    );
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

  /** The raw microphone of a segment heard over playback: see SegmentReader.rawAudio. */
  getRawAudio(id: number): ReturnType<SegmentReader['rawAudio']> {
    return this.reader.rawAudio(id);
  }

  listItems(list?: string): ListItemView[] {
    return this.reader.listItems(list);
  }

  /** Kitchen timers kept across restarts (store/timers.ts). */
  timers(): TimerTable {
    return (this.timerTable ??= new TimerTable(this.db, this.wallNow));
  }
  private timerTable: TimerTable | undefined;

  /** Stops said here for other devices' rings, until their owners confirm (store/timers.ts). */
  ringStops(): RingStopTable {
    return (this.ringStopTable ??= new RingStopTable(this.db, this.wallNow));
  }
  private ringStopTable: RingStopTable | undefined;

  /** The echo canceller's skew per pair of cards, kept across restarts. */
  echoSkew(): EchoSkewTable {
    return (this.echoSkewTable ??= new EchoSkewTable(this.db, this.wallNow));
  }
  private echoSkewTable: EchoSkewTable | undefined;

  health(): StoreHealth {
    const totals = this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(audio_bytes), 0) AS bytes FROM segments').get() as { n: number; bytes: number };
    const { paused, ...disk } = this.disk.health();
    return {
      path: this.path,
      schemaVersion: schemaVersion(this.db),
      segments: totals.n,
      audioBytes: totals.bytes,
      fileBytes: fileSize(this.path) + fileSize(this.path + '-wal'),
      audioStorage: !this.audioOn ? 'off' : paused ? 'paused-disk-full' : 'on',
      pausedReason: paused?.reason ?? null,
      pausedAt: paused?.at ?? null,
      recovered: this.recovered,
      ...disk,
    };
  }

  // ---- housekeeping ----

  /** One retention batch plus the disk-space check; the timer calls this, tests may too. */
  runHousekeeping(): RetentionPlan | null {
    if (this.closed) return null;
    this.disk.flushPending();
    this.disk.maybeResumeAudio();
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
    if (!this.disk.flushPending())
      this.logger?.error('store closed with rows still waiting for disk space; they are lost', { path: this.path, rows: this.disk.pendingRows });
    this.disk.closeCheckpointer();
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
      this.disk.wroteBytes(PAGE_BYTES);
      this.bus?.emit('store.row', { kind, id: r.id, segmentId: r.segmentId, ...(transcript ? { transcript } : {}) });
    };
    const written = guardedWrite(this.disk, kind, run, run, done);
    return written ? written.id : null;
  }

  /** A write that arrives after close (a straggler during shutdown) is dropped with a note, not a crash. */
  private closedWrite(what: string): boolean {
    if (this.closed) this.logger?.warn('store is closed; write dropped', { what });
    return this.closed;
  }
}

function summary(t: TranscriptInput): TranscriptSummary {
  return { engine: t.engine, sttMs: t.sttMs ?? null, droppedReason: t.droppedReason ?? null, fallbackReason: t.fallbackReason ?? null };
}

function fileSize(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}
