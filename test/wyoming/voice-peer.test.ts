import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resample } from '../../src/audio/resample.js';
import { Bus, type HarkEventName } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { AplayPlayer } from '../../src/speech/aplay.js';
import { DeviceOutput } from '../../src/speech/device-output.js';
import { EarconBank } from '../../src/speech/earcons.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import { SpeechQueue } from '../../src/speech/queue.js';
import { WyomingOutput } from '../../src/speech/wyoming-output.js';
import { WyomingTts, WyomingVoice } from '../../src/speech/wyoming-voice.js';
import { parseServerUrl } from '../../src/wyoming/server-url.js';
import { outputDir } from '../support/paths.js';
import type { PeerConnection } from '../support/wyoming-peer.js';
import { PiperPeer, type PiperFault, type PiperOptions } from '../support/wyoming-piper.js';

/**
 * The Wyoming voice against a server that behaves as wyoming-piper does (test/support/wyoming-piper.ts):
 * it keeps the connection open after audio-stop, paces its chunks as it likes, and relays may split a
 * sample across two audio-chunks. The voice's side of the Wyoming findings.
 */
let peer: PiperPeer | null = null;
const players: AplayPlayer[] = [];
afterEach(async () => {
  for (const p of players.splice(0)) p.close();
  await peer?.close();
  peer = null;
});

const TEXT = 'Timer set for twelve minutes.';
const espeak = new EspeakTts({ voice: 'en-us', speed: 160, volume: 100 });

function voiceFor(p: PiperPeer, o: { firstChunkTimeoutMs?: number; chunkGapTimeoutMs?: number } = {}): WyomingVoice {
  const u = parseServerUrl(p.url);
  if ('error' in u) throw new Error(u.error);
  return new WyomingVoice({
    server: u.server,
    voice: 'en_US-lessac-medium',
    connectTimeoutMs: 500,
    firstChunkTimeoutMs: o.firstChunkTimeoutMs ?? 800,
    chunkGapTimeoutMs: o.chunkGapTimeoutMs ?? 800,
  });
}

/** The voice's audio as hark plays it: resampled to 16 kHz, rounded and clipped. */
function at16k(pcm: Int16Array, rate: number): Int16Array {
  return Int16Array.from(resample(Float32Array.from(pcm), rate, 16_000), (v) => Math.max(-32768, Math.min(32767, Math.round(v))));
}

/** Wait (bounded) until the connection has closed; then who closed it. */
async function closed(c: PeerConnection, withinMs = 2000): Promise<PeerConnection['closedBy']> {
  const until = performance.now() + withinMs;
  while (c.closedAt === null && performance.now() < until) await new Promise((r) => setTimeout(r, 10));
  return c.closedAt === null ? null : c.closedBy;
}

/** A real aplay on ALSA's null device behind a wrapper that keeps every byte it was given. */
function recordingAplay(name: string): { bin: string; got: () => Int16Array } {
  const dir = outputDir('wyoming-voice-peer');
  const raw = join(dir, `${name}.raw`);
  rmSync(raw, { force: true });
  const bin = join(dir, `${name}-aplay.sh`);
  writeFileSync(bin, `#!/bin/sh\ntee "${raw}" | exec aplay "$@"\n`);
  chmodSync(bin, 0o755);
  return {
    bin,
    got: () => {
      const b = existsSync(raw) ? readFileSync(raw) : Buffer.alloc(0);
      return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + (b.length & ~1)));
    },
  };
}

/** The speaker as `hark run` builds it with the echo canceller: one long-lived aplay fed from its thread. */
async function speaker(name: string, o: PiperOptions, faults: PiperFault[] = []) {
  peer = await PiperPeer.start(o);
  peer.faults = faults;
  const rec = recordingAplay(name);
  const clock = new SystemClock();
  const player = new AplayPlayer({ device: 'null', bin: rec.bin, clock, steady: true });
  players.push(player);
  const fallback = new DeviceOutput({ player, tts: espeak, earcons: new EarconBank({ volume: 0.5 }) });
  const logger = memoryLogger();
  const output = new WyomingOutput({ voice: voiceFor(peer), player, fallback, logger });
  const bus = new Bus();
  const seen: HarkEventName[] = [];
  bus.onAny((n) => seen.push(n));
  const queue = new SpeechQueue({ output, clock, bus });
  return { queue, rec, logger, speak: () => seen.filter((n) => n.startsWith('speak.')) };
}

/** Index of `needle` inside `hay`, sample for sample; -1 when absent. */
function find(hay: Int16Array, needle: Int16Array): number {
  const h = Buffer.from(hay.buffer, hay.byteOffset, hay.byteLength);
  const n = Buffer.from(needle.buffer, needle.byteOffset, needle.byteLength);
  for (let i = h.indexOf(n); i >= 0; i = h.indexOf(n, i + 1)) if (i % 2 === 0) return i / 2;
  return -1;
}

describe('finding 7: a streamed answer is played back to back, at any pace the server sends it', () => {
  it.each([
    ['in one burst per sentence (handler.py)', 'burst'],
    ['a little faster than real time, with gaps', { speed: 1.25, gapEvery: 6, gapMs: 40 }],
  ] as [string, PiperOptions['pace']][])('%s', async (name, pace) => {
    const { queue, rec, speak } = await speaker(`pace-${name.replace(/\W+/g, '-')}`, { pace, synthMs: 150 });
    expect(await queue.say(TEXT).done).toBe('ended');
    expect(speak()).toEqual(['speak.start', 'speak.end']);
    const want = at16k(peer!.audioFor(TEXT), 22050);
    // The whole answer, sample for sample, with nothing between its samples.
    expect(find(rec.got(), want)).toBeGreaterThanOrEqual(0);
  });
});

describe('finding 8: hark closes the connection on every path (Piper keeps it open)', () => {
  it.each([
    ['an answer said in full', {}, []],
    ['32-bit samples, refused', { width: 4 }, []],
    ['silent past the first-chunk timeout', {}, [{ kind: 'silent' }]],
    ['stuck mid-answer past the gap timeout', {}, [{ kind: 'stall', afterChunks: 4 }]],
  ] as [string, PiperOptions, PiperFault[]][])('%s: closed by hark, no connection left open', async (_name, o, faults) => {
    peer = await PiperPeer.start(o);
    peer.faults = faults;
    const tts = new WyomingTts(voiceFor(peer), espeak);
    const pcm = await tts.render(TEXT);
    expect(pcm.length).toBeGreaterThan(0);
    const [conn] = peer.connections;
    expect(await closed(conn!)).toBe('client');
    expect(peer.open()).toEqual([]);
  });

  it('a voice that refuses every answer leaks no socket per answer', async () => {
    peer = await PiperPeer.start({ width: 4 });
    const tts = new WyomingTts(voiceFor(peer), espeak);
    for (let i = 0; i < 5; i++) await tts.render(`answer ${i}`);
    for (const c of peer.connections) await closed(c);
    expect(peer.connections).toHaveLength(5);
    expect(peer.open()).toEqual([]);
  });

  it('barge-in mid-answer hangs up on the server', async () => {
    peer = await PiperPeer.start({ pace: { speed: 1, gapEvery: 1000, gapMs: 0 } });
    const voice = voiceFor(peer);
    const s = voice.synthesize(TEXT, () => {});
    await new Promise((r) => setTimeout(r, 300));
    s.stop();
    await s.done.catch(() => {});
    expect(await closed(peer.connections[0]!)).toBe('client');
    expect(peer.requests[0]!.completed).toBe(false);
  });
});

describe('finding 9: a sample split across two audio-chunks (a relaying proxy) is carried over', () => {
  it.each([2047, 3, 4095])('chunks of %d bytes: the whole answer, sample for sample', async (bytes) => {
    peer = await PiperPeer.start({ relayChunkBytes: bytes });
    const pcm = await voiceFor(peer).render('Timer set.');
    expect([...pcm]).toEqual([...at16k(peer.audioFor('Timer set.'), 22050)]);
    expect(await closed(peer.connections[0]!)).toBe('client');
  });
});

describe('finding 10: a silent voice server is logged as what happened', () => {
  it.each([
    ['silent after synthesize', [{ kind: 'silent' }], /no audio within 800 ms of synthesize/],
    ['stuck mid-answer', [{ kind: 'stall', afterChunks: 3 }], /audio stopped coming for 800 ms/],
  ] as [string, PiperFault[], RegExp][])('%s', async (name, faults, why) => {
    const { queue, logger } = await speaker(`silent-${name.replace(/\W+/g, '-')}`, {}, faults);
    expect(await queue.say(TEXT).done).toBe('ended');
    const warned = logger.lines.map((l) => JSON.parse(l) as { msg: string; error?: string }).find((l) => /Wyoming voice could not say it/.test(l.msg));
    expect(warned?.error).toMatch(why);
    expect(warned?.error).not.toMatch(/closed by hark/);
  });
});

describe('finding 11: a voice that fails after it started is one answer: one speak.start', () => {
  it('stuck mid-answer: espeak-ng says it, and the queue hears of one start and one end', async () => {
    const { queue, speak } = await speaker('fails-after-start', {}, [{ kind: 'stall', afterChunks: 6 }]);
    expect(await queue.say(TEXT).done).toBe('ended');
    expect(speak()).toEqual(['speak.start', 'speak.end']);
  });
});
