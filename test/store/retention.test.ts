import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { planRetention, type RetentionCandidate } from '../../src/store/retention.js';
import { Store } from '../../src/store/store.js';
import { jfkPcm, scratch } from './fixtures.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 5, 1, 12);

describe('planRetention (pure)', () => {
  const policy = { maxAgeMs: 7 * DAY, maxAudioBytes: 1000, batchSize: 3 };
  const row = (id: number, ageDays: number, audioBytes = 100): RetentionCandidate => ({ id, startedAt: NOW - ageDays * DAY, audioBytes });
  const cases: { name: string; total: number; rows: RetentionCandidate[]; ids: number[]; more: boolean; byAge: number; bySize: number }[] = [
    { name: 'nothing old, under budget: keep all', total: 300, rows: [row(1, 6), row(2, 1), row(3, 0)], ids: [], more: false, byAge: 0, bySize: 0 },
    { name: 'older than 7 days: delete', total: 300, rows: [row(1, 8), row(2, 7.5), row(3, 1)], ids: [1, 2], more: false, byAge: 2, bySize: 0 },
    {
      name: 'over the audio budget: delete oldest until it fits',
      total: 1250,
      rows: [row(1, 1), row(2, 1), row(3, 1), row(4, 0)],
      ids: [1, 2, 3],
      more: true,
      byAge: 0,
      bySize: 3,
    },
    { name: 'exactly at budget: keep', total: 1000, rows: [row(1, 1)], ids: [], more: false, byAge: 0, bySize: 0 },
    { name: 'a full batch says more', total: 100, rows: [row(1, 30), row(2, 20), row(3, 10), row(4, 9)], ids: [1, 2, 3], more: true, byAge: 3, bySize: 0 },
    // One row stamped young (or in the future) must not shield the old rows after it
    {
      name: 'age is by time: old rows after a young one go too',
      total: 300,
      rows: [row(1, 8), row(2, -1e4), row(3, 9)],
      ids: [1, 3],
      more: false,
      byAge: 2,
      bySize: 0,
    },
    {
      name: 'segments without audio do not count toward size',
      total: 1100,
      rows: [row(1, 1, 0), row(2, 1, 200)],
      ids: [1, 2],
      more: false,
      byAge: 0,
      bySize: 2,
    },
  ];
  it.each(cases)('$name', ({ total, rows, ids, more, byAge, bySize }) => {
    const plan = planRetention({ nowMs: NOW, policy, totalAudioBytes: total, oldest: rows });
    expect(plan).toMatchObject({ deleteIds: ids, more, byAge, bySize });
  });
});

describe('retention on a real file', () => {
  const stores: Store[] = [];
  afterEach(() => {
    for (const s of stores.splice(0)) s.close();
  });

  async function setup(policy: { maxAgeMs?: number; maxAudioBytes?: number; batchSize?: number }) {
    const clock = new VirtualClock();
    const bus = new Bus();
    const runs: { deleted: number; byAge: number; bySize: number }[] = [];
    bus.on('store.retention', (e) => runs.push(e));
    const wall = { now: NOW };
    const s = new Store({
      path: join(scratch('retention'), 'hark.db'),
      bus,
      clock,
      wallNow: () => wall.now,
      housekeeping: { maxAgeMs: 7 * DAY, maxAudioBytes: 500 * 1024 * 1024, batchSize: 2, intervalMs: 60_000, batchPauseMs: 100, ...policy },
    });
    stores.push(s);
    const pcm = (await jfkPcm()).slice(0, 48_000); // 3 s
    const add = (ageDays: number) =>
      s.recordSegment({
        segment: { pcm, prerollSamples: 8000, startedAt: NOW - ageDays * DAY },
        transcripts: [{ engine: 'whisper', rawText: 'x', text: 'x' }],
      })!.id;
    return { s, clock, runs, add, pcm, wall };
  }

  it('deletes segments older than the limit, a small batch at a time, on the clock', async () => {
    const { s, clock, runs, add } = await setup({});
    const old = [add(9), add(8.5), add(8)];
    const recent = [add(6), add(0.1)];
    s.start();
    clock.advanceBy(100); // first batch: 2 (the batch size)
    expect(runs).toEqual([{ deleted: 2, byAge: 2, bySize: 0, freedBytes: 192_000 }]);
    clock.advanceBy(100); // the batch was full, so the next one comes a pause later, not an interval
    expect(runs[1]).toMatchObject({ deleted: 1, byAge: 1 });
    expect(s.listSegments({ limit: 50 }).segments.map((x) => x.id)).toEqual(recent.reverse());
    for (const id of old) expect(s.getAudio(id)).toBeUndefined();
    expect(s.db.prepare('SELECT COUNT(*) FROM transcripts').pluck().get()).toBe(2);
    clock.advanceBy(59_000);
    expect(runs).toHaveLength(2); // nothing more until the interval
  });

  it('ages rows out by their time, not behind a row stamped in the future', async () => {
    const { s, clock, add } = await setup({ batchSize: 10 });
    const future = s.recordSegment({
      segment: { pcm: new Int16Array(160), prerollSamples: 0, startedAt: NOW + 3650 * DAY },
      transcripts: [{ engine: 'x', rawText: 'x', text: 'x' }],
    })!.id;
    const old = Array.from({ length: 12 }, () => add(30));
    const recent = add(1);
    s.start();
    clock.advanceBy(100);
    clock.advanceBy(100);
    clock.advanceBy(100);
    expect(
      s
        .listSegments({ limit: 50 })
        .segments.map((x) => x.id)
        .sort((a, b) => a - b),
    ).toEqual([future, recent]);
    for (const id of old) expect(s.getSegment(id)).toBeUndefined();
  });

  it('deletes the oldest audio until the total fits the size limit, and gives the space back', async () => {
    const { s, clock, runs, add, pcm } = await setup({ maxAudioBytes: Math.round(2.5 * 96_000), batchSize: 10 });
    const ids = [add(1), add(1), add(1), add(1), add(1)];
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    const pagesBefore = s.db.pragma('page_count', { simple: true }) as number;
    s.start();
    clock.advanceBy(1000);
    expect(runs[0]).toMatchObject({ deleted: 3, bySize: 3, byAge: 0 });
    expect(s.listSegments({ limit: 50 }).segments.map((x) => x.id)).toEqual([ids[4], ids[3]]);
    expect(s.health().audioBytes).toBe(2 * pcm.byteLength);
    // incremental vacuum returned the freed pages: the file shrinks by about three segments' PCM
    const pagesAfter = s.db.pragma('page_count', { simple: true }) as number;
    expect(s.db.pragma('freelist_count', { simple: true })).toBe(0);
    expect((pagesBefore - pagesAfter) * 4096).toBeGreaterThan(3 * pcm.byteLength * 0.9);
  });

  it('never deletes list items (user data), only unlinks them from purged segments', async () => {
    const { s, clock, add } = await setup({});
    const id = add(30);
    s.addListItem({ segmentId: id, list: 'shelf-4', item: 'M6 bolts', quantity: 12 });
    s.start();
    clock.advanceBy(1000);
    expect(s.getSegment(id)).toBeUndefined();
    expect(s.listItems('shelf-4')).toMatchObject([{ item: 'M6 bolts', quantity: 12, segmentId: null }]);
  });

  it('ages out rows that never had a segment (typed text) on the same clock', async () => {
    const { s, clock, wall } = await setup({});
    s.addAction({ name: 'timer.set', outcome: 'ok' });
    wall.now += 8 * DAY;
    s.addAction({ name: 'timer.set', outcome: 'ok' });
    s.start();
    clock.advanceBy(1000);
    expect(s.db.prepare('SELECT COUNT(*) FROM actions').pluck().get()).toBe(1);
  });

  it('does not delete anything when housekeeping is off (the viewer serving a copied file)', async () => {
    const s = new Store({ path: join(scratch('retention'), 'hark.db'), housekeeping: null, wallNow: () => NOW });
    stores.push(s);
    s.recordSegment({ segment: { pcm: (await jfkPcm()).slice(0, 1600), prerollSamples: 0, startedAt: NOW - 365 * DAY } });
    expect(s.runHousekeeping()).toBeNull();
    expect(s.health().segments).toBe(1);
  });
});
