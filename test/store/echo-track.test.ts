import BetterSqlite3 from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/log.js';
import { MAX_PLAYBACK_SPANS, readPlayback } from '../../src/store/echo-track.js';
import { MIGRATIONS, SCHEMA_VERSION, migrate } from '../../src/store/schema.js';
import { Store } from '../../src/store/store.js';
import type { SegmentWrite } from '../../src/store/records.js';
import { jfkPcm, jfkWrites, overPlaybackWrite, scratch } from './fixtures.js';

/**
 * A segment heard while hark played keeps its raw microphone beside the cleaned audio, and
 * where the playback was. Real SQLite files throughout.
 */
const open: Store[] = [];
function store(path: string, extra: Partial<ConstructorParameters<typeof Store>[0]> = {}): Store {
  const s = new Store({ path, housekeeping: null, ...extra });
  open.push(s);
  return s;
}
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

const overPlayback = () => overPlaybackWrite();
const bytes = (a: Int16Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

describe('the raw microphone track', () => {
  it('stores both tracks and the playback spans for a segment heard over playback, and only the one track otherwise', async () => {
    const path = join(scratch('store-echo'), 'hark.db');
    const w = await overPlayback();
    const [, plain] = await jfkWrites();
    const s1 = store(path);
    const a = s1.recordSegment(w)!.id;
    const b = s1.recordSegment(plain!)!.id;
    s1.close();

    const s = store(path);
    const v = s.getSegment(a)!;
    expect(v.echo).toEqual({
      playback: [
        { start: 0, end: 4096, startMs: 0, endMs: 256 },
        { start: 33600, end: 38400, startMs: 2100, endMs: 2400 },
      ],
      raw: true,
      rawBytes: w.segment.pcm.byteLength,
      problem: null,
    });
    // Both tracks count against the audio budget (retention), bit for bit as given.
    expect(v.audioBytes).toBe(2 * w.segment.pcm.byteLength);
    const raw = s.getRawAudio(a);
    expect(raw && 'pcm' in raw && bytes(raw.pcm).equals(bytes(w.segment.echo!.raw))).toBe(true);
    expect(bytes(s.getAudio(a)!.pcm).equals(bytes(w.segment.pcm))).toBe(true);

    const p = s.getSegment(b)!;
    expect(p.echo).toBeNull();
    expect(p.audioBytes).toBe(plain!.segment.pcm.byteLength);
    expect(s.getRawAudio(b)).toEqual({ missing: expect.stringMatching(/not heard while hark played/) });
    expect(s.getRawAudio(999)).toBeUndefined();
    expect(s.db.prepare('SELECT COUNT(*) FROM segment_raw_audio').pluck().get()).toBe(1);
  });

  it('deletes the raw track with its segment (retention deletes segments)', async () => {
    const path = join(scratch('store-echo'), 'hark.db');
    const s = store(path);
    const id = s.recordSegment(await overPlayback())!.id;
    s.db.prepare('DELETE FROM segments WHERE id = ?').run(id);
    expect(s.db.prepare('SELECT COUNT(*) FROM segment_raw_audio').pluck().get()).toBe(0);
  });

  it('on a full disk: stores the spans without the raw track, and gives up a stored raw track with its audio to keep the text', async () => {
    const s = store(join(scratch('store-echo'), 'hark.db'), { freeBytes: () => 10 * 1024 * 1024 });
    const w = await overPlayback();
    const first = s.recordSegment(w)!.id;
    // SQLITE_FULL for real: the file may grow a few pages, not by 2.5 s of PCM twice.
    s.db.pragma(`max_page_count = ${(s.db.pragma('page_count', { simple: true }) as number) + 8}`);
    const second = s.recordSegment(w)!;
    expect(second.audio).toBe('disk-full');
    expect(s.getSegment(second.id)!.echo).toMatchObject({ raw: false, rawBytes: 0, problem: null });
    expect(s.getSegment(second.id)!.echo!.playback).toHaveLength(2);
    // Completely full: the oldest audio, both of its tracks, is given up so the text rows fit.
    s.db.pragma(`max_page_count = ${s.db.pragma('page_count', { simple: true })}`);
    const big = { ...w, transcripts: [{ engine: 'whisper', rawText: 'x'.repeat(200_000), text: 'x' }] };
    s.recordSegment(big);
    expect(s.getSegment(first)!.audio).toBe('reclaimed');
    expect(s.getSegment(first)!.echo).toMatchObject({ raw: false, rawBytes: 0 });
    expect(s.getRawAudio(first)).toEqual({ missing: expect.stringMatching(/audio is not stored \(reclaimed\)/) });
    expect(s.db.prepare('SELECT COUNT(*) FROM segment_raw_audio').pluck().get()).toBe(0);
  });

  it('keeps the spans but not the raw track when audio storage is off', async () => {
    const s = store(join(scratch('store-echo'), 'hark.db'), { storeAudio: false });
    const id = s.recordSegment(await overPlayback())!.id;
    const v = s.getSegment(id)!;
    expect(v.echo).toMatchObject({ raw: false, rawBytes: 0, problem: null });
    expect(v.echo!.playback).toHaveLength(2);
    expect(s.getRawAudio(id)).toEqual({ missing: expect.stringMatching(/audio is not stored \(off\)/) });
  });

  it('stores the segment without a track that does not fit it, and says why in the log', async () => {
    const logger = memoryLogger();
    const s = store(join(scratch('store-echo'), 'hark.db'), { logger });
    const w = await overPlayback();
    const short = { ...w, segment: { ...w.segment, echo: { raw: w.segment.echo!.raw.subarray(10), playback: w.segment.echo!.playback } } };
    const past = { ...w, segment: { ...w.segment, echo: { raw: w.segment.echo!.raw, playback: [{ start: 0, end: w.segment.pcm.length + 1 }] } } };
    for (const bad of [short, past]) {
      const id = s.recordSegment(bad)!.id;
      expect(s.getSegment(id)!.echo).toBeNull();
      expect(s.getAudio(id)!.pcm.length).toBe(w.segment.pcm.length);
    }
    const warnings = logger.lines
      .map((l) => JSON.parse(l) as { level: string; problem?: string })
      .filter((l) => l.level === 'warn')
      .map((l) => String(l.problem));
    expect(warnings).toEqual([
      expect.stringMatching(/raw: has \d+ samples, the segment has \d+/),
      expect.stringMatching(/playback\[0\]: ends at \d+, past the segment/),
    ]);
  });

  it('reads a damaged or hand-edited track as a clear problem, never an exception', async () => {
    const s = store(join(scratch('store-echo'), 'hark.db'));
    const id = s.recordSegment(await overPlayback())!.id;
    for (const [text, why] of [
      ['not json', /not JSON/],
      ['{"a":1}', /not a list/],
      ['[[5,2]]', /span 0: ends at 2, not after its start 5/],
      ['[[0,"x"]]', /whole sample numbers/],
      ['[[0,100],[50,200]]', /span 1: starts at 50, before the previous span ends/],
      [JSON.stringify(Array.from({ length: MAX_PLAYBACK_SPANS + 1 }, (_, i) => [i, i + 1])), /more than any real track|at most/],
    ] as const) {
      s.db.prepare('UPDATE segments SET playback_json = ? WHERE id = ?').run(text, id);
      const v = s.getSegment(id)!;
      expect(v.echo!.playback).toEqual([]);
      expect(v.echo!.problem).toMatch(why);
      expect(s.listSegments({ limit: 10 }).segments[0]!.echo!.problem).toMatch(why);
    }
    s.db.prepare('UPDATE segment_raw_audio SET pcm = ? WHERE segment_id = ?').run(Buffer.alloc(7), id);
    expect(s.getRawAudio(id)).toEqual({ missing: expect.stringMatching(/raw track is damaged \(7 bytes stored, \d+ expected\)/) });
    s.db.prepare('UPDATE segment_raw_audio SET pcm = ? WHERE segment_id = ?').run('text', id);
    expect(s.getRawAudio(id)).toEqual({ missing: expect.stringMatching(/raw track is damaged \(a string value stored/) });
  });

  it('readPlayback gives spans in samples and ms', () => {
    expect(readPlayback('[[0,512],[1024,2048]]', 4000, 16000)).toEqual({
      playback: [
        { start: 0, end: 512, startMs: 0, endMs: 32 },
        { start: 1024, end: 2048, startMs: 64, endMs: 128 },
      ],
      problem: null,
    });
  });
});

describe('migration 3 (echo tracks) on a file made by the old schema', () => {
  it('upgrades a version 2 file in place without losing a row, and the old rows read as before', async () => {
    const path = join(scratch('store-echo-migrate'), 'hark.db');
    // The file exactly as hark with schema 2 wrote it: its migrations, its columns, its rows.
    const old = new BetterSqlite3(path);
    old.pragma('auto_vacuum = INCREMENTAL');
    old.pragma('journal_mode = WAL');
    old.pragma('foreign_keys = ON');
    expect(
      migrate(
        old,
        path,
        MIGRATIONS.filter((m) => m.version <= 2),
      ),
    ).toBe(2);
    const pcm = (await jfkPcm()).slice(0, 16000);
    const insert =
      old.prepare(`INSERT INTO segments (created_at, started_at, source, sample_rate, sample_count, preroll_samples, rms, peak, audio_state, audio_bytes)
      VALUES (?, ?, 'mic', 16000, ?, 8000, 0.1, 0.5, ?, ?)`);
    for (let i = 0; i < 3; i++) {
      const id = Number(
        insert.run(1_700_000_000_000 + i, 1_700_000_000_000 + i, pcm.length, i === 2 ? 'off' : 'stored', i === 2 ? 0 : pcm.byteLength).lastInsertRowid,
      );
      if (i !== 2) old.prepare('INSERT INTO segment_audio (segment_id, pcm) VALUES (?, ?)').run(id, bytes(pcm));
      old.prepare("INSERT INTO transcripts (segment_id, created_at, engine, raw_text, text) VALUES (?, 1, 'whisper', ' hello', 'hello')").run(id);
    }
    old.prepare("INSERT INTO timers (label, seconds, state, due_at, updated_at) VALUES ('eggs', 300, 'running', 1, 1)").run();
    old.prepare("INSERT INTO list_items (list, item, created_at) VALUES ('shopping', 'flour', 1)").run();
    old.close();

    const s = store(path);
    expect(s.health().schemaVersion).toBe(SCHEMA_VERSION);
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(3);
    expect(s.health().segments).toBe(3);
    expect(s.health().audioBytes).toBe(2 * pcm.byteLength);
    const views = s.listSegments({ limit: 10 }).segments;
    expect(views.map((v) => [v.id, v.audio, v.echo, v.transcripts[0]!.text])).toEqual([
      [3, 'off', null, 'hello'],
      [2, 'stored', null, 'hello'],
      [1, 'stored', null, 'hello'],
    ]);
    expect(bytes(s.getAudio(1)!.pcm).equals(bytes(pcm))).toBe(true);
    expect(s.getRawAudio(1)).toEqual({ missing: expect.stringMatching(/not heard while hark played/) });
    expect(s.listItems('shopping').map((l) => l.item)).toEqual(['flour']);
    expect(s.db.prepare('SELECT label FROM timers').pluck().all()).toEqual(['eggs']);
    // And the upgraded file takes the new track.
    const id = s.recordSegment(await overPlayback())!.id;
    expect(id).toBe(4);
    expect(s.getSegment(id)!.echo!.raw).toBe(true);
    s.close();
    // A second open leaves it as it is.
    const again = store(path);
    expect(again.health().segments).toBe(4);
    expect(again.getSegment(4)!.echo!.playback).toHaveLength(2);
  });
});
