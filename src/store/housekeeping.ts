import type { Database, Statement } from 'better-sqlite3';
import { planRetention, type RetentionCandidate, type RetentionPlan, type RetentionPolicy } from './retention.js';

/** The store's retention settings and how often they run. */
export interface HousekeepingOptions extends RetentionPolicy {
  /** Time between retention runs; a full batch runs again after `batchPauseMs`. */
  intervalMs: number;
  batchPauseMs?: number;
}

/** Pages (4 KiB) handed back to the file system per run: ~8 MB, a short pause even on an SD card. */
export const VACUUM_PAGES_PER_RUN = 2000;

/**
 * The I/O half of retention: read the oldest rows and totals, let planRetention decide, delete in
 * one short transaction, then give freed pages back to the file system a slice at a time.
 */
export class Housekeeping {
  private readonly oldest: Statement;
  private readonly aged: Statement;
  private readonly totalAudio: Statement;
  private readonly deleteSegments: Statement;
  private readonly orphanDeletes: Statement[];

  constructor(
    private readonly db: Database,
    private readonly policy: RetentionPolicy,
  ) {
    this.oldest = db.prepare('SELECT id, started_at AS startedAt, audio_bytes AS audioBytes FROM segments ORDER BY id LIMIT ?');
    // By time, through the started_at index: old rows are found wherever their id is.
    this.aged = db.prepare('SELECT id, started_at AS startedAt, audio_bytes AS audioBytes FROM segments WHERE started_at < ? ORDER BY started_at LIMIT ?');
    this.totalAudio = db.prepare('SELECT COALESCE(SUM(audio_bytes), 0) FROM segments').pluck();
    this.deleteSegments = db.prepare('DELETE FROM segments WHERE id IN (SELECT value FROM json_each(?))');
    // Rows that never had a segment (typed text, `hark simulate`) age out on their own clock.
    this.orphanDeletes = ['transcripts', 'utterances', 'intents', 'actions'].map((t) =>
      db.prepare(`DELETE FROM ${t} WHERE rowid IN (SELECT rowid FROM ${t} WHERE segment_id IS NULL AND created_at < ? LIMIT ?)`),
    );
  }

  /** One batch. Returns what was deleted; `more` means call again soon. */
  runBatch(nowMs: number): RetentionPlan {
    const plan = this.db.transaction(() => {
      const p = planRetention({
        nowMs,
        policy: this.policy,
        totalAudioBytes: this.totalAudio.get() as number,
        oldest: [
          ...(this.oldest.all(this.policy.batchSize) as RetentionCandidate[]),
          ...(this.aged.all(nowMs - this.policy.maxAgeMs, this.policy.batchSize) as RetentionCandidate[]),
        ],
      });
      if (p.deleteIds.length > 0) this.deleteSegments.run(JSON.stringify(p.deleteIds));
      let orphans = 0;
      for (const d of this.orphanDeletes) orphans += d.run(nowMs - this.policy.maxAgeMs, this.policy.batchSize).changes;
      if (orphans >= this.policy.batchSize) p.more = true;
      return p;
    })();
    this.db.pragma(`incremental_vacuum(${VACUUM_PAGES_PER_RUN})`);
    return plan;
  }

  freePages(): number {
    return this.db.pragma('freelist_count', { simple: true }) as number;
  }
}
