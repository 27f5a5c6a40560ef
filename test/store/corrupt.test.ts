import { existsSync, readFileSync, readdirSync, writeFileSync, openSync, writeSync, closeSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { HarkError } from '../../src/core/errors.js';
import { memoryLogger } from '../../src/core/log.js';
import { Store } from '../../src/store/store.js';
import { jfkWrites, scratch } from './fixtures.js';

async function filledDb(): Promise<string> {
  const path = join(scratch('corrupt'), 'hark.db');
  const s = new Store({ path, housekeeping: null });
  for (let i = 0; i < 3; i++) for (const w of await jfkWrites()) s.recordSegment(w);
  s.close();
  return path;
}

function overwrite(path: string, offset: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  writeSync(fd, bytes, 0, bytes.length, offset);
  closeSync(fd);
}

function openRecovering(path: string, wallMs: number) {
  const bus = new Bus();
  const events: { movedTo: string; detail: string }[] = [];
  bus.on('store.corrupt', (e) => events.push(e));
  const logger = memoryLogger();
  const store = new Store({ path, bus, logger, housekeeping: null, wallNow: () => wallMs });
  return { store, events, logger };
}

describe('a corrupt database at start', () => {
  it('is moved aside with its WAL and SHM, named with the time, and a fresh one takes over, loudly', async () => {
    const path = await filledDb();
    overwrite(path, 0, Buffer.from('this is not an SQLite file at all, sorry'));
    writeFileSync(path + '-wal', 'stale wal');
    writeFileSync(path + '-shm', 'stale shm');
    const damaged = readFileSync(path);

    const { store, events, logger } = openRecovering(path, Date.UTC(2025, 2, 4, 5, 6, 7, 890));
    try {
      const moved = `${path}.corrupt-2025-03-04T05-06-07.890Z`;
      expect(store.recovered?.movedTo).toBe(moved);
      expect(readFileSync(moved).equals(damaged)).toBe(true); // kept as it was, for a look later
      expect(readFileSync(moved + '-wal', 'utf8')).toBe('stale wal');
      expect(existsSync(moved + '-shm')).toBe(true); // only an index of the WAL (a reader rebuilds it), moved along
      expect(existsSync(path + '-wal') && readFileSync(path + '-wal', 'utf8') === 'stale wal').toBe(false);
      expect(events).toEqual([{ path, movedTo: moved, detail: expect.stringMatching(/not a database/) }]);
      const line = logger.lines.find((l) => l.includes('STORE CORRUPT'));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ level: 'error', movedTo: moved });
      // the fresh file works
      expect(store.health()).toMatchObject({ segments: 0, recovered: { movedTo: moved } });
      const [w] = await jfkWrites();
      expect(store.recordSegment(w!)).toMatchObject({ id: 1, audio: 'stored' });
    } finally {
      store.close();
    }
  });

  it('is caught by the integrity check when the damage is inside the file', async () => {
    const path = await filledDb();
    const pages = statSync(path).size / 4096;
    expect(pages).toBeGreaterThan(20);
    // scribble over the interior pages (B-tree structure, not just blob content)
    for (let p = 2; p < 12; p++) overwrite(path, p * 4096 + 8, Buffer.alloc(64, 0xa5));
    const { store, events } = openRecovering(path, Date.UTC(2025, 2, 4));
    try {
      expect(events).toHaveLength(1);
      expect(existsSync(store.recovered!.movedTo)).toBe(true);
      expect(store.health().segments).toBe(0);
    } finally {
      store.close();
    }
  });

  it('two recoveries in the same millisecond do not overwrite each other', async () => {
    const path = await filledDb();
    overwrite(path, 0, Buffer.alloc(100, 0x42));
    openRecovering(path, 0).store.close();
    overwrite(path, 0, Buffer.alloc(100, 0x43));
    const second = openRecovering(path, 0);
    second.store.close();
    const aside = readdirSync(dirname(path)).filter((f) => f.startsWith(basename(path) + '.corrupt-') && !/-(wal|shm)$/.test(f));
    expect(aside.sort()).toEqual(['hark.db.corrupt-1970-01-01T00-00-00.000Z', 'hark.db.corrupt-1970-01-01T00-00-00.000Z-2']);
  });

  it("is refused, untouched, when recovery is off (hark viewer on a technician's copy)", async () => {
    const path = await filledDb();
    overwrite(path, 0, Buffer.from('garbage garbage garbage garbage'));
    const before = readFileSync(path);
    let error: unknown;
    try {
      new Store({ path, housekeeping: null, recoverCorrupt: false });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(HarkError);
    expect((error as Error).message).toMatch(/database is corrupt .*will not modify it/);
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(readdirSync(dirname(path)).some((f) => f.includes('.corrupt-'))).toBe(false);
  });
});
