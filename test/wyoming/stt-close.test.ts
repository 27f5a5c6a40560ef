import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/load.js';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { SegmentPath } from '../../src/path/segment-path.js';
import { Conversation } from '../../src/path/conversation.js';
import type { EngineSlot } from '../../src/stt/engine.js';
import type { SegmentTranscript } from '../../src/stt/events.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import type { Segment } from '../../src/vad/segment.js';
import { WyomingSttEngine } from '../../src/stt/wyoming/engine.js';
import { parseServerUrl } from '../../src/wyoming/server-url.js';
import { WhisperPeer } from '../support/wyoming-whisper.js';
import { ScriptedEngine } from '../kit/stt.js';

/**
 * On the daemon's own segment path (src/path/segment-path.ts): segments stream
 * to a server that behaves as wyoming-faster-whisper does (test/support/wyoming-whisper.ts: each
 * connection its own, a transcript then the close) while hark handles one segment at a time. The
 * deadlines are on a virtual clock; the sockets are real.
 */

let peer: WhisperPeer | null = null;
let cleanup: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0)) c();
  peer?.release();
  await peer?.close();
  peer = null;
});

async function until(cond: () => boolean, ms = 3000): Promise<boolean> {
  const end = performance.now() + ms;
  while (!cond() && performance.now() < end) await new Promise((r) => setTimeout(r, 5));
  return cond();
}

async function rig(breakerFailures: number) {
  peer = await WhisperPeer.start();
  const clock = new VirtualClock(100_000);
  const bus = new Bus();
  const log = memoryLogger();
  const dataDir = mkdtempSync(join(tmpdir(), 'hark-wyoming-close-'));
  cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = validateConfig({ router: { mode: 'always-listen' }, speech: { device: 'null' }, actions: { dataDir } }, 'test');
  const url = parseServerUrl(peer.url);
  if ('error' in url) throw new Error(url.error);
  const engine = new WyomingSttEngine({
    server: url.server,
    language: 'en',
    model: '',
    connectTimeoutMs: 1000,
    deadlineBaseMs: 2000,
    deadlinePerSecondMs: 0,
    chunkSamples: 1024,
    logger: log,
    clock,
  });
  const engines: EngineSlot[] = [
    { id: 'wyoming', engine },
    { id: 'whisper', engine: ScriptedEngine.hearing('from whisper') },
  ];
  const transcriber = new Transcriber({
    engines,
    clearSpeechProb: 0.8,
    breaker: { failures: breakerFailures, openMs: 30_000 },
    filter: config.stt.filter,
    stabilizer: config.stt.stabilizer,
    clock,
    logger: log,
    bus,
  });
  const path = new SegmentPath({
    config,
    bus,
    clock,
    log,
    stt: { transcriber, engines, describe: 'test', setVocabulary: () => {}, close: async () => {} },
    speech: null,
    conversation: new Conversation({ config, bus, clock, log, store: null, speech: null }),
    store: () => null,
    source: 'mic',
  });
  cleanup.push(() => path.dispose());
  const results: SegmentTranscript[] = [];
  bus.on('stt.segment', (r) => results.push(r));
  let index = 0;
  /** A segment spoken (pre-roll, then a second of frames) and closed, as the VAD does. */
  const say = async (startSample: number) => {
    path.opened({ startSample, pcm: new Int16Array(8000).fill(3) });
    for (let i = 0; i < 31; i++) path.audio(new Int16Array(512).fill(5));
    const seg: Segment = {
      index: index++,
      pcm: new Int16Array(8000 + 31 * 512).fill(4),
      prerollSamples: 8000,
      startSample,
      vadStartSample: startSample + 8000,
      endSample: startSample + 8000 + 31 * 512,
      closeReason: 'hangover',
      maxProb: 0.95,
      openedBy: 'vad',
    };
    return path.closed(seg);
  };
  return { peer, clock, say, results };
}

describe('finding 11: the speech-to-text deadline and audio-stop count from the segment’s close', () => {
  it('a second segment’s audio-stop goes out at its close, while the server is still on the first', async () => {
    const r = await rig(3);
    r.peer.hold();
    void r.say(0);
    void r.say(100_000);
    // Both segments' audio-stops reach the server though the first transcript is not back.
    expect(await until(() => r.peer.requests.filter((q) => q.audioStopAt !== null).length === 2)).toBe(true);
    expect(r.peer.requests[0]!.transcriptAt).toBeNull();
    r.peer.release();
    expect(await until(() => r.results.length === 2)).toBe(true);
    expect(r.results.map((x) => x.attempts.map((a) => [a.engine, a.outcome]))).toEqual([[['wyoming', 'ok']], [['wyoming', 'ok']]]);
  });

  it('a segment waiting behind a slow one fails its deadline counted from its own close, not from its turn', async () => {
    const r = await rig(3);
    r.peer.hold();
    void r.say(0);
    void r.say(100_000);
    expect(await until(() => r.peer.requests.length === 2 && r.peer.requests.every((q) => q.audioStopAt !== null))).toBe(true);
    // The first is answered 1.5 s after the closes; the second never is.
    r.clock.advanceBy(1500);
    r.peer.release((q) => q === r.peer.requests[0]);
    expect(await until(() => r.results.length === 1)).toBe(true);
    // 2.1 s after its close: past its 2 s deadline, though only 0.6 s after its turn came.
    r.clock.advanceBy(600);
    expect(await until(() => r.results.length === 2)).toBe(true);
    expect(r.results[1]!.attempts.map((a) => [a.engine, a.outcome])).toEqual([
      ['wyoming', 'failed'],
      ['whisper', 'ok'],
    ]);
    expect(r.results[1]!.attempts[0]!.error).toMatch(/no transcript within 2000 ms of audio-stop/);
  });
});

describe('finding 11: once the circuit opens, segments whose connection is open stop waiting', () => {
  it('the second segment goes to Whisper at once, and its connection is closed', async () => {
    const r = await rig(1);
    r.peer.hold();
    void r.say(0);
    expect(await until(() => r.peer.requests[0]?.audioStopAt != null)).toBe(true);
    r.clock.advanceBy(1000);
    void r.say(100_000);
    expect(await until(() => r.peer.requests[1]?.audioStopAt != null)).toBe(true);
    // The first segment's deadline passes: the circuit opens (one failure opens it here).
    r.clock.advanceBy(1000);
    // The second's own deadline is a second away, and the clock does not move: it must not wait for it.
    expect(await until(() => r.results.length === 2)).toBe(true);
    expect(r.results[1]!.attempts.map((a) => [a.engine, a.outcome])).toEqual([
      ['wyoming', 'skipped'],
      ['whisper', 'ok'],
    ]);
    expect(r.results[1]!.attempts[0]!.error).toMatch(/circuit open/);
    expect(await until(() => r.peer.connections[1]?.closedAt != null)).toBe(true);
    expect(r.peer.connections[1]!.closedBy).toBe('client');
  });
});
