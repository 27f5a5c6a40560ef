import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Bus, type HarkEventName } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import type { Utterance } from '../../src/core/utterance.js';
import { DeepgramEngine } from '../../src/stt/deepgram/engine.js';
import type { SttMode } from '../../src/stt/fallback-policy.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import { SttService, type LocalEngine } from '../../src/stt/service.js';
import type { Transcript } from '../../src/stt/types.js';
import { DeepgramDouble } from '../support/deepgram-server.js';

/** The service with the real Deepgram adapter on a real socket to the protocol double. */
let dg: DeepgramDouble;
let cloud: DeepgramEngine;

class ScriptedWhisper implements LocalEngine {
  calls = 0;
  constructor(private readonly raw: string) {}
  async transcribe(): Promise<Transcript> {
    this.calls++;
    return { engine: 'whisper', rawText: this.raw, text: this.raw.replace(/\[[^\]]*\]/g, '').trim(), ms: 5 };
  }
}

function setup(mode: SttMode, whisper: LocalEngine) {
  const bus = new Bus();
  const seen: { name: HarkEventName; payload: unknown; at: number }[] = [];
  bus.onAny((name, payload) => seen.push({ name, payload, at: Date.now() }));
  cloud = new DeepgramEngine({
    apiKey: 'test-key', url: dg.url, model: 'nova-3', language: 'en', interimResults: true, utteranceEndMs: 1000, vadEvents: true, endpointingMs: 300, smartFormat: true,
    connectTimeoutMs: 1500, finalizeTimeoutMs: 1500, keepAliveMs: 4000, idleCloseMs: 30_000, reconnectInitialMs: 50, reconnectMaxMs: 100, logger: memoryLogger(),
  });
  const svc = new SttService({
    mode, whisper, deepgram: cloud, clearSpeechProb: 0.8, breaker: { failures: 3, openMs: 30_000 }, filter: { phrases: DEFAULT_HALLUCINATIONS },
    utterance: { silenceGapMs: 750, punctuationPauseMs: 300, maxDurationMs: 12_000, maxChars: 500, stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true } },
    clock: new SystemClock(), logger: memoryLogger(), bus,
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
  it('partials reach the utterance builder while the person speaks; the close only flushes', async () => {
    dg.script = [{ text: 'Set a timer for five minutes.' }];
    const { svc, of } = setup('cloud-first', new ScriptedWhisper('never used'));
    const preroll = new Int16Array(8000).fill(100);
    svc.segmentOpened({ startSample: 48_000, pcm: preroll });
    const live = frames(60);
    for (const f of live) {
      svc.segmentAudio(f);
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 100));
    // Before the segment has even closed:
    expect(of('asr.partial').length).toBeGreaterThan(0);
    expect(of('utterance.open')).toHaveLength(1);
    expect(of<{ stableText: string }>('utterance.update').length).toBeGreaterThan(0);
    const all = new Int16Array(preroll.length + live.length * 512);
    const r = await svc.handleSegment({ index: 4, pcm: all, maxProb: 0.97, startSample: 48_000 });
    expect(r.engine).toBe('deepgram');
    const finals = of<Utterance>('utterance.final');
    expect(finals).toMatchObject([{ text: 'Set a timer for five minutes.', engine: 'deepgram', segmentId: 4 }]);
    expect(finals[0]!.fallbackReason).toBeUndefined();
    // Pre-roll and live audio went out once, as they came; nothing was re-sent at the close.
    expect(dg.last!.audioBytes).toBe(all.length * 2);
  });

  it('when the socket dies mid-segment the same segment goes to Whisper, and the utterance says why', async () => {
    dg.misbehave.closeOnAudio = { code: 1011, reason: 'NET-0000 internal' };
    const whisper = new ScriptedWhisper('turn off the fan');
    const { svc, of } = setup('cloud-first', whisper);
    const r = await svc.handleSegment({ index: 0, pcm: new Int16Array(16_000), maxProb: 0.9 });
    expect(r.engine).toBe('whisper');
    expect(of<Utterance>('utterance.final')).toMatchObject([{ text: 'turn off the fan', engine: 'whisper', fallbackReason: expect.stringMatching(/^deepgram closed: .*1011/) }]);
    expect(of('stt.fallback')).toHaveLength(1);
  });

  it('a rejected key: one handshake, the circuit opens, later segments go straight to Whisper', async () => {
    dg.misbehave.rejectAuth = true;
    const whisper = new ScriptedWhisper('lights on');
    const { svc, of } = setup('cloud-first', whisper);
    for (let i = 0; i < 3; i++) await svc.handleSegment({ index: i, pcm: new Int16Array(16_000), maxProb: 0.9 });
    expect(dg.handshakes).toBe(1);
    expect(svc.breaker.state).toBe('open');
    expect(of<{ state: string }>('stt.circuit')).toMatchObject([{ state: 'open' }]);
    expect(of<Utterance>('utterance.final').map((u) => u.engine)).toEqual(['whisper', 'whisper', 'whisper']);
    expect(of<Utterance>('utterance.final')[2]!.fallbackReason).toMatch(/circuit open after deepgram auth/);
  });
});

describe('cloud-first: segments that never get transcribed', () => {
  it('a dropped segment\'s stream is flushed and forgotten; the next segment streams live as usual', async () => {
    dg.script = [{ text: 'cough' }, { text: 'Lights on.' }];
    const { svc, of } = setup('cloud-first', new ScriptedWhisper('never'));
    svc.segmentOpened({ startSample: 0, pcm: new Int16Array(4000) });
    for (const f of frames(10)) svc.segmentAudio(f);
    svc.segmentDropped({ startSample: 0 });
    svc.segmentOpened({ startSample: 40_000, pcm: new Int16Array(8000) });
    for (const f of frames(40)) {
      svc.segmentAudio(f);
      await new Promise((r) => setTimeout(r, 2));
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(of<{ segmentId: unknown }>('utterance.open').at(-1)).toMatchObject({ segmentId: '@40000' });
    await svc.handleSegment({ index: 1, pcm: new Int16Array(8000 + 40 * 512), maxProb: 0.9, startSample: 40_000 });
    expect(of<Utterance>('utterance.final')).toMatchObject([{ text: 'Lights on.', segmentId: 1 }]);
  });

  it('a stream whose segment never closed is discarded when a later segment closes', async () => {
    dg.script = [{ text: 'ghost' }, { text: 'Stop.' }];
    const { svc, of } = setup('cloud-first', new ScriptedWhisper('never'));
    svc.segmentOpened({ startSample: 0, pcm: new Int16Array(8000) });
    for (const f of frames(20)) svc.segmentAudio(f);
    await new Promise((r) => setTimeout(r, 50));
    svc.segmentOpened({ startSample: 50_000, pcm: new Int16Array(8000) });
    for (const f of frames(20)) svc.segmentAudio(f);
    const r = await svc.handleSegment({ index: 3, pcm: new Int16Array(8000 + 20 * 512), maxProb: 0.9, startSample: 50_000 });
    expect(r.engine).toBe('deepgram');
    expect(of<Utterance>('utterance.final').map((u) => u.segmentId)).toEqual([3]);
    expect(of<Utterance>('utterance.dropped').every((u) => /abandoned: its segment never closed/.test(u.dropReason ?? ''))).toBe(true);
  });
});

describe('local-first: the cloud as the fallback', () => {
  it('Whisper hears [BLANK_AUDIO] on clear speech: the same segment is sent to Deepgram', async () => {
    dg.script = [{ text: 'Lights off.' }];
    const { svc, of } = setup('local-first', new ScriptedWhisper('[BLANK_AUDIO]'));
    const r = await svc.handleSegment({ index: 2, pcm: new Int16Array(24_000), maxProb: 0.93 });
    expect(r.attempts.map((a) => a.engine)).toEqual(['whisper', 'deepgram']);
    expect(of<Utterance>('utterance.final')).toMatchObject([{ text: 'Lights off.', engine: 'deepgram', fallbackReason: expect.stringMatching(/whisper non-speech on clear speech \(non-speech: \[BLANK_AUDIO\]; VAD peak 0\.93\)/) }]);
    expect(dg.last!.audioBytes).toBe(48_000);
  });

  it('three cloud failures in a row open the circuit: the fourth segment makes no connection', async () => {
    dg.misbehave.closeOnAudio = { code: 1011, reason: 'boom' };
    const { svc, of } = setup('local-first', new ScriptedWhisper(''));
    for (let i = 0; i < 4; i++) await svc.handleSegment({ index: i, pcm: new Int16Array(16_000), maxProb: 0.95 });
    expect(dg.handshakes).toBe(3);
    const drops = of<Utterance>('utterance.dropped');
    expect(drops).toHaveLength(4);
    expect(drops[3]!.dropReason).toMatch(/deepgram unavailable: circuit open/);
  });
});
