import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Utterance } from '../../src/core/utterance.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { DispatchStage } from '../../src/path/dispatch-stage.js';
import { Conversation } from '../../src/path/conversation.js';
import type { Fate } from '../../src/path/fate.js';
import { RecordKeeper } from '../../src/path/record-keeper.js';
import type { SegmentRecord } from '../../src/path/segment-record.js';
import { WorkLine } from '../../src/path/work-line.js';
import type { Segment } from '../../src/vad/segment.js';
import { testSpeech } from '../kit/speech.js';

/**
 * The command side on its own: a segment's record with its fate in, the router's actions in that
 * record out. The real conversation (router, cascade, interruption filter), work line and record
 * keeper, the kit's recording speaker, a virtual clock. What a user notices: only words hark heard as
 * a command do anything; words typed or sent from elsewhere are handled as if said, in their turn; a
 * question that wants a one-word answer listens for a shorter silence.
 */

let closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

function side(mode: 'wake-word' | 'always-listen' = 'always-listen') {
  const dataDir = mkdtempSync(join(tmpdir(), 'hark-dispatch-stage-'));
  const config = validateConfig({ router: { mode }, speech: { device: 'null' }, actions: { dataDir } }, 'test');
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const voice = testSpeech({ clock, bus });
  const conv = new Conversation({ config, bus, clock, log, store: null, speech: voice.speech });
  const line = new WorkLine({ bus, clock, log }, { maxWaitMs: 10_000, maxBytes: 1_000_000 });
  const records = new RecordKeeper({ bus, clock, log, store: () => null, source: 'mic' });
  const hangovers: number[] = [];
  const command = new DispatchStage({ conv, line, records, bus, clock, log, vad: config.vad, setHangoverMs: (ms) => void hangovers.push(ms) });
  // As the segment path wires them: the router's effects go to the command side and the records.
  conv.listen((e, atMs) => {
    command.effect(e);
    records.effect(e, atMs);
  });
  closers.push(() => (conv.dispose(), voice.speech.close(), rmSync(dataDir, { recursive: true, force: true })));
  const heard: Utterance[] = [];
  bus.on('utterance.final', (u) => void heard.push(u));
  return { clock, conv, line, command, records, hangovers, heard, voice };
}

let n = 0;
function record(fate: Fate, closedAt: number): SegmentRecord {
  const index = n++;
  const segment: Segment = {
    index,
    pcm: new Int16Array(16_000),
    prerollSamples: 4000,
    startSample: 0,
    vadStartSample: 4000,
    endSample: 16_000,
    closeReason: 'hangover',
    maxProb: 0.95,
    openedBy: 'vad',
  };
  return { segment, transcript: null, fate, actions: [], closedAt, closedWallAt: Date.now(), speechEndAt: closedAt - 600, firstActionAt: null, written: false };
}

const words = (text: string): Utterance => ({ id: `u-${text}`, text, rawText: text, engine: 'whisper', atMs: 0 });

describe('the command side', () => {
  it('a dispatched segment reaches the router once; its action is in the segment’s record', async () => {
    const s = side();
    const rec = record({ kind: 'dispatched', utterance: words('set a timer for five minutes') }, s.clock.now());
    await s.command.dispatch(rec, null);
    expect(rec.actions.map((a) => [a.name, a.args])).toEqual([['timer.set', { seconds: 300 }]]);
    expect(rec.firstActionAt).toBe(s.clock.now());
    expect(s.conv.core.timers.list()).toHaveLength(1);
  });

  it('a dropped, filtered or cancelled segment never reaches the router', async () => {
    const s = side();
    const fates: Fate[] = [
      { kind: 'dropped', reason: 'blank' },
      { kind: 'filtered', utterance: words('set a timer for five minutes'), reason: 'backchannel' },
      { kind: 'cancelled', reason: 'push-to-talk cancelled (tap or mute hold)' },
      { kind: 'yielded', utterance: words('set a timer for five minutes'), reason: 'yielded to kitchen-2' },
    ];
    for (const f of fates) {
      const rec = record(f, s.clock.now());
      await s.command.dispatch(rec, null);
      expect(rec.actions).toEqual([]);
    }
    expect(s.conv.core.timers.list()).toEqual([]);
  });

  it('words from elsewhere are handled as if said, after the segments closed before them', async () => {
    const s = side();
    const order: string[] = [];
    let release!: () => void;
    const segmentDone = s.line.enqueue(async () => {
      await new Promise<void>((r) => (release = r));
      order.push('segment');
    }, 'failed');
    const text = s.command.heardText('  set a timer for two minutes ', 'fleet');
    await new Promise((r) => setImmediate(r));
    expect(s.heard).toEqual([]);
    release();
    await Promise.all([segmentDone, text]);
    order.push('text');
    expect(order).toEqual(['segment', 'text']);
    expect(s.heard).toMatchObject([{ text: 'set a timer for two minutes', engine: 'text' }]);
    expect(s.conv.core.timers.list()).toHaveLength(1);
  });

  it('blank words from elsewhere are nothing: no utterance', async () => {
    const s = side();
    await s.command.heardText('   ', 'phone');
    expect(s.heard).toEqual([]);
  });

  it('while the voice picker waits for a name, segments close after the short hangover; back to the default after', async () => {
    const s = side('wake-word');
    expect(s.command.hangoverMs).toBe(600);
    await s.command.dispatch(record({ kind: 'dispatched', utterance: words('switch voice') }, s.clock.now()), null);
    expect(s.hangovers).toEqual([250]);
    expect(s.command.hangoverMs).toBe(250);
    // Something waits for an answer: what is said next is meant for hark, and transcribed whole.
    expect(s.command.awaited()).toBe(true);
    expect(s.command.wantsWholeTranscript()).toBe(true);
    await s.command.dispatch(record({ kind: 'dispatched', utterance: words('never mind') }, s.clock.now()), null);
    expect(s.hangovers).toEqual([250, 600]);
    expect(s.command.wantsWholeTranscript()).toBe(false);
  });

  it('the front plug-ins get: their words go to the same router, and shows what the lists hold', async () => {
    const s = side();
    const front = s.command.front();
    await front.heardText('add milk to the shopping list', 'satellite');
    const lists = front.lists();
    expect(lists.map((l) => l.name)).toEqual(['shopping']);
    expect(JSON.stringify(lists[0]!.items)).toMatch(/milk/);
    // The follow-up window after an action is open: what is said next is meant for hark.
    expect(front.awaitingWords()).toBe(true);
  });
});
