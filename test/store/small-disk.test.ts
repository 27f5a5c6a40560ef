import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { memoryLogger } from '../../src/core/log.js';
import { Store } from '../../src/store/store.js';
import type { SegmentWrite } from '../../src/store/records.js';
import { jfkWrites, scratch } from './fixtures.js';

/**
 * The store on a really full disk: a 2 MB tmpfs where the machine allows mounting
 * one (root or a user namespace), else SQLite's own page cap on a normal file (the same SQLITE_FULL).
 * Every text row must be kept: audio stops, the oldest stored audio is given up to make room, rows
 * that fit nowhere wait in a bounded queue and are written once there is room again.
 */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a store on a small disk', () => {
  const root = scratch('small-disk');
  const mounts: string[] = [];
  let writes: SegmentWrite[];
  /** A fresh 2 MB file system per test (one full disk must not spill into the next test). */
  const smallFs = (name: string): { dir: string; mounted: boolean } => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    const mounted = mountTmpfs(dir, '2m');
    if (mounted) mounts.push(dir);
    return { dir, mounted };
  };

  beforeAll(async () => {
    writes = await jfkWrites();
  });
  afterAll(() => {
    for (const d of mounts) execFileSync('umount', ['-l', d]);
  });

  /** 64 segments of the four JFK phrases, each its own utterance and action. */
  const segment = (i: number): SegmentWrite => {
    const w = writes[i % 4]!;
    return {
      ...w,
      segment: { ...w.segment, index: i },
      utterance: { ...w.utterance!, id: `utt-${i}` },
      transcripts: [{ ...w.transcripts![0]!, text: `${w.transcripts![0]!.text} #${i}` }],
    };
  };

  it('keeps every text row of 64 segments, giving up the oldest audio first, and says so', () => {
    const { dir, mounted } = smallFs('a');
    const logger = memoryLogger();
    const bus = new Bus();
    const s = new Store({ path: join(dir, 'hark.db'), logger, bus, housekeeping: null, backgroundCheckpoint: false });
    if (!mounted) s.db.pragma('max_page_count = 512'); // 2 MB of 4 KiB pages
    try {
      for (let i = 0; i < 64; i++) s.recordSegment(segment(i));
      const h = s.health();
      expect(logger.lines.filter((l) => l.includes('the row is lost'))).toEqual([]);
      expect(h.segments + h.pendingRows).toBe(64);
      expect(h.audioStorage).toBe('paused-disk-full');
      // Audio stops before the disk is full (free space is checked before each segment's
      // audio); where it did fill, the oldest audio was given up first (checked below).
      expect(h.segments).toBe(64);
      const rows = s.db.prepare('SELECT id, audio_state AS a FROM segments ORDER BY id').all() as { id: number; a: string }[];
      // what was given up is the oldest audio: no stored one before a reclaimed one
      const lastReclaimed = rows.map((r) => r.a).lastIndexOf('reclaimed');
      if (lastReclaimed >= 0) expect(rows.slice(0, lastReclaimed).every((r) => r.a !== 'stored')).toBe(true);
      const texts = (s.db.prepare('SELECT text FROM transcripts ORDER BY id').pluck().all() as string[]).map((t) => Number(t.split('#')[1]));
      expect(texts).toEqual([...Array(h.segments).keys()]);
    } finally {
      s.close();
    }
  });

  it('queues rows when even text does not fit, and writes them in order when space returns', () => {
    const { dir, mounted } = smallFs('b');
    const path = join(dir, 'q.db');
    const s = new Store({ path, logger: memoryLogger(), housekeeping: null, backgroundCheckpoint: false, maxPendingRows: 100 });
    const filler = join(dir, 'filler');
    const full = () => {
      if (mounted) {
        try {
          // fill the file system to the last byte
          execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' });
        } catch {
          /* ENOSPC: that is the point */
        }
      } else s.db.pragma(`max_page_count = ${s.db.pragma('page_count', { simple: true })}`);
    };
    try {
      full();
      // 20 rows of 20 KB: all of them fit in 2 MB (with their WAL copies) once the filler is gone
      const text = (i: number): SegmentWrite => ({ ...segment(i), transcripts: [{ engine: 'whisper', rawText: 'x'.repeat(20_000), text: `t${i}` }] });
      for (let i = 0; i < 20; i++) s.recordSegment(text(i));
      expect(s.addAction({ utteranceId: 'utt-19', name: 'late', outcome: 'ok' })).toBeNull();
      const waiting = s.health().pendingRows;
      expect(waiting).toBeGreaterThan(0);
      // room again
      if (mounted) rmSync(filler);
      else s.db.pragma('max_page_count = 1073741823');
      s.runHousekeeping();
      expect(s.health().pendingRows).toBe(0);
      expect(s.db.prepare('SELECT text FROM transcripts ORDER BY id').pluck().all()).toEqual([...Array(20).keys()].map((i) => `t${i}`));
      expect(s.db.prepare("SELECT COUNT(*) FROM actions WHERE name = 'late'").pluck().get()).toBe(1);
    } finally {
      rmSync(filler, { force: true });
      s.close();
    }
  });

  it('bounds the queue: beyond it the oldest waiting row is dropped, counted and logged', () => {
    const { dir } = smallFs('c');
    const path = join(dir, 'b.db');
    const logger = memoryLogger();
    const s = new Store({ path, logger, housekeeping: null, backgroundCheckpoint: false, maxPendingRows: 5 });
    try {
      s.db.pragma(`max_page_count = ${s.db.pragma('page_count', { simple: true })}`);
      for (let i = 0; i < 8; i++) s.recordSegment({ ...segment(i), transcripts: [{ engine: 'w', rawText: 'y'.repeat(30_000), text: `b${i}` }] });
      expect(s.health()).toMatchObject({ pendingRows: 5, rowsLost: 3 });
      expect(logger.lines.some((l) => /queue of rows waiting for disk space is full/.test(l))).toBe(true);
      s.db.pragma('max_page_count = 1073741823');
      s.runHousekeeping();
      expect(s.db.prepare('SELECT text FROM transcripts ORDER BY id').pluck().all()).toEqual(['b3', 'b4', 'b5', 'b6', 'b7']);
    } finally {
      s.close();
    }
  });
});
