import { afterEach, describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { Conversation } from '../../src/path/conversation.js';
import { OpenSegments } from '../../src/path/open-segment.js';
import { openingPhrases } from '../../src/path/opening.js';
import { OpeningJudge } from '../../src/path/opening-check.js';
import type { SttEngine } from '../../src/stt/engine.js';
import { asrResult } from '../support/asr-events.js';
import { testSpeech } from '../kit/speech.js';
import { ScriptedEngine, StreamingEngine, type Script } from '../kit/stt.js';
import { sttStack } from '../kit/stt-stack.js';

/**
 * The open segment on its own: the segmenter's events in (opened, audio, paused, resumed, long,
 * dropped, close), the OpenSegment out at its close. The real transcriber, opening check, interruption
 * filter and speech queue, over the kit's engines and recording speaker, on a virtual clock. What a
 * user notices: "stop" said over hark cuts it off before they have finished; "yeah" does not; a long
 * stretch of radio is judged on its opening while it still plays; a cough gives a held answer back.
 */

const RATE = 16_000;
const PREROLL = 8000;
const config = validateConfig({ router: { mode: 'wake-word' }, speech: { device: 'null' } }, 'test');
const phrases = openingPhrases(config.router.frames)!;
const WAKE = phrases[0]!.join(' ');

let closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

function rig(engine: SttEngine, o: { busy?: () => boolean; checked?: boolean } = {}) {
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const voice = testSpeech({ clock, bus });
  const stt = sttStack({ engines: [engine], clock, bus, log });
  const conv = new Conversation({ config, bus, clock, log, store: null, speech: voice.speech });
  closers.push(() => (conv.dispose(), voice.speech.close()));
  const judge = new OpeningJudge({ stt, config: config.stt, log, phrases, ringing: () => false, language: () => conv.core.language });
  const earlyCloses: number[] = [];
  const open = new OpenSegments({
    conv,
    stt,
    speech: voice.speech,
    bus,
    config,
    openingChecked: () => o.checked ?? true,
    judge,
    sttBusy: o.busy ?? (() => false),
    closeEarly: () => void earlyCloses.push(clock.now()),
  });
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  bus.onAny((type, payload) => events.push({ type, payload: payload as Record<string, unknown> }));
  const of = (type: string) => events.filter((e) => e.type === type).map((e) => e.payload);
  const settle = async (ms: number) => {
    for (let t = 0; t < ms; t += 50) {
      clock.advanceBy(50);
      await new Promise((r) => setImmediate(r));
    }
  };
  return { clock, voice, conv, open, of, settle, earlyCloses };
}

const whisper = (script: Script) => new ScriptedEngine({ script });
const speech = (sec: number) => new Int16Array(PREROLL + Math.round(sec * RATE));

describe('the open segment', () => {
  it('is handed over at its close under its key, once; a close for another start hands over nothing', () => {
    const r = rig(whisper(['hello']));
    r.open.opened({ startSample: 48_000, pcm: new Int16Array(PREROLL), prerollSamples: PREROLL });
    expect(r.open.close(96_000)).toBeNull();
    const seg = r.open.close(48_000);
    expect(seg).toMatchObject({ key: '@48000', startSample: 48_000, prerollSamples: PREROLL, speaking: false, pauses: 0 });
    expect(r.open.close(48_000)).toBeNull();
  });

  it('"stop" over hark’s voice cuts it off on the cloud’s partial, before the segment closes', async () => {
    const cloud = new StreamingEngine({ script: ['Stop.'] });
    const r = rig(cloud);
    r.voice.speakOver();
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL) });
    await r.settle(300);
    cloud.streams[0]!.push(asrResult('partial', 'stop', 0.5, 0.8));
    expect(r.voice.log).toEqual([`stop (barge-in) @${r.clock.now()}`]);
    expect(r.voice.speech.queue.isSpeaking).toBe(false);
    expect(r.open.close(0)).toMatchObject({ speaking: true });
  });

  it('"yeah" over hark’s voice, partial then final, lets hark talk on', async () => {
    const cloud = new StreamingEngine({ script: ['Yeah.'] });
    const r = rig(cloud);
    r.voice.speakOver();
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL) });
    cloud.streams[0]!.push(asrResult('partial', 'yeah', 0.5, 0.7));
    await r.settle(200);
    cloud.streams[0]!.push(asrResult('final', 'Yeah.', 0.5, 0.7));
    await r.settle(800);
    expect(r.voice.log).toEqual([]);
    expect(r.voice.speech.queue.isSpeaking).toBe(true);
  });

  it('with Whisper alone, the transcript started at a pause decides: "stop" stops hark while the segment is still open', async () => {
    const r = rig(whisper(['stop']), { checked: false });
    r.voice.speakOver();
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL) });
    r.open.paused({ startSample: 0, pcm: speech(0.5) });
    await r.settle(50);
    expect(r.voice.log.filter((l) => l.startsWith('stop (barge-in)'))).toHaveLength(1);
    expect(r.of('stt.preemptive')).toMatchObject([{ segmentId: '@0', outcome: 'started' }]);
  });

  it('a complete command heard at a pause closes the segment early (no wait for the rest of the hangover)', async () => {
    const r = rig(whisper(['stop']), { checked: false });
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL) });
    r.open.paused({ startSample: 0, pcm: speech(0.5) });
    await r.settle(50);
    expect(r.earlyCloses).toHaveLength(1);
  });

  it('speech resumed after a pause: the transcript made at the pause is thrown away', async () => {
    const r = rig(whisper(['set a']), { checked: false });
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL) });
    r.open.paused({ startSample: 0, pcm: speech(0.8) });
    r.open.resumed(0);
    await r.settle(50);
    expect(r.of('stt.preemptive').map((e) => e.outcome)).toEqual(['started', 'discarded']);
  });

  it('a long segment’s opening is judged while it is still being said; with no wake phrase its pauses cost no inference', async () => {
    const engine = whisper(['the weather today will be mostly sunny']);
    const r = rig(engine);
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL), prerollSamples: PREROLL });
    r.open.long({ startSample: 0, pcm: speech(2.6), prerollSamples: PREROLL, maxProb: 0.95 });
    await r.settle(50);
    r.open.paused({ startSample: 0, pcm: speech(4) });
    await r.settle(50);
    const seg = r.open.close(0)!;
    expect(seg.opening!.result).toMatchObject({ kind: 'none' });
    // One inference: the opening (pre-roll and stt.opening.seconds), nothing at the pause.
    expect(engine.heard).toEqual([PREROLL + config.stt.opening.seconds * RATE]);
  });

  it('with the wake phrase at its opening, the whole starts at the pause already made', async () => {
    const engine = whisper([`${WAKE} set a`, `${WAKE} set a timer for ten minutes`]);
    const r = rig(engine);
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL), prerollSamples: PREROLL });
    r.open.long({ startSample: 0, pcm: speech(2.6), prerollSamples: PREROLL, maxProb: 0.95 });
    await r.settle(50);
    expect(r.of('stt.preemptive')).toEqual([]);
    r.open.paused({ startSample: 0, pcm: speech(4) });
    await r.settle(50);
    expect(r.of('stt.preemptive')).toMatchObject([{ outcome: 'started' }]);
    expect(r.open.close(0)!.opening!.result).toMatchObject({ kind: 'wake' });
    expect(engine.heard).toEqual([PREROLL + config.stt.opening.seconds * RATE, speech(4).length]);
  });

  it('the opening check waits while closed segments are still being transcribed, and starts on the next frame after', async () => {
    let busy = true;
    const engine = whisper(['the weather today']);
    const r = rig(engine, { busy: () => busy });
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL), prerollSamples: PREROLL });
    r.open.long({ startSample: 0, pcm: speech(2.6), prerollSamples: PREROLL, maxProb: 0.95 });
    r.open.audio(new Int16Array(512));
    await r.settle(50);
    expect(engine.calls).toEqual([]);
    busy = false;
    r.open.audio(new Int16Array(512));
    await r.settle(50);
    expect(engine.calls).toHaveLength(1);
  });

  it('a segment too short to keep: its cloud stream is cancelled and nothing of it stays', () => {
    const cloud = new StreamingEngine();
    const r = rig(cloud);
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL) });
    r.open.dropped(0);
    expect(cloud.streams[0]!.cancelled).toBe(true);
    expect(r.open.close(0)).toBeNull();
  });

  it('the settled words of an open segment give the page a hint of the intent, never an action', async () => {
    const cloud = new StreamingEngine();
    const r = rig(cloud);
    r.open.opened({ startSample: 0, pcm: new Int16Array(PREROLL) });
    cloud.streams[0]!.push(asrResult('final', 'How do I', 0, 0.6));
    cloud.streams[0]!.push(asrResult('partial', 'clean the fryer', 0.6, 1.2));
    await r.settle(50);
    expect(r.of('intent.candidate')).toEqual([{ segmentId: '@0', candidate: 'how-to', stableText: expect.stringMatching(/^How do I/) }]);
    expect(r.of('router.effect').filter((e) => e.type === 'action')).toEqual([]);
  });
});
