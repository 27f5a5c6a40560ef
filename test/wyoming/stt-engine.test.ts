import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bus, type HarkEventName } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import type { Utterance } from '../../src/core/utterance.js';
import type { SegmentTranscript } from '../../src/stt/events.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import { WyomingSttEngine } from '../../src/stt/wyoming/engine.js';
import { parseServerUrl } from '../../src/wyoming/server-url.js';
import { WyomingDouble, type WyomingDoubleOptions, type WyomingFault } from '../support/wyoming-server.js';
import { ScriptedEngine } from '../kit/stt.js';

/** The transcriber with the real Wyoming engine on a real socket to the protocol double, Whisper scripted behind it. */

let server: WyomingDouble;
let engine: WyomingSttEngine;

async function setup(opts: WyomingDoubleOptions = {}, engineOpts: { deadlineBaseMs?: number } = {}) {
  server = await WyomingDouble.start(opts);
  const url = parseServerUrl(server.url);
  if ('error' in url) throw new Error(url.error);
  engine = new WyomingSttEngine({
    server: url.server,
    language: 'en',
    model: '',
    connectTimeoutMs: 500,
    deadlineBaseMs: engineOpts.deadlineBaseMs ?? 2000,
    deadlinePerSecondMs: 0,
    chunkSamples: 1024,
    logger: memoryLogger(),
    clock: new SystemClock(),
  });
  await engine.describe();
  const whisper = ScriptedEngine.hearing('from whisper');
  const bus = new Bus();
  const seen: { name: HarkEventName; payload: unknown }[] = [];
  bus.onAny((name, payload) => seen.push({ name, payload }));
  const svc = new Transcriber({
    engines: [
      { id: 'wyoming', engine },
      { id: 'whisper', engine: whisper },
    ],
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: { phrases: DEFAULT_HALLUCINATIONS },
    stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
    clock: new SystemClock(),
    logger: memoryLogger(),
    bus,
  });
  const of = <T>(name: HarkEventName) => seen.filter((e) => e.name === name).map((e) => e.payload as T);
  return { svc, whisper, of };
}

afterEach(async () => {
  await engine?.close();
  await server?.close();
});

/** Audio whose samples count up, so order and completeness can be checked at the server. */
function ramp(n: number, from = 0): Int16Array {
  return Int16Array.from({ length: n }, (_, i) => ((from + i) % 30000) - 15000);
}

function samples(buf: Buffer): Int16Array {
  return new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
}

describe('wyoming engine: the exchange', () => {
  it('info at start: the models and whether it streams', async () => {
    await setup({ models: ['tiny-int8', 'small-int8'], streaming: true });
    expect(engine.serverInfo).toMatchObject({
      asrPrograms: ['faster-whisper'],
      models: [{ name: 'tiny-int8' }, { name: 'small-int8' }],
      streamsTranscripts: true,
      voices: [{ name: 'en_US-lessac-medium' }, { name: 'en_GB-alan-low' }],
    });
  });

  it('a whole segment: transcribe, audio-start at 16 kHz, every sample in order, audio-stop → the transcript, one connection', async () => {
    const { svc, of } = await setup();
    server.script = ['set a timer for five minutes'];
    const pcm = ramp(5000);
    const r = await svc.transcribe({ index: 1, pcm, maxProb: 0.95 });
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'set a timer for five minutes', engine: 'wyoming' } });
    const [ex] = server.asr();
    expect(ex!.events.map((e) => e.type)).toEqual(['transcribe', 'audio-start', ...Array(5).fill('audio-chunk'), 'audio-stop']);
    expect(ex!.events[0]!.data).toEqual({ language: 'en' });
    expect(ex!.events[1]!.data).toMatchObject({ rate: 16000, width: 2, channels: 1 });
    expect([...samples(ex!.audio)]).toEqual([...pcm]);
    expect(of<Utterance>('utterance.final')).toHaveLength(1);
  });

  it('streams a segment while it is open: pre-roll first, then the live frames, only audio-stop at the close', async () => {
    const { svc } = await setup();
    server.script = ['eighty six the salmon'];
    const preroll = ramp(4000);
    const live = svc.open('@100', preroll)!;
    expect(live.engine).toBe('wyoming');
    const frames = Array.from({ length: 10 }, (_, i) => ramp(512, 4000 + i * 512));
    for (const f of frames) {
      live.write(f);
      await new Promise((r) => setTimeout(r, 1));
    }
    const all = Int16Array.from([...preroll, ...frames.flatMap((f) => [...f])]);
    const r = await svc.transcribe({ index: 2, pcm: all, maxProb: 0.9 }, live);
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'eighty six the salmon' } });
    expect(server.asr()).toHaveLength(1);
    expect([...samples(server.asr()[0]!.audio)]).toEqual([...all]);
  });

  it.each(['separate', 'alternate'] as const)('reads data sent as %s bytes', async (dataForm) => {
    const { svc } = await setup({ dataForm, streaming: true });
    server.script = ['two more fries'];
    const r = await svc.transcribe({ index: 3, pcm: ramp(3000), maxProb: 0.9 });
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'two more fries' } });
  });

  it('a streaming server: its transcript-chunks feed the live hearing, the transcript is what is used', async () => {
    const { svc, of } = await setup({ streaming: true });
    server.script = ['behind you coming through'];
    const r = await svc.transcribe({ index: 4, pcm: ramp(3000), maxProb: 0.9 });
    expect(of<{ text: string }>('asr.final').map((f) => f.text)).toEqual(['behind', 'you', 'coming', 'through']);
    expect(of<{ rawText: string }>('hearing.update').at(-1)!.rawText).toBe('behind you coming through');
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'behind you coming through', engine: 'wyoming' } });
  });

  it('a server streaming while the audio still comes: the live hearing grows before the segment closes', async () => {
    const { svc, of } = await setup({ streaming: true, chunkEveryAudioChunks: 2 });
    server.script = ['computer stop the timer'];
    const live = svc.open('@7', ramp(1024))!;
    for (let i = 1; i < 8; i++) {
      live.write(ramp(1024, i * 1024));
      await new Promise((r) => setTimeout(r, 5));
    }
    await new Promise((r) => setTimeout(r, 100));
    // Before the close: the words streamed so far.
    expect(of<{ rawText: string }>('hearing.update').at(-1)!.rawText).toBe('computer stop the timer');
    expect(of('utterance.final')).toHaveLength(0);
    const r = await svc.transcribe({ index: 7, pcm: ramp(8192), maxProb: 0.9 }, live);
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'computer stop the timer', engine: 'wyoming' } });
  });

  it('a non-streaming server: no live hearing events', async () => {
    const { svc, of } = await setup({ streaming: false });
    await svc.transcribe({ index: 5, pcm: ramp(3000), maxProb: 0.9 });
    expect(of('asr.final')).toHaveLength(0);
  });
});

describe('wyoming engine: faults hand the whole segment to the next engine, naming the server and what was wrong', () => {
  const cases: { name: string; fault: WyomingFault; kind: string; error: RegExp }[] = [
    { name: 'slow (past its deadline)', fault: { kind: 'slow', ms: 1500 }, kind: 'deadline', error: /no transcript within 300 ms of audio-stop/ },
    { name: 'closed mid-stream', fault: { kind: 'close-mid-stream', afterChunks: 2 }, kind: 'closed', error: /closed the connection/ },
    { name: 'a garbage header', fault: { kind: 'garbage-header' }, kind: 'error', error: /header line is not JSON: "HTTP\/1.1 400/ },
    { name: 'an oversized payload_length', fault: { kind: 'oversized-length' }, kind: 'error', error: /payload_length 4294967296, over the/ },
    {
      name: 'a header without end',
      fault: { kind: 'no-end-header', bytes: 200_000 },
      kind: 'error',
      error: /header line longer than 65536 bytes without an end/,
    },
    { name: 'an error event', fault: { kind: 'error-event', text: 'model not loaded' }, kind: 'error', error: /error: model not loaded \(test-fault\)/ },
    { name: 'an unknown event type', fault: { kind: 'unknown-event' }, kind: 'error', error: /unknown event type "made-up-event"/ },
  ];
  it.each(cases)('$name', async ({ fault, kind, error }) => {
    const { svc, whisper, of } = await setup({}, { deadlineBaseMs: 300 });
    server.faults = [fault];
    const r = await svc.transcribe({ index: 7, pcm: ramp(6000), maxProb: 0.95 });
    expect(r.attempts.map((a) => [a.engine, a.outcome])).toEqual([
      ['wyoming', 'failed'],
      ['whisper', 'ok'],
    ]);
    const err = r.attempts[0]!.error!;
    expect(err).toContain(`wyoming ${kind}: Wyoming server ${server.url}`);
    expect(err).toMatch(error);
    expect(whisper.calls).toHaveLength(1);
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'from whisper', engine: 'whisper', fallbackReason: err } });
    expect(of<Utterance>('utterance.final').map((u) => u.text)).toEqual(['from whisper']);
  });

  it('refused (nothing listening): the next engine transcribes', async () => {
    const { svc, whisper } = await setup();
    await server.close();
    const r = await svc.transcribe({ index: 8, pcm: ramp(2000), maxProb: 0.95 });
    expect(r.attempts[0]).toMatchObject({ engine: 'wyoming', outcome: 'failed', error: expect.stringMatching(/wyoming connect: .*connection refused/) });
    expect(whisper.calls).toHaveLength(1);
  });

  it('what a streaming server said before failing is recorded on the attempt, never dispatched', async () => {
    const { svc, of } = await setup({ streaming: true });
    server.faults = [{ kind: 'unknown-event' }];
    const r: SegmentTranscript = await svc.transcribe({ index: 9, pcm: ramp(2000), maxProb: 0.95 });
    expect(r.attempts[0]).toMatchObject({
      engine: 'wyoming',
      outcome: 'failed',
      rawText: 'heard',
      droppedReason: expect.stringMatching(/^failed part-way, not used: wyoming error/),
    });
    expect(of<Utterance>('utterance.final').map((u) => [u.text, u.engine])).toEqual([['from whisper', 'whisper']]);
  });

  it('three failures open the circuit: later segments skip the server without connecting', async () => {
    const { svc, whisper } = await setup();
    server.fault = { kind: 'error-event', text: 'busy' };
    for (let i = 0; i < 3; i++) await svc.transcribe({ index: i, pcm: ramp(1000), maxProb: 0.95 });
    const before = server.asr().length;
    const r = await svc.transcribe({ index: 10, pcm: ramp(1000), maxProb: 0.95 });
    expect(before).toBe(3);
    expect(server.asr()).toHaveLength(3);
    expect(r.attempts[0]).toMatchObject({ engine: 'wyoming', outcome: 'skipped' });
    expect(whisper.calls).toHaveLength(4);
  });
});

describe('wyoming engine from the config (createStt)', () => {
  it('first in stt.engines without a server: hark refuses to start, saying what to set', async () => {
    const { createStt } = await import('../../src/stt/create.js');
    const { validateConfig } = await import('../../src/config/load.js');
    const { stt } = validateConfig({ stt: { engines: ['wyoming', 'whisper'] } }, 'test');
    await expect(createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger() })).rejects.toThrow(
      'stt.engines: wyoming, whisper needs a Wyoming server: set stt.wyoming.server (tcp://host:port)',
    );
  });

  it('with a server: built from stt.wyoming, its info asked at start', async () => {
    server = await WyomingDouble.start({ models: ['small-int8'] });
    const { createStt, engineOf } = await import('../../src/stt/create.js');
    const { validateConfig } = await import('../../src/config/load.js');
    const { stt } = validateConfig({ stt: { engines: ['wyoming'], wyoming: { server: server.url, model: 'small-int8', language: 'de' } } }, 'test');
    const stack = await createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger() });
    try {
      const w = engineOf<WyomingSttEngine>(stack, 'wyoming')!;
      expect(w.serverInfo?.models.map((m) => m.name)).toEqual(['small-int8']);
      await stack.transcriber.transcribe({ index: 1, pcm: ramp(1600), maxProb: 0.9 });
      expect(server.asr()[0]!.events[0]!.data).toEqual({ language: 'de', name: 'small-int8' });
    } finally {
      await stack.close();
    }
  });

  it("the device's one language is sent; with several none is, and the language the server names is the utterance's", async () => {
    server = await WyomingDouble.start({ models: ['small-int8'] });
    server.detects = 'es';
    const { createStt } = await import('../../src/stt/create.js');
    const { validateConfig } = await import('../../src/config/load.js');
    const { stt } = validateConfig({ stt: { engines: ['wyoming'], wyoming: { server: server.url } } }, 'test');
    const one = await createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger(), languages: ['de'] });
    const several = await createStt({ config: stt, secrets: {}, bus: new Bus(), logger: memoryLogger(), languages: ['en', 'es'] });
    try {
      server.script = ['stell einen timer', 'pon un temporizador'];
      const de = await one.transcriber.transcribe({ index: 1, pcm: ramp(1600), maxProb: 0.9 });
      const es = await several.transcriber.transcribe({ index: 2, pcm: ramp(1600), maxProb: 0.9 });
      expect(server.asr().map((x) => x.events[0]!.data)).toEqual([{ language: 'de' }, {}]);
      expect(de.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'stell einen timer', language: 'de' } });
      expect(es.hearing).toMatchObject({ kind: 'heard', utterance: { text: 'pon un temporizador', language: 'es' } });
    } finally {
      await one.close();
      await several.close();
    }
  });
});
