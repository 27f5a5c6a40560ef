import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Bus, type HarkEvents } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import type { Fate } from '../../src/path/fate.js';
import { RecordKeeper } from '../../src/path/record-keeper.js';
import type { SegmentRecord } from '../../src/path/segment-record.js';
import type { SegmentTranscript } from '../../src/stt/events.js';
import { Store } from '../../src/store/store.js';
import type { Segment } from '../../src/vad/segment.js';
import { ScriptedEngine } from '../kit/stt.js';
import { sttStack } from '../kit/stt-stack.js';

/**
 * The record keeper on its own, writing a real SQLite file: what the log page and `hark replay` later
 * read. The transcripts are the real transcriber's over the kit's scripted engine; the effects are
 * what the command side would report; the clock is virtual.
 */

let dirs: string[] = [];
let stores: Store[] = [];
afterEach(() => {
  for (const s of stores) s.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
  stores = [];
});

function keeper() {
  const dir = mkdtempSync(join(tmpdir(), 'hark-records-'));
  dirs.push(dir);
  const path = join(dir, 'hark.db');
  const store = new Store({ path, housekeeping: null, backgroundCheckpoint: false });
  stores.push(store);
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const handled: HarkEvents['segment.handled'][] = [];
  bus.on('segment.handled', (e) => void handled.push(e));
  const records = new RecordKeeper({ bus, clock, log, store: () => store, source: 'mic' });
  const stt = sttStack({ engines: [new ScriptedEngine({ script: ['set a timer for five minutes', 'cancel the timer', '[BLANK_AUDIO]'] })], clock, bus, log });
  let n = 0;
  /** A segment closed now, with its words heard by the scripted engine. */
  const segment = async (): Promise<SegmentRecord> => {
    const index = n++;
    const pcm = new Int16Array(16_000).fill(index + 1);
    const seg: Segment = {
      index,
      pcm,
      prerollSamples: 4000,
      startSample: index * 32_000,
      vadStartSample: index * 32_000 + 4000,
      endSample: index * 32_000 + 16_000,
      closeReason: 'hangover',
      maxProb: 0.95,
      openedBy: 'vad',
    };
    const transcript: SegmentTranscript = await stt.transcriber.transcribe({ index, pcm, maxProb: 0.95 });
    const fate: Fate =
      transcript.hearing.kind === 'heard'
        ? { kind: 'dispatched', utterance: transcript.hearing.utterance }
        : { kind: 'dropped', reason: transcript.hearing.reason };
    return {
      segment: seg,
      transcript,
      fate,
      actions: [],
      closedAt: clock.now(),
      closedWallAt: Date.now(),
      speechEndAt: clock.now() - 600,
      firstActionAt: null,
      written: false,
    };
  };
  const rows = (sql: string): unknown[] => {
    const db = new Database(path, { readonly: true });
    try {
      return db.prepare(sql).all();
    } finally {
      db.close();
    }
  };
  return { clock, log, handled, records, segment, rows };
}

describe('the record keeper', () => {
  it('a dispatched segment is one write: its audio, the engine’s attempt, the utterance and the action linked to it', async () => {
    const k = keeper();
    const rec = await k.segment();
    await k.records.during(rec, async () => {
      k.clock.advanceBy(40);
      k.records.effect({ type: 'action', name: 'timer.set', args: { seconds: 300 }, seq: 1 }, k.clock.now());
      // The action came before any write: nothing sits between speech and action.
      expect(k.rows('SELECT id FROM segments')).toEqual([]);
    });
    k.records.write(rec);
    const u = rec.fate.kind === 'dispatched' ? rec.fate.utterance : null;
    expect(k.rows('SELECT source, sample_count, preroll_samples, close_reason, trailing_silence_ms FROM segments')).toEqual([
      { source: 'mic', sample_count: 16_000, preroll_samples: 4000, close_reason: 'hangover', trailing_silence_ms: 600 },
    ]);
    expect(k.rows('SELECT length(pcm) AS bytes FROM segment_audio')).toEqual([{ bytes: 32_000 }]);
    expect(k.rows('SELECT engine, raw_text, dropped_reason FROM transcripts')).toEqual([
      { engine: 'whisper', raw_text: 'set a timer for five minutes', dropped_reason: null },
    ]);
    expect(k.rows('SELECT id, text FROM utterances')).toEqual([{ id: u!.id, text: 'set a timer for five minutes' }]);
    expect(k.rows('SELECT name, args_json, outcome, utterance_id, latency_ms FROM actions')).toEqual([
      { name: 'timer.set', args_json: '{"seconds":300}', outcome: 'ok', utterance_id: u!.id, latency_ms: 40 },
    ]);
    // Told once, with its first action 40 ms after the close.
    expect(k.handled).toEqual([
      {
        segment: 0,
        fate: 'dispatched',
        reason: null,
        utterance: { id: u!.id, text: 'set a timer for five minutes', engine: 'whisper' },
        actions: ['timer.set'],
        sttMs: rec.transcript!.sttMs,
        latencyMs: 40,
        actionMs: 40,
      },
    ]);
  });

  it('an action fired while no segment is handled (a timer that rang) gets a row of its own', () => {
    const k = keeper();
    k.records.effect({ type: 'action', name: 'timer.ring', args: { name: 'pasta' } }, k.clock.now());
    expect(k.rows('SELECT name, outcome, segment_id FROM actions')).toEqual([{ name: 'timer.ring', outcome: 'ok', segment_id: null }]);
    expect(k.rows('SELECT id FROM segments')).toEqual([]);
    expect(k.handled).toEqual([]);
  });

  it('a later command that overrules an action already stored marks that row superseded, and says by what', async () => {
    const k = keeper();
    const first = await k.segment();
    await k.records.during(first, async () => k.records.effect({ type: 'action', name: 'timer.set', args: { seconds: 300 }, seq: 1 }, k.clock.now()));
    k.records.write(first);
    k.clock.advanceBy(3000);
    const second = await k.segment();
    await k.records.during(second, async () => {
      k.records.effect({ type: 'action', name: 'timer.cancel', args: {}, seq: 2 }, k.clock.now());
      k.records.effect({ type: 'action.superseded', name: 'timer.set', args: { seconds: 300 }, seq: 1, by: 'timer.cancel', bySeq: 2 }, k.clock.now());
    });
    k.records.write(second);
    expect(k.rows('SELECT name, outcome, error FROM actions ORDER BY id')).toEqual([
      { name: 'timer.set', outcome: 'superseded', error: 'by timer.cancel' },
      { name: 'timer.cancel', outcome: 'ok', error: null },
    ]);
  });

  it('overruled while its own segment is still being handled: the row is written superseded', async () => {
    const k = keeper();
    const rec = await k.segment();
    await k.records.during(rec, async () => {
      k.records.effect({ type: 'action', name: 'timer.set', args: { seconds: 300 }, seq: 1 }, k.clock.now());
      k.records.effect({ type: 'action', name: 'timer.set', args: { seconds: 600 }, seq: 2 }, k.clock.now());
      k.records.effect({ type: 'action.superseded', name: 'timer.set', args: { seconds: 300 }, seq: 1, by: 'timer.set', bySeq: 2 }, k.clock.now());
    });
    k.records.write(rec);
    expect(k.rows('SELECT args_json, outcome FROM actions ORDER BY id')).toEqual([
      { args_json: '{"seconds":300}', outcome: 'superseded' },
      { args_json: '{"seconds":600}', outcome: 'ok' },
    ]);
  });

  it('a failed action is stored with its error; a segment stored untranscribed says why, and the log warns', async () => {
    const k = keeper();
    const rec = await k.segment();
    await k.records.during(rec, async () => k.records.effect({ type: 'action.failed', name: 'webhook.post', error: 'connection refused' }, k.clock.now()));
    k.records.write(rec);
    const late = await k.segment();
    late.transcript = null;
    late.fate = { kind: 'untranscribed', reason: 'not transcribed: hark was stopping (replay it with hark replay)' };
    k.records.write(late);
    expect(k.rows('SELECT name, outcome, error FROM actions')).toEqual([{ name: 'webhook.post', outcome: 'error', error: 'connection refused' }]);
    expect(
      k.rows('SELECT s.id, t.engine, t.dropped_reason FROM segments s JOIN transcripts t ON t.segment_id = s.id ORDER BY s.id, t.id').at(-1),
    ).toMatchObject({ engine: 'none', dropped_reason: 'not transcribed: hark was stopping (replay it with hark replay)' });
    expect(k.handled.at(-1)).toMatchObject({ segment: 1, fate: 'untranscribed', utterance: null, actions: [] });
    expect(k.log.lines.some((l) => l.includes('segment stored untranscribed') && l.includes('"level":"warn"'))).toBe(true);
  });

  it('without a store the segment is still told (the metrics count it)', async () => {
    const clock = new VirtualClock(0);
    const bus = new Bus();
    const handled: unknown[] = [];
    bus.on('segment.handled', (e) => void handled.push(e));
    const records = new RecordKeeper({ bus, clock, log: memoryLogger(), store: () => null, source: 'file' });
    const k = keeper();
    const rec = await k.segment();
    records.write(rec);
    expect(handled).toMatchObject([{ segment: 0, fate: 'dispatched' }]);
    expect(rec.written).toBe(true);
  });
});
