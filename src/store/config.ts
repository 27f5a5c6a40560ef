import type { z } from 'zod';
import { between, flag, intBetween, ms, nonEmpty, section } from '../core/config-fields.js';

export const storeSection = section({
  /** The segment log (SQLite). `hark viewer --db` serves a copy of it anywhere. */
  path: nonEmpty('/var/lib/hark/hark.db'),
  /** Segments older than this are deleted. */
  retentionDays: intBetween(1, 3650, 7),
  /** Oldest segments are deleted while their stored audio exceeds this. */
  maxAudioMb: intBetween(1, 1_000_000, 500),
  /** Keep each segment's PCM (false: text and metadata only). */
  audio: flag(true),
  /** Time between retention runs. */
  housekeepingIntervalMs: ms(60_000, 1000, 3_600_000),
  /**
   * Headroom: a segment's audio is not stored when it would leave less than this free on the file
   * system; the text rows are always stored. Audio resumes once space is back.
   */
  minFreeMb: between(0, 1_000_000, 64),
  /**
   * A reserve file (`<store.path>.reserve`) of this size, given up the moment a write finds the disk
   * full: room for the checkpoint and the deletes that make room for text. 0: none.
   */
  reserveMb: between(0, 1024, 4),
  /** Segments deleted per retention batch (small: each batch is one short write). */
  retentionBatch: intBetween(1, 10_000, 100),
});

export type StoreConfig = z.infer<typeof storeSection>;
