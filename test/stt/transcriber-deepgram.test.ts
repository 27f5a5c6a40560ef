import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bus, type HarkEventName } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import type { Utterance } from '../../src/core/utterance.js';
import { DeepgramEngine } from '../../src/stt/deepgram/engine.js';
import type { SttMode } from '../../src/stt/fallback-policy.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import type { SttEngine } from '../../src/stt/engine.js';
import { engineOrder } from '../../src/stt/fallback-policy.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { ScriptedEngine } from '../kit/stt.js';

/** The transcriber with the real Deepgram adapter on a real socket to the protocol double. */
let dg: DeepgramDouble;
let cloud: DeepgramEngine;

function setup(mode: SttMode, whisper: SttEngine) {
  const bus = new Bus();
  const seen: { name: HarkEventName; payload: unknown; at: number }[] = [];
  bus.onAny((name, payload) => seen.push({ name, payload, at: Date.now() }));
  cloud = new DeepgramEngine({
    apiKey: 'test-key',
    url: dg.url,
    model: 'nova-3',
    language: 'en',
    interimResults: true,
    utteranceEndMs: 1000,
    vadEvents: true,
    endpointingMs: 300,
    smartFormat: true,
    connectTimeoutMs: 1500,
    finalizeTimeoutMs: 1500,
    keepAliveMs: 4000,
    idleCloseMs: 30_000,
    reconnectInitialMs: 50,
    reconnectMaxMs: 100,
    logger: memoryLogger(),
  });
  const byId: Record<string, SttEngine> = { whisper, deepgram: cloud };
  const svc = new Transcriber({
    engines: engineOrder(mode).map((id) => ({ id, engine: byId[id]! })),
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: { phrases: DEFAULT_HALLUCINATIONS },
    stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
    clock: new SystemClock(),
    logger: memoryLogger(),
    bus,
  });
  const of = <T>(name: HarkEventName) => seen.filter((e) => e.name === name).map((e) => e.payload as T);
  return { svc, bus, seen, of };
}

const frames = (n: number) => Array.from({ length: n }, () => new Int16Array(512).fill(200));

beforeEach(async () => {
  dg = await DeepgramDouble.start();
});
afterEach(async () => {
  await cloud?.close();
  await dg.close();
});

describe('cloud-first: streaming while the segment is open', () => {
  it('partials are heard while the person speaks; the close only flushes', async () => {
    dg.script = [{ text: 'Set a timer for five minutes.' }];
    const { svc, of } = setup('cloud-first', ScriptedEngine.hearing('never used'));
    const preroll = new Int16Array(8000).fill(100);
    const seg = svc.open('@48000', preroll)!;
    const live = frames(60);
    for (const f of live) {
      seg.write(f);
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 100));
    // Before the segment has even closed:
    expect(of('asr.partial').length).toBeGreaterThan(0);
    expect(of<{ segmentId: string; rawText: string }>('hearing.update').at(-1)).toMatchObject({ segmentId: '@48000', rawText: expect.stringMatching(/^Set/) });
    expect(of('utterance.final')).toHaveLength(0);
    const all = new Int16Array(preroll.length + live.length * 512);
    const r = await svc.transcribe({ index: 4, pcm: all, maxProb: 0.97 }, seg);
    expect(r.hearing.kind).toBe('heard');
    const finals = of<Utterance>('utterance.final');
    expect(finals).toMatchObject([{ text: 'Set a timer for five minutes.', engine: 'deepgram', segmentId: 4 }]);
    expect(finals[0]!.fallbackReason).toBeUndefined();
    // Pre-roll and live audio went out once, as they came; nothing was re-sent at the close.
    expect(dg.last!.audioBytes).toBe(all.length * 2);
  });

  it('when the socket dies mid-segment the same segment goes to Whisper, and the utterance says why', async () => {
    dg.misbehave.closeOnAudio = { code: 1011, reason: 'NET-0000 internal' };
    const whisper = ScriptedEngine.hearing('turn off the fan');
    const { svc, of } = setup('cloud-first', whisper);
    const r = await svc.transcribe({ index: 0, pcm: new Int16Array(16_000), maxProb: 0.9 });
    expect(r.hearing).toMatchObject({ kind: 'heard', utterance: { engine: 'whisper' } });
    expect(of<Utterance>('utterance.final')).toMatchObject([
      { text: 'turn off the fan', engine: 'whisper', fallbackReason: expect.stringMatching(/^deepgram closed: .*1011/) },
    ]);
    expect(of('stt.fallback')).toHaveLength(1);
  });

  it('a rejected key: one handshake, the circuit opens, later segments go straight to Whisper', async () => {
    dg.misbehave.rejectAuth = true;
    const whisper = ScriptedEngine.hearing('lights on');
    const { svc, of } = setup('cloud-first', whisper);
    for (let i = 0; i < 3; i++) await svc.transcribe({ index: i, pcm: new Int16Array(16_000), maxProb: 0.9 });
    expect(dg.handshakes).toBe(1);
    expect(svc.breaker('deepgram')!.state).toBe('open');
    expect(of<{ state: string }>('stt.circuit')).toMatchObject([{ state: 'open' }]);
    expect(of<Utterance>('utterance.final').map((u) => u.engine)).toEqual(['whisper', 'whisper', 'whisper']);
    expect(of<Utterance>('utterance.final')[2]!.fallbackReason).toMatch(/circuit open after deepgram auth/);
  });
});

describe('cloud-first: segments that never get transcribed', () => {
  it("a dropped segment's stream is flushed and forgotten; the next segment streams live as usual", async () => {
    dg.script = [{ text: 'cough' }, { text: 'Lights on.' }];
    const { svc, of } = setup('cloud-first', ScriptedEngine.hearing('never'));
    const first = svc.open('@0', new Int16Array(4000))!;
    for (const f of frames(10)) first.write(f);
    svc.cancel(first, 'too short');
    const second = svc.open('@40000', new Int16Array(8000))!;
    for (const f of frames(40)) {
      second.write(f);
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(of<{ segmentId: unknown }>('hearing.update').at(-1)).toMatchObject({ segmentId: '@40000' });
    await svc.transcribe({ index: 1, pcm: new Int16Array(8000 + 40 * 512), maxProb: 0.9 }, second);
    expect(of<Utterance>('utterance.final')).toMatchObject([{ text: 'Lights on.', segmentId: 1 }]);
    expect(of('utterance.dropped')).toEqual([]);
  });
});

describe('local-first: the cloud as the fallback', () => {
  it('Whisper hears [BLANK_AUDIO] on clear speech: the same segment is sent to Deepgram', async () => {
    dg.script = [{ text: 'Lights off.' }];
    const { svc, of } = setup('local-first', ScriptedEngine.hearing('[BLANK_AUDIO]'));
    const r = await svc.transcribe({ index: 2, pcm: new Int16Array(24_000), maxProb: 0.93 });
    expect(r.attempts.map((a) => a.engine)).toEqual(['whisper', 'deepgram']);
    expect(of<Utterance>('utterance.final')).toMatchObject([
      {
        text: 'Lights off.',
        engine: 'deepgram',
        fallbackReason: expect.stringMatching(/whisper non-speech on clear speech \(non-speech: \[BLANK_AUDIO\]; VAD peak 0\.93\)/),
      },
    ]);
    expect(dg.last!.audioBytes).toBe(48_000);
  });

  it('three cloud failures in a row open the circuit: the fourth segment makes no connection', async () => {
    dg.misbehave.closeOnAudio = { code: 1011, reason: 'boom' };
    const { svc, of } = setup('local-first', ScriptedEngine.hearing(''));
    for (let i = 0; i < 4; i++) await svc.transcribe({ index: i, pcm: new Int16Array(16_000), maxProb: 0.95 });
    expect(dg.handshakes).toBe(3);
    const drops = of<{ reason: string }>('utterance.dropped');
    expect(drops).toHaveLength(4);
    expect(drops[3]!.reason).toMatch(/deepgram unavailable: circuit open/);
  });
});
