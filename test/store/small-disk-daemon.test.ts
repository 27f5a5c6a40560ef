import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/log.js';
import { Store, type StoreOptions } from '../../src/store/store.js';
import type { SegmentWrite } from '../../src/store/records.js';
import { jfkWrites, scratch } from './fixtures.js';

/**
 * Text outlives audio whatever the order of events, on a real 2 MB tmpfs, with the
 * store as the daemon runs it (background checkpoints), for many more segments than fit. Before the
 * fix the WAL grew to fill the disk, the checkpoint had no room, and rows waiting for space were
 * lost at close. Needs root to mount; skipped with a message where mount is impossible.
 */
function mountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const root = scratch('small-disk-21');
const probe = join(root, 'probe');
mkdirSync(probe, { recursive: true });
const canMount = mountTmpfs(probe, '64k');
if (canMount) execFileSync('umount', [probe]);
if (!canMount) console.warn('small-disk-daemon: cannot mount a tmpfs here (needs root): the real small-disk tests are skipped');

describe.skipIf(!canMount)('a daemon store on a 2 MB tmpfs keeps every text row', () => {
  const mounts: string[] = [];
  let writes: SegmentWrite[];
  const smallFs = (name: string): string => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    if (!mountTmpfs(dir, '2m')) throw new Error(`mount failed for ${dir}`);
    mounts.push(dir);
    return dir;
  };
  beforeAll(async () => {
    writes = await jfkWrites();
  });
  afterAll(() => {
    for (const d of mounts) execFileSync('umount', ['-l', d]);
  });

  const segment = (i: number): SegmentWrite => {
    const w = writes[i % 4]!;
    return {
      ...w,
      segment: { ...w.segment, index: i },
      utterance: { ...w.utterance!, id: `utt-${i}` },
      transcripts: [{ ...w.transcripts![0]!, text: `t${i}` }],
      intents: [],
      actions: [{ name: 'note', outcome: 'ok' }],
    };
  };

  /** Write n segments (about 60 KB of audio each: 200 are 12 MB, six times the disk), close, and read back what is kept. */
  async function run(dir: string, n: number, opts: Partial<StoreOptions>) {
    const path = join(dir, 'hark.db');
    const logger = memoryLogger();
    const s = new Store({ path, logger, housekeeping: null, ...opts });
    for (let i = 0; i < n; i++) {
      s.recordSegment(segment(i));
      // let the background checkpointer answer now and then, as it would between segments
      if (i % 8 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    const health = s.health();
    s.close();
    const db = new Database(path, { readonly: true });
    const texts = db.prepare('SELECT text FROM transcripts ORDER BY id').pluck().all() as string[];
    const audio = db.prepare("SELECT COUNT(*) FROM segments WHERE audio_state = 'stored'").pluck().get() as number;
    const actions = db.prepare('SELECT COUNT(*) FROM actions').pluck().get() as number;
    db.close();
    const lost = logger.lines.filter((l) => /lost/.test(l));
    return { texts, audio, actions, health, lost, logger };
  }

  const all = (n: number) => [...Array(n).keys()].map((i) => `t${i}`);

  it('with the headroom (store.minFreeMb): audio stops before the disk is full; all 200 rows and actions kept', async () => {
    const dir = smallFs('headroom');
    const r = await run(dir, 200, { minFreeBytes: 768 * 1024, reserveBytes: 256 * 1024 });
    expect(r.lost).toEqual([]);
    expect(r.texts).toEqual(all(200));
    expect(r.actions).toBe(200);
    expect(r.audio).toBeGreaterThan(0);
    expect(r.health.audioStorage).toBe('paused-disk-full');
    expect(r.health.pendingRows).toBe(0);
    // never went near the bottom: the reserve was not needed
    expect(existsSync(join(dir, 'hark.db.reserve'))).toBe(true);
    const s = statfsSync(dir);
    expect(s.bavail * s.bsize).toBeGreaterThan(256 * 1024);
  });

  it('no headroom: the disk fills with audio, the reserve file is given up and every row still kept', async () => {
    const dir = smallFs('reserve');
    const r = await run(dir, 200, { minFreeBytes: 0, reserveBytes: 256 * 1024 });
    expect(r.lost).toEqual([]);
    expect(r.texts).toEqual(all(200));
    expect(r.actions).toBe(200);
    expect(r.logger.lines.some((l) => /gave up the reserve file/.test(l))).toBe(true);
    expect(existsSync(join(dir, 'hark.db.reserve'))).toBe(false);
  });

  it('the disk filled by something else while hark runs: rows wait, nothing is lost once the filler goes', async () => {
    const dir = smallFs('filler');
    const path = join(dir, 'hark.db');
    const logger = memoryLogger();
    const s = new Store({ path, logger, housekeeping: null, minFreeBytes: 256 * 1024, reserveBytes: 128 * 1024 });
    for (let i = 0; i < 10; i++) s.recordSegment(segment(i));
    try {
      execFileSync('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
    } catch {
      /* ENOSPC: the point */
    }
    for (let i = 10; i < 60; i++) s.recordSegment(segment(i));
    rmSync(join(dir, 'filler'));
    s.runHousekeeping();
    expect(s.health()).toMatchObject({ pendingRows: 0, rowsLost: 0 });
    s.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT text FROM transcripts ORDER BY id').pluck().all()).toEqual(all(60));
    db.close();
  });
});
