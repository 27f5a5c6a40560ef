import { DeepgramClient } from '@deepgram/sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DeepgramDouble, MAX_REPLY_LAG_MS } from './deepgram-server.js';

/**
 * The Deepgram double itself, against a plain `ws` client (and once the real SDK v5 client): its live
 * cadence (interims, chunk finals, from_finalize, word timing on the audio timeline, reply lag,
 * UtteranceEnd measured on audio) and its mid-segment socket failure. Every wait is bounded.
 */

type Msg = Record<string, any>;
interface Got {
  at: number;
  msg: Msg;
}

const TEXT = 'computer set a timer for twelve minutes';
const BYTES_PER_100MS = 3200;
const QUERY = {
  model: 'nova-3',
  encoding: 'linear16',
  sample_rate: '16000',
  channels: '1',
  interim_results: 'true',
  vad_events: 'true',
  utterance_end_ms: '1000',
  smart_format: 'true',
  endpointing: '300',
};

let dg: DeepgramDouble;
const clients: WebSocket[] = [];

beforeEach(async () => {
  dg = await DeepgramDouble.start();
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.terminate();
  await dg.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await sleep(5);
  }
}

/** A plain ws client: every message it gets, with its arrival time, and how the socket closed. */
async function connect(query: Record<string, string> = QUERY) {
  const url = `${dg.url}/v1/listen?${new URLSearchParams(query).toString()}`;
  const ws = new WebSocket(url, { headers: { Authorization: 'Token test-key' } });
  clients.push(ws);
  const got: Got[] = [];
  let closed: { code: number; reason: string } | null = null;
  ws.on('message', (d) => got.push({ at: performance.now(), msg: JSON.parse(d.toString()) }));
  ws.on('close', (code, reason) => (closed = { code, reason: reason.toString() }));
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
    setTimeout(() => reject(new Error('no open within 2 s')), 2000).unref();
  });
  return {
    ws,
    got,
    closed: () => closed,
    /** `seconds` of audio in 100 ms frames, one every `paceMs` of wall time. */
    async stream(seconds: number, paceMs: number) {
      const frames = Math.round(seconds * 10);
      for (let i = 0; i < frames && ws.readyState === ws.OPEN; i++) {
        ws.send(Buffer.alloc(BYTES_PER_100MS, 1));
        if (paceMs > 0) await sleep(paceMs);
      }
    },
    finalize: () => ws.send(JSON.stringify({ type: 'Finalize' })),
    results: () => got.map((g) => g.msg).filter((m) => m.type === 'Results'),
  };
}

const words = (m: Msg): Msg[] => m.channel.alternatives[0].words;
const transcript = (m: Msg): string => m.channel.alternatives[0].transcript;

/** Every Results message's words lie within its own span [start, start + duration]. */
function expectWordsInSpan(m: Msg): void {
  for (const w of words(m)) {
    expect(w.start).toBeGreaterThanOrEqual(m.start - 1e-6);
    expect(w.end).toBeLessThanOrEqual(m.start + m.duration + 1e-6);
    expect(w.end).toBeGreaterThanOrEqual(w.start);
  }
}

describe('Deepgram double: live cadence', () => {
  it('one utterance over ~2.5 s of real-time audio: interims, a chunk final with the first words, then from_finalize with the rest', async () => {
    dg.cadence = 'live';
    dg.script = [{ text: TEXT, confidence: 0.9 }];
    const c = await connect();
    const t0 = performance.now();
    await c.stream(2.5, 100);
    c.finalize();
    await until(() => c.results().some((m) => m.from_finalize), 2000);
    expect(performance.now() - t0).toBeLessThan(5000);

    const res = c.results();
    const finals = res.filter((m) => m.is_final);
    const firstFinal = res.findIndex((m) => m.is_final);
    // Interims before the first final, growing word by word from the start of the segment.
    const before = res.slice(0, firstFinal);
    expect(before.length).toBeGreaterThanOrEqual(3);
    for (const m of before) {
      expect(m).toMatchObject({ is_final: false, speech_final: false, from_finalize: false, start: 0 });
      expectWordsInSpan(m);
    }
    const counts = before.map((m) => words(m).length);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(transcript(before[0]!)).toBe('computer');

    // The chunk final: Deepgram is sure of the first words (1.5 s of audio by default), the speaker has not paused.
    expect(finals).toHaveLength(2);
    const [chunk, flush] = finals as [Msg, Msg];
    expect(chunk).toMatchObject({ is_final: true, speech_final: false, from_finalize: false, start: 0, duration: 1.4 });
    expect(transcript(chunk)).toBe('computer set a timer');

    // Interims for the rest start where the chunk ended.
    const between = res.slice(firstFinal + 1, res.indexOf(flush));
    expect(between.length).toBeGreaterThanOrEqual(1);
    for (const m of between) {
      expect(m).toMatchObject({ is_final: false, start: 1.4 });
      expect(transcript(m).startsWith('for')).toBe(true);
      expectWordsInSpan(m);
    }

    // After Finalize: the rest, from_finalize, covering 1.4 s .. 2.5 s of audio.
    expect(flush).toMatchObject({ is_final: true, speech_final: true, from_finalize: true, start: 1.4, duration: 1.1 });
    expect(transcript(flush)).toBe('for twelve minutes');

    // Together the finals cover the text exactly once, on the audio timeline, in order.
    const all = finals.flatMap(words);
    expect(all.map((w) => w.punctuated_word).join(' ')).toBe(TEXT);
    expect(all.map((w) => w.word)).toEqual(TEXT.split(' '));
    for (const m of finals) expectWordsInSpan(m);
    all.forEach((w, i) => {
      expect(w.start).toBeGreaterThanOrEqual(0);
      expect(w.end).toBeLessThanOrEqual(2.5);
      expect(w.confidence).toBe(0.9);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(all[i - 1]!.end - 1e-6);
    });
    expect(all[0]).toMatchObject({ start: 0.2, end: 0.5 });
    expect(all[6]).toMatchObject({ start: 2, end: 2.3 });
    // Finals are contiguous spans of audio.
    expect(chunk.start + chunk.duration).toBeCloseTo(flush.start, 6);

    // SpeechStarted when the audio reaches the first word; no UtteranceEnd (no 1 s gap in the audio).
    const types = c.got.map((g) => g.msg.type);
    expect(c.got.find((g) => g.msg.type === 'SpeechStarted')!.msg).toMatchObject({ channel: [0], timestamp: 0.2 });
    expect(types.indexOf('SpeechStarted')).toBeLessThan(types.indexOf('Results'));
    expect(types).not.toContain('UtteranceEnd');
    expect(dg.script).toHaveLength(0);
    expect(dg.finalSentAt).toHaveLength(1);
    expect(dg.last!.sent.map((s) => s.msg.type)).toEqual(types);
  });

  it('chunkFinalAfterWords finalises every N words; without interim_results only finals come', async () => {
    dg.cadence = 'live';
    dg.chunkFinalAfterWords = 3;
    dg.chunkFinalAfterSec = 10;
    dg.script = [{ text: TEXT }];
    const c = await connect({ ...QUERY, interim_results: 'false' });
    await c.stream(2.5, 2);
    c.finalize();
    await until(() => c.results().some((m) => m.from_finalize), 2000);
    const res = c.results();
    expect(res.every((m) => m.is_final)).toBe(true);
    expect(res.map((m) => [transcript(m), m.speech_final, m.from_finalize])).toEqual([
      ['computer set a', false, false],
      ['timer for twelve', false, false],
      ['minutes', true, true],
    ]);
    // Contiguous spans from 0 to the last byte of audio.
    expect(res[0]!.start).toBe(0);
    for (let i = 1; i < res.length; i++) expect(res[i]!.start).toBeCloseTo(res[i - 1]!.start + res[i - 1]!.duration, 6);
    expect(res[2]!.start + res[2]!.duration).toBeCloseTo(2.5, 6);
    for (const m of res) expectWordsInSpan(m);
  });

  it('per-word timing from the script, and words the audio never reached squeezed into the audio that came', async () => {
    dg.cadence = 'live';
    dg.script = [
      {
        text: 'Lights on.',
        timing: [
          [0.1, 0.4],
          [0.5, 0.8],
        ],
      },
      { text: TEXT },
    ];
    const c = await connect({ ...QUERY, utterance_end_ms: 'false' });
    await c.stream(1, 2);
    c.finalize();
    // Second segment: 7 paced words want 2.3 s; only 1 s of audio comes.
    await c.stream(1, 2);
    c.finalize();
    await until(() => c.results().filter((m) => m.from_finalize).length === 2, 2000);
    const finals = c.results().filter((m) => m.is_final);
    const [one, two] = finals.filter((m) => m.from_finalize) as [Msg, Msg];
    expect(words(one).map((w) => [w.punctuated_word, w.start, w.end])).toEqual([
      ['Lights', 0.1, 0.4],
      ['on.', 0.5, 0.8],
    ]);
    expect(transcript(one)).toBe('Lights on.');
    // The second segment's timeline runs on from 1.0 s of socket audio.
    expect(two.start + two.duration).toBeCloseTo(2, 6);
    const segTwo = finals.filter((m) => m.start >= 1 - 1e-6).flatMap(words);
    expect(segTwo.map((w) => w.word)).toEqual(TEXT.split(' '));
    for (const w of segTwo) {
      expect(w.start).toBeGreaterThanOrEqual(1);
      expect(w.end).toBeLessThanOrEqual(2 + 1e-6);
    }
    for (const m of finals) expectWordsInSpan(m);
  });

  it('replies lag in wall time (bounded, in order): a 600 ms gap between messages with no pause in the audio', async () => {
    dg.cadence = 'live';
    dg.script = [{ text: TEXT }];
    // Index 0 is SpeechStarted, 1.. are interims: hold the third message 600 ms, the rest 20 ms + up to 30 ms jitter.
    dg.replyLagMs = (m) => (m.index === 2 ? 600 : 20);
    dg.replyJitterMs = 30;
    const c = await connect();
    await c.stream(1.4, 100);
    c.finalize();
    await until(() => c.results().some((m) => m.from_finalize), 2000);

    const res = c.got.filter((g) => g.msg.type === 'Results');
    // In order: spans and finality never go backwards.
    for (let i = 1; i < res.length; i++)
      expect(res[i]!.msg.start + res[i]!.msg.duration).toBeGreaterThanOrEqual(res[i - 1]!.msg.start + res[i - 1]!.msg.duration);
    // A wall gap of ~600 ms between two arriving Results ...
    const gaps = res.slice(1).map((g, i) => ({ wall: g.at - res[i]!.at, a: res[i]!.msg, b: g.msg }));
    const big = gaps.find((g) => g.wall >= 450);
    expect(big).toBeDefined();
    // ... while the audio had no pause: the words run back to back across it.
    const ws2 = words(big!.b);
    for (let i = 1; i < ws2.length; i++) expect(ws2[i]!.start - ws2[i - 1]!.end).toBeLessThan(0.05);
    expect(big!.b.start + big!.b.duration - (big!.a.start + big!.a.duration)).toBeLessThan(0.6);
    // Every reply was held, none beyond its bound.
    const lags = dg.last!.sent.map((s) => s.at - s.decidedAt);
    expect(Math.min(...lags)).toBeGreaterThanOrEqual(15);
    expect(Math.max(...lags)).toBeLessThan(MAX_REPLY_LAG_MS);
    expect(Math.max(...lags)).toBeGreaterThanOrEqual(590);
  });

  it('UtteranceEnd after a final once the audio (not the wall clock) holds utterance_end_ms with no word', async () => {
    dg.cadence = 'live';
    dg.chunkFinalAfterSec = 1;
    dg.script = [
      {
        text: 'Lights on.',
        timing: [
          [0.1, 0.4],
          [0.5, 0.7],
        ],
      },
    ];
    const c = await connect();
    // Streamed much faster than real time: the gap is in the audio only.
    await c.stream(2, 1);
    c.finalize();
    await until(() => c.results().some((m) => m.from_finalize), 2000);
    const msgs = c.got.map((g) => g.msg);
    const ue = msgs.findIndex((m) => m.type === 'UtteranceEnd');
    const chunk = msgs.findIndex((m) => m.is_final);
    expect(chunk).toBeGreaterThanOrEqual(0);
    expect(ue).toBeGreaterThan(chunk);
    expect(msgs[ue]).toEqual({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: 0.7 });
    expect(dg.last!.sent[ue]!.audioSec).toBeCloseTo(1.7, 6);
    expect(msgs.filter((m) => m.type === 'UtteranceEnd')).toHaveLength(1);
    // Nothing left to flush: an empty from_finalize.
    expect(transcript(msgs.find((m) => m.from_finalize)!)).toBe('');
  });

  it('with honourEndpointing, a pause of `endpointing` ms in the audio gives speech_final mid-utterance', async () => {
    dg.cadence = 'live';
    dg.honourEndpointing = true;
    dg.script = [
      {
        text: 'Computer. Lights on.',
        timing: [
          [0.1, 0.5],
          [1.0, 1.2],
          [1.3, 1.5],
        ],
      },
    ];
    const c = await connect();
    await c.stream(1.6, 1);
    c.finalize();
    await until(() => c.results().some((m) => m.from_finalize), 2000);
    const finals = c.results().filter((m) => m.is_final);
    expect(finals.map((m) => [transcript(m), m.speech_final, m.from_finalize])).toEqual([
      ['Computer.', true, false],
      ['Lights on.', true, true],
    ]);
    expect(finals[0]).toMatchObject({ start: 0, duration: 0.8 });
  });

  it('the default cadence is unchanged: everything final in the one from_finalize reply', async () => {
    dg.script = [{ text: TEXT }];
    const c = await connect();
    await c.stream(2.5, 1);
    c.finalize();
    await until(() => c.results().some((m) => m.from_finalize), 2000);
    const finals = c.results().filter((m) => m.is_final);
    expect(finals).toHaveLength(1);
    expect(transcript(finals[0]!)).toBe(TEXT);
    expect(c.got.map((g) => g.msg.type)).toContain('UtteranceEnd');
  });
});

describe('Deepgram double: dropAfterFirstFinal', () => {
  it('closes the socket abnormally right after the first chunk final: no from_finalize; armed once', async () => {
    dg.cadence = 'live';
    dg.chunkFinalAfterSec = 1;
    dg.misbehave.dropAfterFirstFinal = { code: 1011, reason: 'boom' };
    dg.script = [{ text: TEXT }, { text: 'stop' }];
    const c = await connect();
    await c.stream(2.5, 5);
    c.finalize();
    await until(() => c.closed() !== null, 2000);
    expect(c.closed()).toEqual({ code: 1011, reason: 'boom' });
    const res = c.results();
    const last = res[res.length - 1]!;
    expect(last).toMatchObject({ is_final: true, speech_final: false, from_finalize: false });
    expect(transcript(last)).toBe('computer set');
    expect(res.filter((m) => m.is_final)).toHaveLength(1);
    expect(c.got[c.got.length - 1]!.msg).toBe(last);
    expect(dg.last!.closed).toEqual({ by: 'server', code: 1011, reason: 'boom' });
    expect(dg.midSegmentDrops).toBe(1);
    // The failed segment used its utterance; a new socket hears the next, and the drop does not fire again.
    expect(dg.script.map((u) => u.text)).toEqual(['stop']);
    const again = await connect();
    await again.stream(1.5, 1);
    again.finalize();
    await until(() => again.results().some((m) => m.from_finalize), 2000);
    expect(
      again
        .results()
        .filter((m) => m.is_final)
        .map(transcript)
        .filter(Boolean)
        .join(' '),
    ).toBe('stop');
    expect(again.closed()).toBeNull();
    expect(dg.midSegmentDrops).toBe(1);
  });

  it('terminate: the TCP connection is destroyed after the final arrives (the client sees 1006)', async () => {
    dg.cadence = 'live';
    dg.chunkFinalAfterWords = 2;
    dg.misbehave.dropAfterFirstFinal = { terminate: true };
    dg.script = [{ text: TEXT }];
    const c = await connect();
    await c.stream(2.5, 5);
    await until(() => c.closed() !== null, 2000);
    expect(c.closed()!.code).toBe(1006);
    const finals = c.results().filter((m) => m.is_final);
    expect(finals.map(transcript)).toEqual(['computer set']);
    expect(dg.last!.closed).toMatchObject({ by: 'server', code: 1006 });
  });

  it('the real SDK v5 client gets the final, then the close', async () => {
    dg.cadence = 'live';
    dg.chunkFinalAfterSec = 1;
    dg.misbehave.dropAfterFirstFinal = { code: 1011, reason: 'NET-0000' };
    dg.script = [{ text: TEXT }];
    const client = new DeepgramClient({ apiKey: 'test-key', baseUrl: dg.url });
    const socket = await client.listen.v1.connect({ ...QUERY, reconnectAttempts: 0 } as Parameters<DeepgramClient['listen']['v1']['connect']>[0]);
    const got: Msg[] = [];
    let closed: { code?: number; reason?: string } | null = null;
    socket.on('message', (m: unknown) => got.push(m as Msg));
    socket.on('error', () => {});
    const opened = new Promise<void>((resolve) => socket.on('open', () => resolve()));
    // connect() first drops the socket the SDK already started (a close 1000 of its own), then dials.
    socket.connect();
    socket.on('close', (ev: { code?: number; reason?: string }) => (closed ??= { code: ev.code, reason: ev.reason }));
    await Promise.race([opened, sleep(2000)]);
    try {
      for (let i = 0; i < 25 && closed === null && socket.readyState === 1; i++) {
        socket.sendMedia(new Uint8Array(BYTES_PER_100MS));
        await sleep(5);
      }
      await until(() => closed !== null, 2000);
    } finally {
      socket.close();
    }
    expect(closed).toMatchObject({ code: 1011, reason: 'NET-0000' });
    const finals = got.filter((m) => m.type === 'Results' && m.is_final);
    expect(finals).toHaveLength(1);
    expect(finals[0]).toMatchObject({ speech_final: false, from_finalize: false });
    expect(got.some((m) => m.type === 'Results' && !m.is_final)).toBe(true);
  });
});
