import { rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SegmentReader } from '../../src/store/queries.js';
import { MIGRATIONS, migrate } from '../../src/store/schema.js';
import { Store } from '../../src/store/store.js';
import { jfkPcm, scratch } from './fixtures.js';

/**
 * How long before its close a segment's words ended (the hangover in force then) is stored with it,
 * so replay counts the response cascade from the moment the device did; older rows read null.
 */
const open: Store[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

describe('the trailing silence of a stored segment', () => {
  it('is kept with the segment; a segment written without one reads null', async () => {
    const s = new Store({ path: join(scratch('store-trailing'), 'hark.db'), housekeeping: null });
    open.push(s);
    const pcm = (await jfkPcm()).slice(0, 8000);
    const confirming = s.recordSegment({ segment: { pcm, prerollSamples: 0, startedAt: 1, closeReason: 'hangover', trailingSilenceMs: 250 } })!.id;
    const posted = s.recordSegment({ segment: { pcm, prerollSamples: 0, startedAt: 2, closeReason: 'hangover' } })!.id;
    expect(s.getSegment(confirming)!.trailingSilenceMs).toBe(250);
    expect(s.getSegment(posted)!.trailingSilenceMs).toBeNull();
  });

  it('a file at version 9 gains the column on open; read as it is (replay opens it read-only), its rows read null', () => {
    const path = join(scratch('store-trailing'), 'v9.db');
    rmSync(path, { force: true });
    const db = new Database(path);
    try {
      migrate(
        db,
        'v9',
        MIGRATIONS.filter((m) => m.version <= 9),
      );
      db.prepare(
        "INSERT INTO segments (created_at, started_at, source, sample_rate, sample_count, preroll_samples, close_reason, rms, peak, audio_state) VALUES (1, 1, 'mic', 16000, 16000, 0, 'hangover', 0, 0, 'off')",
      ).run();
      expect(new SegmentReader(db).list({ limit: 10 }).segments[0]!.trailingSilenceMs).toBeNull();
      expect(migrate(db, 'v9', MIGRATIONS)).toBeGreaterThanOrEqual(10);
      expect(new SegmentReader(db).list({ limit: 10 }).segments[0]!.trailingSilenceMs).toBeNull();
    } finally {
      db.close();
    }
  });
});
