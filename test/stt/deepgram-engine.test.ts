import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/core/log.js';
import { DeepgramEngine, type DeepgramEngineOptions } from '../../src/stt/deepgram/engine.js';
import { EngineFailure, type AsrEvent } from '../../src/stt/types.js';
import { DeepgramDouble } from '../support/deepgram-server.js';

/**
 * hark's production Deepgram adapter (SDK v5 socket, keepalive, finalize, backoff) against a local
 * server speaking Deepgram's live protocol over a real WebSocket. Timings are shortened; every
 * fault test is bounded.
 */
let dg: DeepgramDouble;
let engine: DeepgramEngine | null = null;
const log = memoryLogger();

function make(over: Partial<DeepgramEngineOptions> = {}): DeepgramEngine {
  engine = new DeepgramEngine({
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
    reconnectInitialMs: 200,
    reconnectMaxMs: 2000,
    logger: log,
    ...over,
  });
  return engine;
}

/** ~1 s of audio: the double does not listen, it only counts. */
const second = () => new Int16Array(16_000).fill(300);
const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

beforeEach(async () => {
  dg = await DeepgramDouble.start();
});
afterEach(async () => {
  await engine?.close();
  engine = null;
  await dg.close();
});

describe('Deepgram live adapter against the protocol double', () => {
  it('connects with the key as `Token`, the configured query, and streams a segment to its final', async () => {
    dg.script = [{ text: 'Turn on the lights.' }];
    const events: AsrEvent[] = [];
    const t = await make().transcribe({ id: 1, pcm: second() }, (e) => events.push(e));
    expect(t).toMatchObject({ engine: 'deepgram', rawText: 'Turn on the lights.', text: 'Turn on the lights.' });
    expect(t.words?.map((w) => w.punctuated)).toEqual(['Turn', 'on', 'the', 'lights.']);
    const c = dg.last!;
    expect(c.authorization).toBe('Token test-key');
    expect(c.query).toMatchObject({
      model: 'nova-3',
      language: 'en',
      encoding: 'linear16',
      sample_rate: '16000',
      channels: '1',
      interim_results: 'true',
      utterance_end_ms: '1000',
      vad_events: 'true',
      endpointing: '300',
      smart_format: 'true',
    });
    expect(c.audioBytes).toBe(32_000);
    expect(c.finalizes).toBe(1);
    expect(events.map((e) => e.kind)).toContain('partial');
    expect(events.map((e) => e.kind)).toEqual(expect.arrayContaining(['speech-started', 'final']));
  });

  it('keeps one socket for consecutive segments, and times are relative to each segment', async () => {
    dg.script = [{ text: 'one' }, { text: 'two' }];
    const e = make();
    const ev: AsrEvent[] = [];
    expect((await e.transcribe({ id: 1, pcm: second() })).text).toBe('one');
    expect((await e.transcribe({ id: 2, pcm: second() }, (x) => ev.push(x))).text).toBe('two');
    expect(dg.connections).toHaveLength(1);
    const fin = ev.find((x) => x.kind === 'final');
    expect(fin && fin.kind === 'final' && fin.start).toBe(0);
  });

  it('streams audio written while a segment is open, before the socket is even up', async () => {
    dg.script = [{ text: 'stop' }];
    const e = make();
    const s = e.openStream(9);
    for (let i = 0; i < 10; i++) s.write(new Int16Array(512).fill(100));
    expect((await s.finish()).text).toBe('stop');
    expect(dg.last!.audioBytes).toBe(10 * 512 * 2);
  });

  it('sends KeepAlive on an idle open socket and closes it (CloseStream) after the idle time', async () => {
    dg.script = [{ text: 'hi' }];
    const e = make({ keepAliveMs: 150, idleCloseMs: 700 });
    await e.transcribe({ id: 1, pcm: second() });
    expect(e.connected).toBe(true);
    await until(() => (dg.last?.keepAlives ?? 0) >= 3, 2000);
    await until(() => dg.last?.closed !== null, 2000);
    expect(dg.last!.closeStreams).toBe(1);
    expect(dg.last!.closed).toMatchObject({ by: 'server', code: 1000 });
    expect(e.connected).toBe(false);
  });

  it('without KeepAlive Deepgram closes the socket with 1011 NET-0001; the next segment reconnects', async () => {
    await dg.close();
    dg = await DeepgramDouble.start({ idleTimeoutMs: 300 });
    dg.script = [{ text: 'a' }, { text: 'b' }];
    const e = make({ keepAliveMs: 5000 });
    await e.transcribe({ id: 1, pcm: second() });
    await until(() => dg.last?.closed !== null, 2000);
    expect(dg.last!.closed).toMatchObject({ by: 'server', code: 1011, reason: 'NET-0001' });
    await until(() => !e.connected);
    expect((await e.transcribe({ id: 2, pcm: second() })).text).toBe('b');
    expect(dg.connections).toHaveLength(2);
  });

  it('a rejected key is an `auth` failure, tried once: no retry storm', async () => {
    dg.misbehave.rejectAuth = true;
    const e = make();
    const err = await e.transcribe({ id: 1, pcm: second() }).catch((x: unknown) => x);
    expect(err).toBeInstanceOf(EngineFailure);
    expect((err as EngineFailure).kind).toBe('auth');
    expect((err as EngineFailure).message).toMatch(/401.*DEEPGRAM_API_KEY/);
    await new Promise((r) => setTimeout(r, 500));
    expect(dg.connections).toHaveLength(0);
    expect(log.lines.some((l) => l.includes('API key rejected'))).toBe(true);
  });

  it('a socket that does not open within connectTimeoutMs fails with `connect`, then backs off', async () => {
    dg.misbehave.delayUpgradeMs = 3000;
    const e = make({ connectTimeoutMs: 300, reconnectInitialMs: 1000 });
    const started = Date.now();
    const err = await e.transcribe({ id: 1, pcm: second() }).catch((x: unknown) => x);
    expect((err as EngineFailure).kind).toBe('connect');
    expect(Date.now() - started).toBeLessThan(1200);
    const again = await e.transcribe({ id: 2, pcm: second() }).catch((x: unknown) => x);
    expect((again as EngineFailure).kind).toBe('unavailable');
    expect((again as EngineFailure).message).toMatch(/reconnect backoff/);
  });

  it('the server closing the socket mid-segment fails that segment with `closed`', async () => {
    dg.misbehave.closeOnAudio = { code: 1011, reason: 'internal error' };
    const err = await make()
      .transcribe({ id: 1, pcm: second() })
      .catch((x: unknown) => x);
    expect((err as EngineFailure).kind).toBe('closed');
    expect((err as EngineFailure).message).toMatch(/1011/);
  });

  it('no answer to Finalize within finalizeTimeoutMs is `no-final`', async () => {
    dg.misbehave.stall = true;
    const started = Date.now();
    const err = await make({ finalizeTimeoutMs: 400 })
      .transcribe({ id: 1, pcm: second() })
      .catch((x: unknown) => x);
    expect((err as EngineFailure).kind).toBe('no-final');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('malformed and unknown messages are logged and skipped; the stream carries on', async () => {
    dg.misbehave.junkBeforeEachMessage = ['{"type": "Results", "chan', '{"type":"Mystery"}', '[1,2]'];
    dg.script = [{ text: 'still here' }];
    const e = make();
    const t = await e.transcribe({ id: 1, pcm: second() });
    expect(t.text).toBe('still here');
    expect(e.stats.skipped).toBeGreaterThanOrEqual(3);
    expect(log.lines.some((l) => l.includes('deepgram message skipped') && l.includes('not JSON'))).toBe(true);
  });
});
