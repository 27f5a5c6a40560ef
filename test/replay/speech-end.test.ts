import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { Conversation } from '../../src/path/conversation.js';
import { SegmentPath } from '../../src/path/segment-path.js';
import { textHearing } from '../../src/replay/hearing.js';
import type { SegmentReplay } from '../../src/replay/outcome.js';
import { runReplay } from '../../src/replay/runner.js';
import { ReplaySource } from '../../src/replay/source.js';
import { Store } from '../../src/store/store.js';
import type { CloseReason, Segment } from '../../src/vad/segment.js';
import { testSpeech } from '../kit/speech.js';
import { ScriptedEngine } from '../kit/stt.js';
import { sttStack } from '../kit/stt-stack.js';

/**
 * The response cascade counts from the moment the person stopped speaking. The device knows that
 * moment from the hangover in force when the segment closed (shorter while a frame waits for a short
 * answer, the pause itself for an early close); replay must count from the same moment, so the device
 * path stores it with the segment and replay reads it back. The device side here is the real segment
 * path writing a real SQLite log; the replay side is what `hark replay --text-only` runs on it.
 */

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

const tmp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), name));
  dirs.push(d);
  return d;
};

/** The device: the segment path on a virtual clock, a speaker that notes when it plays, a real store. */
function device(raw: Record<string, unknown>, said: string[]) {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const config = validateConfig({ speech: { device: 'null' }, actions: { dataDir: tmp('hark-speech-end-data-') }, ...raw }, 'test');
  const stt = sttStack({ engines: [ScriptedEngine.hearing(...said)], clock, bus, log, config: config.stt });
  const { speech, output } = testSpeech({ clock, bus });
  // What the speaker played, and when (the cascade's answer is a rendered clip).
  const played = output.played;
  const dbPath = join(tmp('hark-speech-end-'), 'hark.db');
  const store = new Store({ path: dbPath, housekeeping: null, backgroundCheckpoint: false });
  const conversation = new Conversation({ config, bus, clock, log, store, speech });
  const path = new SegmentPath({ config, bus, clock, log, stt, speech, conversation, store: () => store, source: 'mic' });
  let next = 0;
  let index = 0;
  /** One segment, opened and closed as the VAD (or an early close) would; resolves once handled. */
  const segment = (closeReason: CloseReason): { closedAt: number; done: Promise<void> } => {
    const startSample = next;
    next += 32_000;
    path.opened({ startSample, pcm: new Int16Array(8000) });
    const seg: Segment = {
      index: index++,
      pcm: new Int16Array(16_000),
      prerollSamples: 8000,
      startSample,
      vadStartSample: startSample + 8000,
      endSample: startSample + 16_000,
      closeReason,
      maxProb: 0.95,
      openedBy: 'vad',
    };
    return { closedAt: clock.now(), done: path.closed(seg) };
  };
  const wait = async (ms: number) => {
    const until = clock.now() + ms;
    while (clock.now() < until) {
      clock.advanceTo(Math.min(until, clock.now() + 50));
      await new Promise((r) => setImmediate(r));
    }
  };
  const finish = async () => {
    await path.drain();
    path.dispose();
    store.close();
  };
  return { config, path, segment, wait, played, dbPath, finish };
}

async function replay(dbPath: string, config: ReturnType<typeof validateConfig>): Promise<SegmentReplay[]> {
  const source = ReplaySource.open(dbPath);
  const results: SegmentReplay[] = [];
  try {
    const range = source.range(null);
    await runReplay({
      config,
      segments: range.segments,
      horizonMs: range.horizonMs,
      hear: textHearing(),
      scratchDir: tmp('hark-speech-end-scratch-'),
      log: memoryLogger(),
      onResult: (r) => results.push(r),
    });
  } finally {
    source.close();
  }
  return results;
}

/** "computer ask the chef about table four" opens a query; "read it back" there is an answer the cascade says. */
const SAID = ['computer ask the chef about table four', 'read it back'];
const ANSWER = 'ask the chef about table four';

async function onDevice(raw: Record<string, unknown>, close: CloseReason) {
  const d = device(raw, SAID);
  await d.segment('hangover').done;
  await d.wait(1000);
  const readBack = d.segment(close);
  await readBack.done;
  await d.wait(2500);
  const play = d.played.find((p) => p.kind === 'clip' && p.text === ANSWER);
  expect(play, 'the device read the query back').toBeDefined();
  await d.finish();
  return { ...d, playedAfterClose: play!.at - readBack.closedAt };
}

describe('replay counts the cascade from the moment the device did', () => {
  it('a query that waits with a shorter hangover: replay counts from that hangover, not the base one', async () => {
    const d = await onDevice({ vad: { routerFrameHangoverMs: { confirm: 250, voice: 250, query: 300 } } }, 'hangover');
    // On the device the words ended 300 ms before the close: the answer played 1.7 s after it.
    expect(d.playedAfterClose).toBe(2000 - 300);
    const [, readBack] = await replay(d.dbPath, d.config);
    expect(readBack!.new!.said).toEqual([ANSWER]);
    expect(readBack!.new!.trailingSilenceMs).toBe(300);
    // ...and says the answer when the device's cascade played it: 2 s after the words, not at the close.
    expect(readBack!.new!.saidAfterMs).toEqual([2000]);
  });

  it('an early close on a whole command: replay counts from the pause, as the device did', async () => {
    const d = await onDevice({}, 'complete-command');
    expect(d.playedAfterClose).toBe(2000 - d.config.stt.preemptiveMs);
    const [opened, readBack] = await replay(d.dbPath, d.config);
    expect(opened!.new!.trailingSilenceMs).toBe(d.config.vad.hangoverMs);
    expect(readBack!.new!.trailingSilenceMs).toBe(d.config.stt.preemptiveMs);
    expect(readBack!.new!.saidAfterMs).toEqual([2000]);
  });

  it('a segment stored before hark kept this counts from the base hangover, as replay always did', async () => {
    const d = await onDevice({ vad: { routerFrameHangoverMs: { confirm: 250, voice: 250, query: 300 } } }, 'hangover');
    const db = new BetterSqlite3(d.dbPath);
    db.prepare('UPDATE segments SET trailing_silence_ms = NULL').run();
    db.close();
    const [, readBack] = await replay(d.dbPath, d.config);
    expect(readBack!.new!.trailingSilenceMs).toBe(d.config.vad.hangoverMs);
  });
});
