import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { SegmentPath } from '../../src/path/segment-path.js';
import type { Arbiter } from '../../src/path/plugins.js';
import type { SttStack } from '../../src/stt/create.js';
import type { EngineSlot, SttEngine } from '../../src/stt/engine.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import { EngineFailure } from '../../src/stt/types.js';
import { Store } from '../../src/store/store.js';
import { Conversation } from '../../src/path/conversation.js';
import type { Segment } from '../../src/vad/segment.js';
import { asrResult } from '../support/asr-events.js';
import { OllamaDouble } from '../support/ollama-server.js';
import { testSpeech } from '../kit/speech.js';
import { ScriptedEngine, StreamingEngine, transcriptOf } from '../kit/stt.js';

/**
 * The path of a segment, owned by one class: transcript → fate → cascade → router → record. Engines
 * are scripted doubles behind the real SttEngine interface; the interruption filter, the response
 * cascade, the router and (where rows matter) the SQLite store are the real ones, on a virtual clock.
 */

const transcript = transcriptOf;
const result = asrResult;
/** Whisper hearing `said` in order (the last repeats). */
const scriptedWhisper = (said: string[], o: { held?: boolean } = {}) => new ScriptedEngine({ ...o, script: said });

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function rig(opts: {
  engines: SttEngine[];
  mode?: 'wake-word' | 'always-listen';
  store?: boolean;
  hangovers?: number[];
  earlyCloses?: number[];
  arbiter?: Arbiter;
  intent?: Record<string, unknown>;
}) {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const dataDir = mkdtempSync(join(tmpdir(), 'hark-path-data-'));
  dirs.push(dataDir);
  const config = validateConfig(
    { router: { mode: opts.mode ?? 'wake-word' }, speech: { device: 'null' }, actions: { dataDir }, ...(opts.intent ? { intent: opts.intent } : {}) },
    'test',
  );
  const engines: EngineSlot[] = opts.engines.map((engine) => ({ id: engine.id, engine }));
  const transcriber = new Transcriber({
    engines,
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: config.stt.filter,
    stabilizer: config.stt.stabilizer,
    clock,
    logger: log,
    bus,
  });
  const stt: SttStack = { transcriber, engines, describe: 'test', setVocabulary: () => {}, close: async () => {} };
  // The real speech queue in front of a player that records what it is given (the kit's).
  const voice = testSpeech({ clock, bus });
  const { speech, log: said } = voice;
  const queue = speech.queue;
  let store: Store | null = null;
  if (opts.store) {
    const dir = mkdtempSync(join(tmpdir(), 'hark-path-'));
    dirs.push(dir);
    store = new Store({ path: join(dir, 'hark.db'), housekeeping: null });
    store.start();
  }
  // The appliance's own command side (cascade steps, interruption filter), on the recording speaker.
  const conversation = new Conversation({ config, bus, clock, log, store, speech });
  const cascade = conversation.cascade!;
  const path = new SegmentPath({
    config,
    bus,
    clock,
    log,
    stt,
    speech,
    conversation,
    store: () => store,
    source: 'mic',
    setHangoverMs: (ms) => opts.hangovers?.push(ms),
    closeEarly: () => opts.earlyCloses?.push(clock.now()),
    ...(opts.arbiter ? { arbiter: opts.arbiter } : {}),
  });
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  bus.onAny((type, payload) => events.push({ type, payload: payload as Record<string, unknown> }));
  const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload);
  const effects = (type: string) => of('router.effect').filter((e) => e.type === type);
  let next = 0;
  let index = 0;
  /** Open a segment (as the VAD would), returning its close. */
  const open = () => {
    const startSample = next;
    next += 32_000;
    path.opened({ startSample, pcm: new Int16Array(8000) });
    return {
      startSample,
      close: (maxProb = 0.95) => {
        const seg: Segment = {
          index: index++,
          pcm: new Int16Array(16_000),
          prerollSamples: 8000,
          startSample,
          vadStartSample: startSample + 8000,
          endSample: startSample + 16_000,
          closeReason: 'hangover',
          maxProb,
          openedBy: 'vad',
        };
        return path.closed(seg);
      },
    };
  };
  const settle = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      clock.advanceBy(50);
      await new Promise((r) => setImmediate(r));
    }
  };
  return {
    config,
    clock,
    bus,
    path,
    of,
    effects,
    open,
    settle,
    queue,
    said,
    speakOver: voice.speakOver,
    letGo: voice.letGo,
    cascade,
    store,
    close: () => (path.dispose(), speech.close(), store?.close()),
  };
}

describe('the path of a segment: one owner, one fate per segment', () => {
  it('a transcript the hallucination filter drops never reaches the router (always-listen)', async () => {
    // Unclear audio: Whisper's answer stands (nothing to fall back to), and is a known hallucination.
    const r = rig({ engines: [scriptedWhisper(['Thank you for watching.'])], mode: 'always-listen', store: true });
    await r.open().close(0.5);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dropped', reason: 'hallucination: "thank you for watching"', utterance: null, actions: [] }]);
    // Nothing routed: no query opened, nothing appended, nothing ignored.
    expect(r.effects('stack')).toEqual([]);
    expect(r.effects('matched')).toEqual([]);
    expect(r.effects('ignored')).toEqual([]);
    // The store records what was said, not as heard.
    const db = new Database((r.store as unknown as { path: string }).path, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM utterances').pluck().get()).toBe(0);
    expect(db.prepare('SELECT raw_text, dropped_reason FROM transcripts').all()).toEqual([
      { raw_text: 'Thank you for watching.', dropped_reason: 'hallucination: "thank you for watching"' },
    ]);
    db.close();
    r.close();
  });

  it('the cloud fails after a final: the timer is set once, from the fallback engine’s whole transcript', async () => {
    const cloud = new StreamingEngine();
    cloud.onFinish = async ({ push }) => {
      push(result('final', 'Computer, set', 0, 0.8));
      throw new EngineFailure('deepgram', 'closed', 'socket closed (1006)');
    };
    const r = rig({ engines: [cloud, scriptedWhisper(['computer set a timer for ten minutes'])] });
    const seg = r.open();
    cloud.streams[0]!.push(result('partial', 'Computer, set a', 0, 1));
    await seg.close();
    const actions = r.effects('action');
    expect(actions.map((a) => [a.name, a.args])).toEqual([['timer.set', { seconds: 600 }]]);
    expect(r.of('utterance.final').map((u) => [u.engine, u.text])).toEqual([['whisper', 'computer set a timer for ten minutes']]);
    expect(r.of('segment.handled')).toMatchObject([
      { fate: 'dispatched', utterance: { text: 'computer set a timer for ten minutes' }, actions: ['timer.set'] },
    ]);
    r.close();
  });
});

describe('the answer being prepared: words take the floor, a cough does not', () => {
  const answer = (r: ReturnType<typeof rig>) => r.cascade.start({ kind: 'answer', text: 'The earlier answer.' }, { endOfSpeechAt: r.clock.now() });

  it('a segment dropped as too short gives the answer back: it plays when due', async () => {
    const r = rig({ engines: [scriptedWhisper([''])] });
    answer(r);
    await r.settle(300);
    const cough = r.open();
    await r.settle(2000);
    // Held while it might be words.
    expect(r.said.filter((l) => l.startsWith('play'))).toEqual([]);
    r.path.dropped(cough.startSample);
    await r.settle(100);
    expect(r.said.filter((l) => l.startsWith('play'))).toHaveLength(1);
    r.close();
  });

  it('a segment with no words (blank transcript) gives the answer back too', async () => {
    const r = rig({ engines: [scriptedWhisper(['[BLANK_AUDIO]'])] });
    answer(r);
    await r.settle(300);
    const noise = r.open();
    await r.settle(400);
    await noise.close(0.5);
    await r.settle(2000);
    expect(r.said.filter((l) => l.startsWith('play'))).toEqual([`play The earlier answer. @${100_000 + 2000}`]);
    r.close();
  });

  it('words cancel it: the answer never plays late', async () => {
    const r = rig({ engines: [scriptedWhisper(['computer set a timer for five minutes'])] });
    answer(r);
    await r.settle(300);
    const speech = r.open();
    await r.settle(400);
    await speech.close();
    await r.settle(4000);
    expect(r.said.filter((l) => l.startsWith('play The earlier answer'))).toEqual([]);
    expect(r.cascade.busy).toBe(false);
    r.close();
  });
});

describe('barge-in decided on partial transcripts, before the segment closes', () => {
  it('"stop" over hark’s voice cuts it off at the partial, long before the close', async () => {
    const cloud = new StreamingEngine();
    cloud.onFinish = async () => transcript('deepgram', 'Stop.');
    const r = rig({ engines: [cloud] });
    r.speakOver();
    const seg = r.open();
    await r.settle(300);
    cloud.streams[0]!.push(result('partial', 'stop', 0.5, 0.8));
    // Stopped at once, on the partial.
    expect(r.said).toEqual([`stop (barge-in) @${r.clock.now()}`]);
    await r.settle(700);
    await seg.close();
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dispatched', utterance: { text: 'Stop.' } }]);
    r.close();
  });

  it('"yeah" over hark’s voice never stops it, partial or final', async () => {
    const cloud = new StreamingEngine();
    cloud.onFinish = async () => transcript('deepgram', 'Yeah.');
    const r = rig({ engines: [cloud] });
    r.speakOver();
    const seg = r.open();
    await r.settle(200);
    cloud.streams[0]!.push(result('partial', 'yeah', 0.5, 0.7));
    await r.settle(200);
    cloud.streams[0]!.push(result('final', 'Yeah.', 0.5, 0.7));
    await r.settle(800);
    await seg.close();
    expect(r.said).toEqual([]);
    expect(r.queue.isSpeaking).toBe(true);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'filtered', utterance: { text: 'Yeah.' } }]);
    expect(r.effects('matched')).toEqual([]);
    r.close();
  });

  it('with Whisper alone, the transcript made at the pause decides: "stop" stops hark before the segment closes', async () => {
    const r = rig({ engines: [scriptedWhisper(['stop'])] });
    r.speakOver();
    const seg = r.open();
    r.path.paused({ startSample: seg.startSample, pcm: new Int16Array(12_000) });
    await r.settle(50);
    expect(r.said.filter((l) => l.startsWith('stop (barge-in)'))).toHaveLength(1);
    await seg.close();
    r.close();
  });

  it('with Whisper alone, "yeah" over hark at the pause is settled as a backchannel: hark goes on', async () => {
    const r = rig({ engines: [scriptedWhisper(['yeah'])] });
    r.speakOver();
    const seg = r.open();
    r.path.paused({ startSample: seg.startSample, pcm: new Int16Array(12_000) });
    await r.settle(1000);
    await seg.close();
    expect(r.said).toEqual([]);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'filtered' }]);
    r.close();
  });

  it('"ok" said over a ringing timer stops the ring: it is an answer, not a backchannel', async () => {
    const r = rig({ engines: [scriptedWhisper(['computer set a timer for thirty seconds', 'ok'])] });
    await r.open().close();
    await r.settle(31_000);
    expect(r.path.commands.core.timers.ringing).toBe(true);
    r.speakOver(); // the ring's name being said
    await r.open().close();
    expect(r.of('segment.handled').at(-1)).toMatchObject({ fate: 'dispatched', utterance: { text: 'ok' } });
    expect(r.path.commands.core.timers.ringing).toBe(false);
    r.close();
  });

  it('"yeah … stop" in one segment still stops: each final chunk is decided on its own', async () => {
    const cloud = new StreamingEngine();
    cloud.onFinish = async () => transcript('deepgram', 'Yeah. Stop.');
    const r = rig({ engines: [cloud] });
    r.speakOver();
    const seg = r.open();
    cloud.streams[0]!.push(result('final', 'Yeah.', 0.3, 0.5));
    expect(r.said).toEqual([]);
    await r.settle(300);
    cloud.streams[0]!.push(result('partial', 'stop', 0.9, 1.1));
    expect(r.said).toHaveLength(1);
    await seg.close();
    r.close();
  });
});

describe('last-wins without the wait', () => {
  it('"repeat" acts at once and its row belongs to its segment and utterance', async () => {
    const r = rig({ engines: [scriptedWhisper(['repeat'])], store: true });
    await r.open().close();
    expect(r.effects('action').map((a) => a.name)).toEqual(['repeat']);
    expect(r.of('segment.handled')).toMatchObject([{ actions: ['repeat'], actionMs: 0 }]);
    const db = new Database((r.store as unknown as { path: string }).path, { readonly: true });
    const rows = db
      .prepare(
        'SELECT a.name, a.outcome, a.segment_id IS NOT NULL AS seg, a.utterance_id = u.id AS utt FROM actions a LEFT JOIN utterances u ON u.segment_id = a.segment_id',
      )
      .all();
    expect(rows).toEqual([{ name: 'repeat', outcome: 'ok', seg: 1, utt: 1 }]);
    db.close();
    r.close();
  });

  it('"stop", then "repeat" a second later: both act at once, and the stored stop row says it was superseded', async () => {
    const r = rig({ engines: [scriptedWhisper(['stop', 'repeat'])], store: true });
    await r.open().close();
    r.clock.advanceBy(1000);
    await r.open().close();
    expect(r.effects('action').map((a) => a.name)).toEqual(['stop', 'repeat']);
    expect(r.effects('action.superseded')).toMatchObject([{ name: 'stop', by: 'repeat' }]);
    const db = new Database((r.store as unknown as { path: string }).path, { readonly: true });
    expect(db.prepare('SELECT name, outcome, error FROM actions ORDER BY id').all()).toEqual([
      { name: 'stop', outcome: 'superseded', error: 'by repeat' },
      { name: 'repeat', outcome: 'ok', error: null },
    ]);
    db.close();
    r.close();
  });
});

describe('a button tap ends dictation', () => {
  it('after the last words said before it, which are in what it submits', async () => {
    const r = rig({ engines: [scriptedWhisper(['start dictation', 'the walk-in is at four degrees'])] });
    await r.open().close();
    expect(r.effects('stack').at(-1)).toMatchObject({ frames: ['base', 'dictation'] });
    expect(r.path.takesTap()).toBe(true);
    // The last words are still being transcribed when the button is tapped.
    const last = r.open().close();
    const tap = r.path.buttonTap();
    await Promise.all([last, tap]);
    expect(r.effects('submit')).toMatchObject([{ frame: 'dictation', text: 'the walk-in is at four degrees' }]);
    expect(r.effects('stack').at(-1)).toMatchObject({ frames: ['base'] });
    expect(r.path.takesTap()).toBe(false);
    r.close();
  });
});

describe('the live hearing of an open segment', () => {
  it('settled words go on the bus for the page, with an intent hint that acts on nothing', async () => {
    const cloud = new StreamingEngine();
    cloud.onFinish = async () => transcript('deepgram', 'What is a lock statement?');
    const r = rig({ engines: [cloud] });
    const seg = r.open();
    const push = cloud.streams[0]!.push;
    push(result('partial', 'what', 0, 0.3));
    push(result('partial', 'what is', 0, 0.5));
    // One hypothesis settles nothing; two that agree settle their common words.
    expect(r.of('hearing.update').map((u) => u.stableText)).toEqual(['', 'what']);
    push(result('partial', 'what is a', 0, 0.7));
    push(result('partial', 'what is a lock', 0, 0.9));
    push(result('partial', 'what is a lock statement', 0, 1.2));
    // The seed's own example: the longest common prefix of the last three hypotheses.
    expect(r.of('hearing.update').at(-1)).toMatchObject({ segmentId: '@0', stableText: 'what is a', rawText: 'what is a lock statement' });
    // The hint sharpens as the words settle: a question, then a definition question.
    expect(r.of('intent.candidate')).toEqual([
      { segmentId: '@0', candidate: 'question', stableText: 'what' },
      { segmentId: '@0', candidate: 'definition', stableText: 'what is' },
    ]);
    // A hint is never an action.
    expect(r.effects('action')).toEqual([]);
    await seg.close();
    r.close();
  });
});

describe('from the end of speech to the transcript', () => {
  it('a pause starts Whisper on the segment so far; the close uses that transcript, not a second inference', async () => {
    const whisper = scriptedWhisper(['computer set a timer for five minutes']);
    const r = rig({ engines: [whisper] });
    const seg = r.open();
    r.path.paused({ startSample: seg.startSample, pcm: new Int16Array(12_000) });
    await seg.close();
    expect(whisper.calls).toHaveLength(1);
    expect(r.of('stt.preemptive').map((e) => e.outcome)).toEqual(['started', 'used']);
    expect(r.effects('action').map((a) => [a.name, a.args])).toEqual([['timer.set', { seconds: 300 }]]);
    r.close();
  });

  it('speech after the pause throws the speculative transcript away (counted), and the whole segment is transcribed', async () => {
    const whisper = scriptedWhisper(['computer set a timer', 'computer set a timer for five minutes']);
    const r = rig({ engines: [whisper] });
    const seg = r.open();
    r.path.paused({ startSample: seg.startSample, pcm: new Int16Array(12_000) });
    r.path.resumed(seg.startSample);
    await seg.close();
    expect(whisper.calls).toHaveLength(2);
    expect(r.of('stt.preemptive').map((e) => e.outcome)).toEqual(['started', 'discarded']);
    expect(r.of('segment.handled')).toMatchObject([{ utterance: { text: 'computer set a timer for five minutes' } }]);
    r.close();
  });

  it('while the voice picker waits for a name, a segment closes after the short hangover; back to the default after', async () => {
    const hangovers: number[] = [];
    const r = rig({ engines: [scriptedWhisper(['switch voice', 'never mind'])], hangovers });
    await r.open().close();
    expect(r.effects('stack').at(-1)).toMatchObject({ frames: ['base', 'voice'] });
    expect(hangovers).toEqual([250]);
    await r.open().close();
    expect(r.effects('stack').at(-1)).toMatchObject({ frames: ['base'] });
    expect(hangovers).toEqual([250, 600]);
    r.close();
  });
});

describe('acting on a whole command without the rest of the hangover', () => {
  it('"stop" heard at the pause closes the segment at once; "computer set a timer" does not', async () => {
    const earlyCloses: number[] = [];
    const r = rig({ engines: [scriptedWhisper(['stop', 'computer set a timer'])], earlyCloses });
    const a = r.open();
    r.path.paused({ startSample: a.startSample, pcm: new Int16Array(12_000) });
    await r.settle(50);
    expect(earlyCloses).toHaveLength(1);
    await a.close();
    const b = r.open();
    r.path.paused({ startSample: b.startSample, pcm: new Int16Array(12_000) });
    await r.settle(50);
    expect(earlyCloses).toHaveLength(1);
    await b.close();
    r.close();
  });
});

describe('a stop loses no speech', () => {
  /** Whisper that answers only when told: a stop can catch it mid-inference. */
  const heldWhisper = (said: string[]) => scriptedWhisper(said, { held: true });

  it('segments still waiting for speech-to-text when time is up are stored untranscribed, with why', async () => {
    const whisper = heldWhisper(['computer set a timer for five minutes']);
    const r = rig({ engines: [whisper], store: true });
    const first = r.open().close();
    const second = r.open().close();
    const finished = r.path.finish(1500);
    await r.settle(1600);
    await Promise.all([first, second, finished]);
    expect(r.of('segment.handled').map((h) => h.fate)).toEqual(['untranscribed', 'untranscribed']);
    const db = new Database((r.store as unknown as { path: string }).path, { readonly: true });
    const rows = db
      .prepare(
        'SELECT s.id, length(a.pcm) AS bytes, t.engine, t.dropped_reason FROM segments s JOIN segment_audio a ON a.segment_id = s.id JOIN transcripts t ON t.segment_id = s.id ORDER BY s.id',
      )
      .all();
    expect(rows).toEqual([
      { id: 1, bytes: 32_000, engine: 'none', dropped_reason: 'not transcribed: hark was stopping (replay it with hark replay)' },
      { id: 2, bytes: 32_000, engine: 'none', dropped_reason: 'not transcribed: hark was stopping (replay it with hark replay)' },
    ]);
    db.close();
    // Nothing acted on late.
    expect(r.effects('action')).toEqual([]);
    r.close();
  });

  it('a transcript ready within the stop budget is acted on and stored as usual', async () => {
    const whisper = heldWhisper(['computer set a timer for five minutes']);
    const r = rig({ engines: [whisper] });
    const seg = r.open().close();
    const finished = r.path.finish(1500);
    await r.settle(200);
    whisper.go(1);
    await Promise.all([seg, finished]);
    expect(r.of('segment.handled').map((h) => h.fate)).toEqual(['dispatched']);
    expect(r.effects('action').map((a) => a.name)).toEqual(['timer.set']);
    r.close();
  });
});

describe('the fleet seams: arbitration before dispatch, and words from outside', () => {
  it('a command another device heard better is recorded as yielded and not acted on', async () => {
    const asked: string[] = [];
    const arbiter: Arbiter = { decide: async (_s, u) => (asked.push(u.text), { act: false, to: 'kitchen-2' }) };
    const r = rig({ engines: [scriptedWhisper(['computer set a timer for five minutes'])], arbiter });
    await r.open().close();
    expect(asked).toEqual(['computer set a timer for five minutes']);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'yielded', reason: 'yielded to kitchen-2', actions: [] }]);
    expect(r.effects('action')).toEqual([]);
    r.close();
  });

  it('text from outside is handled as if heard, after the segments before it', async () => {
    const r = rig({ engines: [scriptedWhisper(['computer set a timer for five minutes'])] });
    const seg = r.open().close();
    const typed = r.path.heardText('computer set a timer for ten minutes', 'mqtt');
    await Promise.all([seg, typed]);
    expect(r.effects('action').map((a) => a.args)).toEqual([{ seconds: 300 }, { seconds: 600 }]);
    r.close();
  });
});

describe('interruption decisions do not leak', () => {
  it('a partial "mm" over hark whose segment the VAD then drops as too short never times out into an interruption', async () => {
    const cloud = new StreamingEngine();
    const r = rig({ engines: [cloud] });
    r.speakOver();
    const seg = r.open();
    cloud.streams[0]!.push(result('partial', 'mm', 0, 0.2));
    expect(r.of('interruption.pending')).toHaveLength(1);
    await r.settle(100);
    r.path.dropped(seg.startSample);
    await r.settle(2000);
    expect(r.said).toEqual([]);
    expect(r.queue.isSpeaking).toBe(true);
    expect(r.of('interruption.allowed')).toEqual([]);
    r.close();
  });

  it('a partial "mm" whose segment comes to nothing (a blank transcript) does not cut hark off either', async () => {
    const cloud = new StreamingEngine();
    cloud.onFinish = async () => transcript('deepgram', '');
    const r = rig({ engines: [cloud] });
    r.speakOver();
    const seg = r.open();
    cloud.streams[0]!.push(result('partial', 'mm', 0, 0.2));
    await r.settle(100);
    await seg.close(0.5);
    await r.settle(2000);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dropped' }]);
    expect(r.said).toEqual([]);
    expect(r.of('interruption.allowed')).toEqual([]);
    r.close();
  });

  it('speech over hark whose speech-to-text fails gives the person the floor: hark stops', async () => {
    const r = rig({ engines: [new ScriptedEngine({ script: [{ fail: 'error', message: 'whisper.cpp exited' }] })] });
    r.speakOver();
    await r.open().close();
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'dropped' }]);
    expect(r.said.filter((l) => l.startsWith('stop (barge-in)'))).toHaveLength(1);
    expect(r.of('interruption.allowed')).toMatchObject([{ reason: expect.stringContaining('speech-to-text failed'), confidence: 0 }]);
    r.close();
  });

  it('a failed transcript while hark is quiet stops nothing', async () => {
    const r = rig({ engines: [new ScriptedEngine({ script: [{ fail: 'error', message: 'whisper.cpp exited' }] })] });
    await r.open().close();
    expect(r.said).toEqual([]);
    expect(r.of('interruption.allowed')).toEqual([]);
    r.close();
  });
});

describe('who hark is talking with', () => {
  it('wake-word mode: "behind you" over hark is recorded as not addressed to hark, and hark talks on', async () => {
    const r = rig({ engines: [scriptedWhisper(['behind you'])], store: true });
    r.speakOver();
    await r.open().close();
    expect(r.said).toEqual([]);
    expect(r.of('segment.handled')).toMatchObject([{ fate: 'filtered', reason: expect.stringContaining('not addressed to hark') }]);
    const db = new Database((r.store as unknown as { path: string }).path, { readonly: true });
    expect(JSON.stringify(db.prepare('SELECT dropped_reason FROM transcripts').all())).toContain('not addressed to hark');
    db.close();
    r.close();
  });

  it('always-listen mode: the same words stop hark, as with one listener', async () => {
    const r = rig({ engines: [scriptedWhisper(['behind you'])], mode: 'always-listen' });
    r.speakOver();
    await r.open().close();
    expect(r.said.filter((l) => l.startsWith('stop (barge-in)'))).toHaveLength(1);
    r.close();
  });

  it('"okay" said over the dictation prompt is dictated', async () => {
    const r = rig({ engines: [scriptedWhisper(['start dictation', 'okay', 'end dictation'])] });
    await r.open().close();
    r.speakOver(); // the prompt
    await r.open().close();
    r.letGo();
    await r.open().close();
    expect(r.effects('submit')).toMatchObject([{ frame: 'dictation', text: 'okay' }]);
    r.close();
  });
});

describe('the model starts at the cascade’s first timer', () => {
  let ollama: OllamaDouble | null = null;
  afterEach(async () => {
    await ollama?.close();
    ollama = null;
  });
  /** Real time for the double's HTTP answer to arrive, with the virtual clock standing still. */
  const io = async (until: () => boolean = () => false) => {
    for (let i = 0; i < 40 && !until(); i++) await new Promise((r) => setTimeout(r, 25));
  };
  /** Advance the virtual clock to `t`, letting promises run on the way. */
  const to = async (r: ReturnType<typeof rig>, t: number) => {
    while (r.clock.now() < t) {
      r.clock.advanceTo(Math.min(t, r.clock.now() + 50));
      await new Promise((res) => setImmediate(res));
    }
  };
  const question = 'Add three cases of milk to the shopping list? Say yes or no.';

  it('asked 0.5 s after the person stopped, the question is said at 2 s, not after the query’s 4 s silence', async () => {
    ollama = await new OllamaDouble().start();
    ollama.on('three cases of milk', { verb: 'add_to_list', object: '3 cases of milk' });
    const r = rig({ engines: [scriptedWhisper(['computer we are short three cases of milk for the order'])], intent: { host: ollama.url, warmUp: false } });
    await r.open().close();
    // The VAD closed the segment a hangover (600 ms) after the last word: the first timer (0.5 s) is
    // already due, so the model is asked as soon as the words are known.
    const end = r.clock.now() - r.config.vad.hangoverMs;
    await to(r, r.clock.now() + 50);
    await io(() => ollama!.chats.length > 0);
    expect(ollama.chats.map((c) => c.lastUser)).toEqual(['we are short three cases of milk for the order']);
    await to(r, end + 1950);
    await io();
    expect(r.said.filter((l) => l.startsWith('say'))).toEqual([]);
    await to(r, end + 2000);
    await io(() => r.said.some((l) => l.startsWith('say')));
    expect(r.said.filter((l) => l.startsWith('say'))).toEqual([`say ${question}`]);
    expect(r.effects('proposal')).toMatchObject([{ intent: 'add_to_list', target: '3 cases of milk' }]);
    expect(r.effects('stack').at(-1)).toMatchObject({ frames: ['base', 'confirm'] });
    // One model call: the submission took the reply prepared at 0.5 s.
    expect(ollama.chats).toHaveLength(1);
    r.close();
  });

  it('the person goes on speaking: the prepared reply is thrown away and the whole request is asked about', async () => {
    ollama = await new OllamaDouble().start();
    ollama.on('three cases of milk', { verb: 'add_to_list', object: '3 cases of milk' });
    ollama.on('eggs', { verb: 'add_to_list', object: '3 cases of milk and 2 boxes of eggs' });
    const r = rig({
      engines: [scriptedWhisper(['computer we are short three cases of milk for the order', 'and two boxes of eggs'])],
      intent: { host: ollama.url, warmUp: false },
    });
    await r.open().close();
    const end = r.clock.now() - r.config.vad.hangoverMs;
    await to(r, end + 600);
    await io();
    const more = r.open();
    await to(r, end + 3000);
    // Held while they speak: nothing handed over, nothing said.
    expect(r.said.filter((l) => l.startsWith('say'))).toEqual([]);
    await more.close();
    const end2 = r.clock.now() - r.config.vad.hangoverMs;
    await to(r, end2 + 600);
    await io();
    await to(r, end2 + 2000);
    await io();
    expect(ollama.chats.map((c) => c.lastUser)).toEqual([
      'we are short three cases of milk for the order',
      'we are short three cases of milk for the order and two boxes of eggs',
    ]);
    expect(r.said.filter((l) => l.startsWith('say'))).toEqual([expect.stringMatching(/^say Add .*milk and .*eggs to the shopping list\? Say yes or no\.$/)]);
    expect(r.effects('proposal')).toHaveLength(1);
    r.close();
  });

  it('with the model away, the request is handed over at 2 s and kept in the query’s own target; the outage is said then, not while the person may still talk', async () => {
    ollama = await new OllamaDouble().start();
    ollama.fail('http-500', Infinity);
    const r = rig({ engines: [scriptedWhisper(['computer ask the chef about table four'])], intent: { host: ollama.url, warmUp: false, retries: 0 } });
    await r.open().close();
    const end = r.clock.now() - r.config.vad.hangoverMs;
    await to(r, end + 600);
    await io();
    expect(r.said.filter((l) => l.startsWith('say'))).toEqual([]);
    await to(r, end + 2000);
    await io();
    await r.path.drain();
    expect(r.effects('submit')).toMatchObject([{ frame: 'query', text: 'ask the chef about table four' }]);
    expect(r.effects('delivered')).toMatchObject([{ target: 'intent', detail: expect.stringContaining('kept in file') }]);
    expect(r.said.filter((l) => l.startsWith('say'))).toHaveLength(1);
    r.close();
  });

  it('with no model at all (intent off), the query submits on its own silence timer as before', async () => {
    const r = rig({ engines: [scriptedWhisper(['computer ask the chef about table four'])], intent: { enabled: false } });
    await r.open().close();
    const closed = r.clock.now();
    await to(r, closed + 3900);
    expect(r.effects('submit')).toEqual([]);
    await to(r, closed + 4000);
    expect(r.effects('submit')).toMatchObject([{ frame: 'query', target: 'file', text: 'ask the chef about table four' }]);
    r.close();
  });
});
