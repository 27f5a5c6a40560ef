import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEchoCleaner } from '../../src/echo/create.js';
import { EchoReference } from '../../src/echo/reference.js';
import { vadSection } from '../../src/vad/config.js';
import { VirtualClock } from '../../src/core/clock.js';
import { segmentWrite } from '../../src/path/segment-record.js';
import type { SegmentRecord } from '../../src/path/segment-record.js';
import { Store } from '../../src/store/store.js';
import { createVad } from '../../src/vad/create.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Segment } from '../../src/vad/segment.js';
import type { Vad } from '../../src/vad/vad.js';
import { rms, rng, throughRoom } from '../support/room-sim.js';
import { espeakPhrase } from '../support/speech.js';
import { scratch } from '../store/fixtures.js';

/**
 * From the microphone to the file: the production capture path past arecord — the
 * SegmentPipeline with the real speexdsp canceller (native/hark-aec) fed with what hark "played", the
 * real Silero VAD and segmenter — then the daemon's record of each closed segment (segmentWrite, as
 * SegmentPath writes it) into a real SQLite file. The person speaks once over hark's answer (which
 * comes back into the mic 50 ms late through a reverberant room) and once in silence after it.
 */
const ANSWER =
  'Here is your answer. Preheat the oven to two hundred degrees, then whisk the eggs with the sugar until pale, fold in the flour, and bake for twenty five minutes.';
const RATE = 16;
const T0 = 1000; // clock ms of microphone sample 0

let store: Store;
let mic: Int16Array;
let segments: Segment[];
let ids: number[];
let echoSpan: [number, number];
let overAt: [number, number];
let silentAt: [number, number];
let vad: Vad;
let latency: number;

beforeAll(async () => {
  const answer = await espeakPhrase(ANSWER);
  const over = await espeakPhrase('set a timer for five minutes', 'en-gb');
  const silent = await espeakPhrase('what time is it', 'en-gb');
  // hark plays the answer 1 s in; it reaches the mic 50 ms later through the room.
  const playAt = 1000 * RATE;
  const echo = throughRoom(answer, { delay: playAt + 50 * RATE, gain: 0.7, rt60Ms: 250 });
  echoSpan = [playAt + 50 * RATE, playAt + 50 * RATE + answer.length];
  overAt = [echoSpan[0] + 3000 * RATE, echoSpan[0] + 3000 * RATE + over.length];
  silentAt = [echoSpan[1] + 3000 * RATE, echoSpan[1] + 3000 * RATE + silent.length];
  const n = silentAt[1] + 2500 * RATE;
  const level = rms(echo, echoSpan[0], echoSpan[1]);
  const noise = rng(7);
  mic = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    let v = (noise() - 0.5) * 60 + (echo[i] ?? 0);
    // The person 6 dB above hark's echo at the mic, over the answer and in the quiet after it.
    if (i >= overAt[0] && i < overAt[1]) v += over[i - overAt[0]]! * ((2 * level) / rms(over));
    if (i >= silentAt[0] && i < silentAt[1]) v += silent[i - silentAt[0]]! * ((2 * level) / rms(silent));
    mic[i] = Math.max(-32768, Math.min(32767, Math.round(v)));
  }

  const clock = new VirtualClock();
  const reference = new EchoReference();
  const made = createEchoCleaner({ filterMs: 128, residual: true, denoise: false, denoiseDb: 15 }, reference, clock);
  if ('error' in made) throw new Error(made.error);
  latency = made.cleaner.latency;
  const config = vadSection.parse(undefined);
  vad = await createVad(config);
  const pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(config), echo: made.cleaner });
  segments = [];
  pipeline.on('segment', (s) => segments.push(s));
  // arecord's periods (125 ms), each arriving as it ends.
  const PERIOD = 2000;
  let playing = false;
  for (let p = 0; p < n; p += PERIOD) {
    clock.advanceTo(T0 + Math.min(n, p + PERIOD) / RATE);
    // hark hands the answer to aplay when its time comes (the player's reference stamps it then), not before.
    if (!playing && clock.now() >= T0 + playAt / RATE) {
      reference.played(answer, T0 + playAt / RATE);
      playing = true;
    }
    await pipeline.push(mic.subarray(p, p + PERIOD));
  }
  await pipeline.end();

  store = new Store({ path: join(scratch('daemon-echo-track'), 'hark.db'), housekeeping: null });
  ids = segments.map((segment) => {
    const rec: SegmentRecord = {
      segment,
      transcript: null,
      fate: { kind: 'dropped', reason: 'test' },
      actions: [],
      closedAt: 0,
      closedWallAt: Date.now(),
      speechEndAt: 0,
      firstActionAt: null,
      written: true,
    };
    return store.recordSegment(segmentWrite(rec, 'mic'))!.id;
  });
}, 120_000);

afterAll(async () => {
  store?.close();
  await vad?.close();
});

const overlaps = (s: Segment, [a, b]: [number, number]) => s.startSample < b && s.endSample > a;

describe('a segment said over hark playing stores both tracks; one said in silence stores one', () => {
  it('stores the raw microphone, bit for bit, beside the cleaned audio, with the playback spans, for the segment said over the answer', () => {
    const i = segments.findIndex((s) => overlaps(s, overAt));
    expect(i, `segments: ${JSON.stringify(segments.map((s) => [s.startSample, s.endSample]))}, said at ${overAt}`).toBeGreaterThanOrEqual(0);
    const seg = segments[i]!;
    const view = store.getSegment(ids[i]!)!;
    expect(view.echo).not.toBeNull();
    expect(view.echo!.raw).toBe(true);
    expect(view.echo!.problem).toBeNull();
    // The playback marks sit where hark's sound was in this segment (whole 32 ms frames, plus the room's tail).
    const marked = view.echo!.playback;
    expect(marked.length).toBeGreaterThan(0);
    for (const p of marked) {
      expect(seg.startSample + p.start).toBeGreaterThanOrEqual(echoSpan[0] - 200 * RATE);
      expect(seg.startSample + p.end).toBeLessThanOrEqual(echoSpan[1] + 250 * RATE);
    }
    const raw = store.getRawAudio(ids[i]!);
    expect(raw && 'pcm' in raw).toBe(true);
    const rawPcm = (raw as { pcm: Int16Array }).pcm;
    // Read the canceller's fixed lag earlier (its residual suppressor's 16 ms), so it lines up with the
    // cleaned track (test/echo/mic-timeline.test.ts).
    expect(
      Buffer.from(rawPcm.buffer, rawPcm.byteOffset, rawPcm.byteLength).equals(
        Buffer.from(mic.buffer, (seg.startSample - latency) * 2, (seg.endSample - seg.startSample) * 2),
      ),
    ).toBe(true);
    // The stored audio is what the VAD and speech-to-text got: the canceller's output, not the raw mic.
    const cleaned = store.getAudio(ids[i]!)!.pcm;
    expect(cleaned.length).toBe(rawPcm.length);
    expect(Buffer.from(cleaned.buffer, cleaned.byteOffset, cleaned.byteLength).equals(Buffer.from(rawPcm.buffer, rawPcm.byteOffset, rawPcm.byteLength))).toBe(
      false,
    );
  });

  it('stores only the cleaned track for the segment said in silence, and a raw track for no segment away from playback', () => {
    const i = segments.findIndex((s) => overlaps(s, silentAt));
    expect(i, `segments: ${JSON.stringify(segments.map((s) => [s.startSample, s.endSample]))}, said at ${silentAt}`).toBeGreaterThanOrEqual(0);
    expect(segments[i]!.echo).toBeUndefined();
    expect(store.getSegment(ids[i]!)!.echo).toBeNull();
    expect(store.getRawAudio(ids[i]!)).toEqual({ missing: expect.stringMatching(/not heard while hark played/) });
    // Exactly the segments that overlap hark's sound (and its tail) have a second track.
    const tail: [number, number] = [echoSpan[0] - 200 * RATE, echoSpan[1] + 250 * RATE];
    segments.forEach((s, k) => {
      const has = store.getSegment(ids[k]!)!.echo !== null;
      if (!overlaps(s, tail)) expect(has, `segment ${k} at ${s.startSample}-${s.endSample}`).toBe(false);
    });
    const withRaw = store.db.prepare('SELECT COUNT(*) FROM segment_raw_audio').pluck().get() as number;
    expect(withRaw).toBe(segments.filter((s) => s.echo).length);
    expect(withRaw).toBeGreaterThanOrEqual(1);
  });
});
