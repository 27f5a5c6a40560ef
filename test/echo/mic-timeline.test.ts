import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEchoCleaner, type EchoCleaner } from '../../src/echo/create.js';
import { EchoReference } from '../../src/echo/reference.js';
import { VirtualClock } from '../../src/core/clock.js';
import { segmentWrite, type SegmentRecord } from '../../src/path/segment-record.js';
import { Store } from '../../src/store/store.js';
import { vadSection } from '../../src/vad/config.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Segment } from '../../src/vad/segment.js';
import type { Vad } from '../../src/vad/vad.js';
import { rms, rng, throughRoom } from '../support/room-sim.js';
import { espeakPhrase } from '../support/speech.js';
import { scratch } from '../store/fixtures.js';

/**
 * The microphone's timeline through the echo canceller. The kitchen is never
 * quiet (the extractor hums, a cook talks) while hark plays short clips, each its own start and stop
 * of the canceller. Whatever the canceller takes out of hark's sound, the room must come out on one
 * timeline: one lag everywhere, no 16 ms of old sound slipped in when hark starts playing and none
 * dropped when it stops. Measured before the fix: lag 0 while hark was quiet and 256 samples (16 ms)
 * while it played; at each start the preprocessor's last frame from the previous playback came out in
 * the room's place (the window there matched the room 0.21, against 0.99 on either side), and the
 * stored raw track sat 16 ms off the cleaned one wherever hark played.
 */
const RATE = 16;
const F = 512;

/**
 * Per window of `win` samples of `out`, every `hop`: the lag (samples) at which it best matches
 * `truth` (normalised cross-correlation), and how well; `out[i]` at lag 0 is `truth[i + offset]`.
 * The extractor's broadband hum in the truth makes the peak sharp where speech alone (voiced,
 * periodic) would also peak a pitch period away.
 */
function localLags(out: Int16Array, truth: ArrayLike<number>, offset = 0, maxLag = 640, win = 512, hop = 256) {
  const found: Array<{ at: number; lag: number; corr: number }> = [];
  const from = Math.max(0, maxLag - offset);
  const to = Math.min(out.length, truth.length - offset - maxLag);
  for (let a = from; a + win <= to; a += hop) {
    let best = { lag: 0, corr: -1 };
    let xx = 0;
    for (let i = a; i < a + win; i++) xx += out[i]! * out[i]!;
    for (let lag = -maxLag; lag <= maxLag; lag++) {
      let xy = 0;
      let yy = 0;
      for (let i = a; i < a + win; i++) {
        const y = truth[i + offset - lag]!;
        xy += out[i]! * y;
        yy += y * y;
      }
      const c = xy / Math.sqrt(xx * yy + 1e-9);
      if (c > best.corr) best = { lag, corr: c };
    }
    found.push({ at: a, ...best });
  }
  return found;
}

/** The room without hark: a cook talking over the extractor's hum, from sample 0 to n. */
async function kitchen(n: number, level: number): Promise<Float32Array> {
  const talk = await espeakPhrase(
    'I was saying that the oven needs to be hotter before the bread goes in, and the trays want washing before the lunch service starts',
    'en-gb',
  );
  const talkRms = rms(talk);
  const r = rng(5);
  const room = new Float32Array(n);
  for (let i = 0; i < n; i++) room[i] = (talk[i % talk.length]! * 2 * level) / talkRms + (r() - 0.5) * 2 * Math.sqrt(3) * level;
  return room;
}

/** hark's clips, each its own aplay process at `atMs`, back into the microphone 50 ms late through the room. */
function withEcho(room: Float32Array, clip: Int16Array, atMs: number[]): Int16Array {
  const played = new Float32Array(room.length);
  for (const t of atMs) for (let i = 0; i < clip.length && t * RATE + i < room.length; i++) played[t * RATE + i]! += clip[i]!;
  const echo = throughRoom(played, { delay: 50 * RATE, gain: 0.5, rt60Ms: 250 });
  const mic = new Int16Array(room.length);
  for (let i = 0; i < mic.length; i++) mic[i] = Math.max(-32768, Math.min(32767, Math.round(room[i]! + echo[i]!)));
  return mic;
}

function commonest(xs: number[]): number {
  const count = new Map<number, number>();
  for (const x of xs) count.set(x, (count.get(x) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1])[0]![0];
}

/** hark's echo (or its room's tail, 300 ms) is in the microphone's 32 ms from sample `a`. */
function echoIn(atMs: number[], clip: Int16Array, a: number): boolean {
  return atMs.some((t) => a + F > (t + 50) * RATE && a < (t + 50 + 300) * RATE + clip.length);
}

function newCleaner(reference: EchoReference, clock = new VirtualClock()): EchoCleaner {
  const made = createEchoCleaner({ filterMs: 128, residual: true, denoise: false, denoiseDb: 15 }, reference, clock);
  if ('error' in made) throw new Error(made.error);
  return made.cleaner;
}

describe("the microphone's timeline across hark's playback", () => {
  let ring: Int16Array;
  let level: number;
  beforeAll(async () => {
    ring = await espeakPhrase('Timer done.');
    // The room's sound as loud as hark's echo at the microphone (a busy kitchen at a ring).
    level = 0.5 * rms(ring);
  }, 60_000);

  it('comes out of the canceller at one lag, before, during and after each of three clips', async () => {
    const at = [1500, 4000, 6500];
    const n = 9000 * RATE;
    const room = await kitchen(n, level);
    const mic = withEcho(room, ring, at);
    const reference = new EchoReference();
    const cleaner = newCleaner(reference);
    const out = new Int16Array(n);
    let next = 0;
    for (let p = 0; p + F <= n; p += F) {
      // hark starts each clip at its time, as the player's reference reports it, before the mic hears it.
      while (next < at.length && at[next]! <= (p + F) / RATE) reference.played(ring, at[next++]!);
      cleaner.arrived(F, (p + F) / RATE);
      out.set(cleaner.process(mic.subarray(p, p + F), p), p);
    }
    const lags = localLags(out, room);
    // Where each clip's echo starts and stops in the microphone, to say which transition went wrong.
    const edges = at.flatMap((t) => [(t + 50) * RATE, (t + 50) * RATE + ring.length]);
    const where = (a: number) => {
      const e = edges.reduce((b, x) => (Math.abs(x - a) < Math.abs(b - a) ? x : b));
      return `${Math.round((a - e) / RATE)} ms from the ${edges.indexOf(e) % 2 ? 'end' : 'start'} of clip ${Math.floor(edges.indexOf(e) / 2) + 1}`;
    };
    const lag = commonest(lags.map((l) => l.lag));
    const off = lags.filter((l) => l.lag !== lag).map((l) => `${where(l.at)}: lag ${l.lag}, match ${l.corr.toFixed(2)}`);
    expect(off, `windows off the commonest lag, ${lag} samples`).toEqual([]);
    // Where hark's sound is not in the microphone, the output is the room itself, to the sample: no
    // stale 16 ms laid over it as the canceller starts (which it does a little before the echo comes).
    const poor = lags.filter((l) => !echoIn(at, ring, l.at - lag) && l.corr < 0.9).map((l) => `${where(l.at)}: match ${l.corr.toFixed(2)}`);
    expect(poor).toEqual([]);
    // A fixed 16 ms at most (the suppressor's step), and what the cleaner says it is: the raw track is
    // read that much earlier to line up with the cleaned one.
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThanOrEqual(256);
    expect(cleaner.latency).toBe(lag);
    // While hark is quiet (before the first clip, and between clips once the room's tail has died
    // away) the room goes through untouched, sample for sample: what the VAD and the debug page get is
    // the microphone itself, only that lag later.
    const quiet: Array<[number, number]> = [[lag, (at[0]! - 200) * RATE]];
    for (let k = 1; k < at.length; k++) quiet.push([(at[k - 1]! + 500) * RATE + ring.length, (at[k]! - 200) * RATE]);
    for (const [a, b] of quiet) {
      let changed = 0;
      for (let i = a; i < b; i++) if (out[i] !== mic[i - lag]) changed++;
      expect(changed, `samples changed over ${a / RATE}-${b / RATE} ms`).toBe(0);
    }
  });

  describe('a stored segment heard across a playback start and stop', () => {
    let store: Store;
    let segment: Segment;
    let id: number;
    let room: Float32Array;
    const talkFrom = 1000 * RATE;
    const talkTo = 6000 * RATE;
    const at = [200, 3000];

    beforeAll(async () => {
      const n = 8000 * RATE;
      room = await kitchen(n, level);
      // hark plays twice, the second time over the cook (3 s in): the first teaches the filter the room.
      const mic = withEcho(room, ring, at);
      const reference = new EchoReference();
      // The pipeline stamps each chunk's arrival with the cleaner's clock (arecord's 125 ms periods, on time).
      const clock = new VirtualClock();
      const cleaner = newCleaner(reference, clock);
      // The VAD is not what is measured here: a stand-in hears the cook exactly where they talk.
      let frames = 0;
      const vad: Vad = {
        name: 'silero',
        process: async () => {
          const p = frames++ * F;
          return p >= talkFrom && p < talkTo ? 0.95 : 0.02;
        },
        reset() {},
        close: async () => {},
      };
      const config = vadSection.parse(undefined);
      const pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(config), echo: cleaner });
      const segments: Segment[] = [];
      pipeline.on('segment', (s) => segments.push(s));
      let next = 0;
      const PERIOD = 2000;
      for (let p = 0; p < n; p += PERIOD) {
        clock.advanceTo(Math.min(n, p + PERIOD) / RATE);
        while (next < at.length && at[next]! <= clock.now()) reference.played(ring, at[next++]!);
        await pipeline.push(mic.subarray(p, p + PERIOD));
      }
      await pipeline.end();
      expect(segments, JSON.stringify(segments.map((s) => [s.startSample, s.endSample]))).toHaveLength(1);
      segment = segments[0]!;
      store = new Store({ path: join(scratch('echo-mic-timeline'), 'hark.db'), housekeeping: null });
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
      id = store.recordSegment(segmentWrite(rec, 'mic'))!.id;
    }, 120_000);

    afterAll(() => store?.close());

    it('stores the raw track in line with the cleaned one (segment_raw_audio beside segment_audio)', () => {
      const cleaned = store.getAudio(id)!.pcm;
      const got = store.getRawAudio(id);
      expect(got && 'pcm' in got).toBe(true);
      const raw = (got as { pcm: Int16Array }).pcm;
      expect(raw.length).toBe(cleaned.length);
      // The debug page plays and draws the two tracks from the same instant: each 32 ms of the cleaned
      // track is found in the raw one at lag 0, over the quiet, hark's clip and after it.
      const lags = localLags(cleaned, raw, 0, 400);
      const off = lags.filter((l) => l.lag !== 0).map((l) => `${Math.round(l.at / RATE)} ms into the segment: lag ${l.lag}, match ${l.corr.toFixed(2)}`);
      expect(lags.length).toBeGreaterThan(100);
      expect(off).toEqual([]);
    });

    it('has no 16 ms jump in the cleaned audio where hark starts and stops', () => {
      const cleaned = store.getAudio(id)!.pcm;
      // The room as it was, one fixed lag earlier, over the whole segment across hark's start and stop;
      // away from hark's echo, the room itself (no stale fragment, nothing missing).
      const lags = localLags(cleaned, room, segment.startSample);
      const lag = commonest(lags.map((l) => l.lag));
      const off = lags
        .filter((l) => l.lag !== lag || (!echoIn(at, ring, segment.startSample + l.at - lag) && l.corr < 0.9))
        .map((l) => `${Math.round(l.at / RATE)} ms into the segment: lag ${l.lag}, match ${l.corr.toFixed(2)}`);
      expect(lags.length).toBeGreaterThan(100);
      expect(off, `windows off the commonest lag, ${lag} samples, or not the room`).toEqual([]);
    });
  });
});
