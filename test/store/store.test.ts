import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { memoryLogger } from '../../src/core/log.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/schema.js';
import { Store } from '../../src/store/store.js';
import type { IntentKind } from '../../src/store/records.js';
import { jfkPcm, jfkWrites, scratch } from './fixtures.js';

const open: Store[] = [];
function store(path: string, extra: Partial<ConstructorParameters<typeof Store>[0]> = {}): Store {
  const s = new Store({ path, housekeeping: null, ...extra });
  open.push(s);
  return s;
}
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

describe('segment log', () => {
  it('gives back the PCM bit for bit, pre-roll included, after the file is closed and reopened', async () => {
    const dir = scratch('store');
    const path = join(dir, 'hark.db');
    const writes = await jfkWrites();
    // every 16-bit value at the extremes, and an odd length, next to real speech
    const extremes = Int16Array.from([-32768, 32767, 0, -1, 1, -32767, 12345]);
    const s1 = store(path);
    const ids = writes.map((w) => s1.recordSegment(w)!.id);
    const extremeId = s1.recordSegment({ segment: { pcm: extremes, prerollSamples: 3, startedAt: 1 } })!.id;
    s1.close();

    const s2 = store(path);
    writes.forEach((w, i) => {
      const back = s2.getAudio(ids[i]!)!;
      expect(back.sampleRate).toBe(16000);
      expect(
        Buffer.from(back.pcm.buffer, back.pcm.byteOffset, back.pcm.byteLength).equals(
          Buffer.from(w.segment.pcm.buffer, w.segment.pcm.byteOffset, w.segment.pcm.byteLength),
        ),
      ).toBe(true);
    });
    expect(Array.from(s2.getAudio(extremeId)!.pcm)).toEqual(Array.from(extremes));
    const view = s2.getSegment(ids[1]!)!;
    expect(view.prerollSamples).toBe(writes[1]!.segment.prerollSamples);
    expect(view.sampleCount).toBe(writes[1]!.segment.pcm.length);
    expect(view.durationMs).toBeCloseTo((writes[1]!.segment.pcm.length / 16000) * 1000, 6);
    expect(view.vadAt - view.startedAt).toBeCloseTo(500, 6);
  });

  it('writes a segment with its transcript, utterance, intent and action in one go, and reads them back together', async () => {
    const s = store(join(scratch('store'), 'hark.db'));
    const [w] = await jfkWrites();
    const { id, audio } = s.recordSegment(w!)!;
    expect(audio).toBe('stored');
    const v = s.getSegment(id)!;
    expect(v.transcripts).toMatchObject([{ engine: 'whisper', text: 'And so my fellow Americans,', sttMs: 380, tokens: [{ id: 50364, text: '[_BEG_]' }] }]);
    expect(v.utterances).toMatchObject([{ id: 'utt-0', text: 'And so my fellow Americans,' }]);
    expect(v.intents).toMatchObject([{ kind: 'proposal', intent: 'note', utteranceId: 'utt-0', slots: { text: 'And so my fellow Americans,' } }]);
    expect(v.actions).toMatchObject([{ name: 'note.append', outcome: 'ok', args: { text: 'And so my fellow Americans,' } }]);
    expect(v).toMatchObject({ closeReason: 'hangover', openedBy: 'vad', maxProb: 0.97, source: 'mic', audio: 'stored', audioBytes: w!.segment.pcm.byteLength });
    expect(v.rms).toBeGreaterThan(0.01);
    expect(v.splice).toMatchObject({ warning: false });
  });

  it('writes nothing of a segment whose transaction fails, and hark carries on', async () => {
    const bus = new Bus();
    const failures: string[] = [];
    bus.on('store.write-failed', (e) => failures.push(e.error));
    const logger = memoryLogger();
    const s = store(join(scratch('store'), 'hark.db'), { bus, logger });
    const [w] = await jfkWrites();
    const bad = { ...w!, intents: [{ kind: 'maybe' as IntentKind }] };
    expect(s.recordSegment(bad)).toBeNull();
    expect(failures[0]).toMatch(/CHECK constraint/);
    expect(s.listSegments({ limit: 10 }).segments).toEqual([]);
    expect(s.db.prepare('SELECT COUNT(*) FROM transcripts').pluck().get()).toBe(0);
    expect(logger.lines.some((l) => l.includes('store write failed'))).toBe(true);
    expect(s.recordSegment(w!)).not.toBeNull();
    expect(s.health().writeFailures).toBe(1);
  });

  it('links rows that arrive later to their segment, by id or through the utterance', async () => {
    const bus = new Bus();
    const rows: unknown[] = [];
    bus.on('store.row', (e) => rows.push(e));
    const s = store(join(scratch('store'), 'hark.db'), { bus });
    const [w] = await jfkWrites();
    const { id } = s.recordSegment(w!)!;
    s.addIntent({ utteranceId: 'utt-0', kind: 'commit', intent: 'note' });
    s.addAction({ segmentId: id, name: 'webhook', outcome: 'error', error: 'HTTP 502', latencyMs: 120 });
    s.addListItem({ utteranceId: 'utt-0', list: 'shelf-4', item: 'M6 bolts', quantity: 12, unit: 'box' });
    s.addTranscript({
      segmentId: id,
      engine: 'deepgram',
      rawText: 'and so my fellow americans',
      text: 'and so my fellow americans',
      fallbackReason: 'whisper timeout',
      sttMs: 900,
    });
    const v = s.getSegment(id)!;
    expect(v.intents.map((i) => i.kind)).toEqual(['proposal', 'commit']);
    expect(v.actions[1]).toMatchObject({ name: 'webhook', outcome: 'error', error: 'HTTP 502' });
    expect(v.listItems).toMatchObject([{ list: 'shelf-4', item: 'M6 bolts', quantity: 12, unit: 'box', segmentId: id }]);
    expect(v.transcripts.map((t) => t.engine)).toEqual(['whisper', 'deepgram']);
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatchObject({ kind: 'intent', segmentId: id });
    // a row whose segment is gone (or never existed) is kept, unlinked
    const orphan = s.addAction({ segmentId: 999, name: 'timer.set', outcome: 'ok' });
    expect(orphan).toBeTypeOf('number');
    expect(s.db.prepare('SELECT segment_id FROM actions WHERE id = ?').pluck().get(orphan)).toBeNull();
  });

  it('pages newest first and filters by text, engine and dropped reason', async () => {
    const s = store(join(scratch('store'), 'hark.db'));
    for (const w of await jfkWrites()) s.recordSegment(w);
    const pcm = (await jfkPcm()).slice(0, 8000);
    s.recordSegment({
      segment: { pcm, prerollSamples: 4000, startedAt: 5 },
      transcripts: [{ engine: 'whisper', rawText: '[BLANK_AUDIO]', text: '', droppedReason: 'blank-audio' }],
    });
    const all = s.listSegments({ limit: 2 });
    expect(all.segments.map((x) => x.id)).toEqual([5, 4]);
    expect(s.listSegments({ limit: 2, before: all.nextBefore! }).segments.map((x) => x.id)).toEqual([3, 2]);
    expect(s.listSegments({ limit: 2, before: 2 }).nextBefore).toBeNull();
    expect(s.listSegments({ limit: 50, q: 'COUNTRY' }).segments.map((x) => x.id)).toEqual([4, 3]);
    expect(s.listSegments({ limit: 50, q: '100%_' }).segments).toEqual([]);
    expect(s.listSegments({ limit: 50, q: 'BLANK_' }).segments.map((x) => x.id)).toEqual([5]);
    expect(s.listSegments({ limit: 50, dropped: true }).segments.map((x) => x.id)).toEqual([5]);
    expect(s.listSegments({ limit: 50, dropped: 'blank-audio' }).segments.map((x) => x.id)).toEqual([5]);
    expect(s.listSegments({ limit: 50, dropped: false }).segments).toHaveLength(4);
    expect(s.listSegments({ limit: 50, engine: 'deepgram' }).segments).toEqual([]);
  });

  it('creates the file in WAL mode with incremental vacuum, a bounded journal and the current schema', () => {
    const s = store(join(scratch('store'), 'sub', 'dir', 'hark.db'));
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(s.db.pragma('journal_size_limit', { simple: true })).toBe(16 * 1024 * 1024);
    expect(s.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(s.health().schemaVersion).toBe(SCHEMA_VERSION);
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });

  it('refuses a file from a newer hark instead of guessing at its tables', () => {
    const path = join(scratch('store'), 'hark.db');
    const s = store(path);
    s.db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    s.close();
    expect(() => new Store({ path, housekeeping: null })).toThrow(/schema version \d+ is newer than this hark understands/);
  });

  it('checkpoints the WAL into the file on close', async () => {
    const path = join(scratch('store'), 'hark.db');
    const s = store(path);
    for (const w of await jfkWrites()) s.recordSegment(w);
    expect(statSync(path + '-wal').size).toBeGreaterThan(0);
    s.close();
    expect(!existsSync(path + '-wal') || statSync(path + '-wal').size === 0).toBe(true);
  });

  it('keeps the WAL bounded on a long day without stalling commits on checkpoints (a worker does them)', async () => {
    const path = join(scratch('store'), 'hark.db');
    const s = store(path);
    expect(s.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0); // commits never checkpoint inline
    const writes = await jfkWrites();
    // 400 segments of 1-3 s (~30 MB of PCM), paced like speech (the event loop gets to breathe between)
    for (let i = 0; i < 400; i++) {
      s.recordSegment(writes[i % writes.length]!);
      if (i % 4 === 3) await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 200));
    s.recordSegment(writes[0]!); // a commit after a finished checkpoint restarts (and trims) the WAL
    expect(statSync(path + '-wal').size).toBeLessThan(16 * 1024 * 1024 + 8 * 1024 * 1024);
    expect(s.health().audioBytes).toBeGreaterThan(25 * 1024 * 1024);
  });

  it('drops a straggling write after close with a log line instead of crashing the shutdown', async () => {
    const logger = memoryLogger();
    const s = new Store({ path: join(scratch('store'), 'hark.db'), housekeeping: null, logger });
    s.close();
    const [w] = await jfkWrites();
    expect(s.recordSegment(w!)).toBeNull();
    expect(s.addAction({ name: 'x', outcome: 'ok' })).toBeNull();
    expect(logger.lines.filter((l) => l.includes('store is closed; write dropped'))).toHaveLength(2);
    s.close(); // twice is fine
  });

  it('keeps text and metadata only when audio storage is off', async () => {
    const s = store(join(scratch('store'), 'hark.db'), { storeAudio: false });
    const [w] = await jfkWrites();
    const { id, audio } = s.recordSegment(w!)!;
    expect(audio).toBe('off');
    expect(s.getAudio(id)).toBeNull();
    expect(s.getSegment(id)!.transcripts).toHaveLength(1);
    expect(s.health().audioBytes).toBe(0);
  });
});
