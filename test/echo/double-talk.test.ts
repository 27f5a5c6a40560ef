import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEchoCleaner } from '../../src/echo/create.js';
import { DoubleTalkDetector } from '../../src/echo/double-talk.js';
import { EchoReference } from '../../src/echo/reference.js';
import { VirtualClock } from '../../src/core/clock.js';
import { EchoGate } from '../../src/echo/gate.js';
import { echoSection } from '../../src/echo/config.js';
import { vadSection } from '../../src/vad/config.js';
import { createVad } from '../../src/vad/create.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Segment } from '../../src/vad/segment.js';
import type { Vad } from '../../src/vad/vad.js';
import { Reverb, rms, rng } from '../support/room-sim.js';
import { espeakPhrase } from '../support/speech.js';

/**
 * In a reverberant kitchen, what the canceller leaves of hark's own voice must not open
 * segments, and a person saying "stop" 6 dB under that voice must. The production capture path past
 * arecord: the SegmentPipeline with the real speexdsp canceller at the configured defaults, the echo
 * gate as the daemon binds it, the real Silero VAD and segmenter. The rooms span card latencies and
 * reverberation; the person stands farther off than the speaker (more of the room in their voice).
 */
const RATE = 16;
const T0 = 1000;
const STOPS_MS = [4000, 9000];
const READBACK =
  'On the order list: three cases of milk, two bags of onions, a tub of butter, six lemons, the flour, two trays of eggs, a box of tomatoes and the cream. That is eight items.';

let vad: Vad;
let readback: Int16Array;
let stop: Int16Array;

beforeAll(async () => {
  vad = await createVad(vadSection.parse(undefined));
  readback = await espeakPhrase(READBACK);
  stop = await espeakPhrase('stop', 'en-gb');
}, 60_000);
afterAll(async () => vad?.close());

interface Heard {
  segments: Segment[];
  /** Samples where hark's echo reaches the mic, and where each "stop" is said. */
  echoSpan: [number, number];
  stops: Array<[number, number]>;
}

async function hear(room: { rt60Ms: number; delayMs: number }, opts: { person: boolean; doubleTalk: boolean }): Promise<Heard> {
  const settings = echoSection.parse(undefined);
  const delay = room.delayMs * RATE;
  const n = readback.length + delay + 2 * 16000;
  const played = new Float32Array(n);
  for (let i = 0; i < readback.length; i++) played[i + delay] = readback[i]! * 0.7;
  const echo = new Reverb(room.rt60Ms).process(played);
  const level = rms(echo, delay, delay + readback.length);
  // The person: 6 dB under hark's echo, farther off (longer, wetter reverberation).
  const voice = new Float32Array(n);
  const stops: Array<[number, number]> = [];
  if (opts.person) {
    for (const ms of STOPS_MS) {
      const at = ms * RATE;
      stops.push([at, at + stop.length]);
      for (let i = 0; i < stop.length; i++) voice[at + i] = (stop[i]! * level) / rms(stop) / 2;
    }
  }
  const person = new Reverb(room.rt60Ms * 1.2, 0.4).process(voice);
  const noise = rng(5);
  const mic = new Int16Array(n);
  for (let i = 0; i < n; i++) mic[i] = Math.max(-32768, Math.min(32767, Math.round(echo[i]! + person[i]! + (noise() - 0.5) * 60)));

  const clock = new VirtualClock();
  clock.advanceTo(T0);
  const reference = new EchoReference();
  const made = createEchoCleaner(settings, reference, clock);
  if ('error' in made) throw new Error(made.error);
  const cleaner = made.cleaner;
  const config = vadSection.parse(undefined);
  const gate = new EchoGate(settings, config.threshold, clock);
  // Without the double-talk decision: the same canceller, its per-frame verdict unheard.
  gate.setCanceller(
    opts.doubleTalk
      ? cleaner
      : {
          get trusted() {
            return cleaner.trusted;
          },
        },
  );
  vad.reset();
  const pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(config), echo: cleaner, gate });
  const segments: Segment[] = [];
  pipeline.on('segment', (s) => segments.push(s));
  const PERIOD = 2000;
  reference.played(readback, T0);
  gate.playbackStarted();
  for (let p = 0; p < n; p += PERIOD) {
    clock.advanceTo(T0 + Math.min(n, p + PERIOD) / RATE);
    if (clock.now() >= T0 + readback.length / RATE) gate.playbackEnded();
    await pipeline.push(mic.subarray(p, p + PERIOD));
  }
  await pipeline.end();
  return { segments, echoSpan: [delay, delay + readback.length], stops };
}

const ROOMS = [
  { rt60Ms: 250, delayMs: 30 },
  { rt60Ms: 400, delayMs: 80 },
  { rt60Ms: 600, delayMs: 30 },
  { rt60Ms: 600, delayMs: 80 },
];
const label = (r: { rt60Ms: number; delayMs: number }) => `RT60 ${r.rt60Ms} ms, card ${r.delayMs} ms`;
const spans = (h: Heard) => JSON.stringify(h.segments.map((s) => [+(s.vadStartSample / 16000).toFixed(2), +(s.endSample / 16000).toFixed(2)]));

describe('hark reading a list back in a reverberant kitchen, at the default settings', () => {
  it.each(ROOMS)(
    'opens no segment on its own voice, nobody speaking: $rt60Ms ms RT60, $delayMs ms card',
    async (room) => {
      const h = await hear(room, { person: false, doubleTalk: true });
      expect(h.segments, `${label(room)}: segments at ${spans(h)} s`).toHaveLength(0);
    },
    60_000,
  );

  it.each(ROOMS)(
    'hears "stop" said 6 dB under it within 300 ms of the word, each time: $rt60Ms ms RT60, $delayMs ms card',
    async (room) => {
      const h = await hear(room, { person: true, doubleTalk: true });
      for (const [at] of h.stops) {
        const seg = h.segments.find((s) => s.vadStartSample <= at + 300 * RATE && s.endSample > at);
        expect(seg, `${label(room)}: "stop" at ${at / 16000} s; segments at ${spans(h)} s`).toBeDefined();
        // The segment opens (the VAD's first speech frame is confirmed minSpeechMs later) within 300 ms.
        expect((seg!.vadStartSample - at) / RATE).toBeLessThan(300);
      }
      // And nothing else: every segment holds a "stop".
      for (const s of h.segments)
        expect(
          h.stops.some(([a, b]) => s.startSample < b && s.endSample > a),
          `${label(room)}: ${spans(h)}`,
        ).toBe(true);
    },
    60_000,
  );

  it("without the double-talk decision the residual of hark's first words opens a segment in these rooms", async () => {
    let opened = 0;
    for (const room of ROOMS) opened += (await hear(room, { person: false, doubleTalk: false })).segments.length;
    expect(opened).toBeGreaterThan(0);
  }, 120_000);
});

describe('DoubleTalkDetector', () => {
  const frame = (amp: number, seed: number) => {
    const r = rng(seed);
    return Int16Array.from({ length: 512 }, () => Math.round((r() - 0.5) * 2 * amp));
  };
  /** What the microphone held: hark's echo (at the canceller's input) and what the canceller left of it. */
  const mic = (echo: Int16Array | null, out: Int16Array) => (echo ? Int16Array.from(out, (x, i) => Math.max(-32768, Math.min(32767, x + echo[i]!))) : out);
  it('learns the residual hark leaves, then tells a voice 15 dB above it from it; quiet frames are nobody', () => {
    const d = new DoubleTalkDetector();
    // The room before hark speaks: a faint hiss.
    for (let k = 0; k < 20; k++) d.quiet(frame(5, 300 + k));
    // A second of hark's sound cancelled to about -25 dB, swinging ±5 dB frame to frame.
    for (let k = 0; k < 31; k++) {
      const out = frame(450 * (1 + 0.7 * Math.sin(k)), 100 + k);
      expect(d.update(frame(8000, k), out, mic(frame(5600, 700 + k), out), 'other')).toBe('hark');
    }
    expect(d.couplingDb).toBeLessThan(-15);
    const voice = frame(450 * 6, 200);
    expect(d.update(frame(8000, 50), voice, mic(frame(5600, 750), voice), 'other')).toBe('near');
    // The word goes on through a quieter vowel within the margin: still the person (the hold).
    const vowel = frame(450 * 2, 201);
    expect(d.update(frame(8000, 51), vowel, mic(frame(5600, 751), vowel), 'other')).toBe('near');
    expect(d.update(frame(8000, 52), frame(2, 202), frame(2, 202), 'other')).toBe('quiet');
  });

  it('the canceller losing the echo (the card restarted unannounced) is not a person; a person over the lost echo is', () => {
    const d = new DoubleTalkDetector();
    for (let k = 0; k < 20; k++) d.quiet(frame(5, 300 + k));
    // Two seconds of hark's sound cancelled well: the microphone holds its echo about 3 dB under the reference.
    for (let k = 0; k < 62; k++) d.update(frame(8000, k), frame(20, 100 + k), frame(5600, 700 + k), 'cancelling');
    expect(d.returnLossDb).toBeGreaterThan(-5);
    // The echo moves: the canceller takes nothing out, its output is the whole echo, 40 dB over what it left.
    const verdicts = Array.from({ length: 40 }, (_, k) => {
      const echo = frame(5600 * (0.6 + 0.4 * Math.abs(Math.sin(k))), 900 + k);
      return d.update(frame(8000, 200 + k), echo, echo, k < 2 ? 'other' : 'collapsed');
    });
    // Its first frames, while the cancellation is still falling, may pass for a person; none after.
    expect(verdicts.slice(2).filter((v) => v !== 'hark')).toEqual([]);
    // A cook close to the microphone, 6 dB over hark's echo, while it is still lost: the near end.
    const cook = mic(frame(11000, 990), frame(5600, 991));
    expect(d.update(frame(8000, 300), cook, cook, 'collapsed')).toBe('near');
    // With the echo cancelled again, a cook 6 dB under it keeps its own frame: the near end.
    for (let k = 0; k < 31; k++) d.update(frame(8000, 400 + k), frame(20, 500 + k), frame(5600, 600 + k), 'cancelling');
    const under = frame(2800, 992);
    expect(d.update(frame(8000, 450), under, mic(frame(5600, 993), under), 'other')).toBe('near');
  });

  it('a cook louder than hark collapses the cancellation too: that is a person, to the end of their words', () => {
    const d = new DoubleTalkDetector();
    for (let k = 0; k < 20; k++) d.quiet(frame(5, 300 + k));
    for (let k = 0; k < 62; k++) d.update(frame(8000, k), frame(20, 100 + k), frame(5600, 700 + k), 'cancelling');
    // Their first loud syllable lifts the microphone over hark's echo as the cancellation falls.
    const loud = mic(frame(11000, 800), frame(5600, 801));
    expect(d.update(frame(8000, 100), loud, loud, 'other')).toBe('near');
    // Then quieter syllables, as loud as the echo, while the cancellation is still down: still the cook.
    const verdicts = Array.from({ length: 20 }, (_, k) => {
      const m = mic(frame(3000, 820 + k), frame(5600, 850 + k));
      return d.update(frame(8000, 120 + k), m, m, 'collapsed');
    });
    expect(verdicts.filter((v) => v === 'hark')).toEqual([]);
  });

  it("where hark's sound does not reach the microphone, a fan is the room, not hark: a ring's beeps never teach it to explain a voice away", () => {
    const d = new DoubleTalkDetector();
    const fan = 300;
    for (let k = 0; k < 30; k++) d.quiet(frame(fan, 400 + k));
    const verdicts: string[] = [];
    // A minute of ringing: 0.5 s of loud beeps, then 1.5 s of nothing played (the room's tail allowed for).
    for (let k = 0; k < 1875; k++) {
      const beep = k % 62 < 16;
      const room = frame(fan, 1000 + k);
      const v = d.update(beep ? frame(12000, k) : null, room, room, 'other');
      if (v === 'hark') verdicts.push(`frame ${k}`);
    }
    // The fan alone is never hark's residual.
    expect(verdicts).toEqual([]);
    // A cook 8 dB over the fan, on a beep and between beeps: the near end.
    const cook = frame(fan * 2.5, 5001);
    expect(d.update(frame(12000, 5000), cook, cook, 'other')).toBe('near');
    for (let k = 0; k < 20; k++) {
      const room = frame(fan, 6000 + k);
      d.update(null, room, room, 'other');
    }
    const again = frame(fan * 2.5, 5002);
    expect(d.update(null, again, again, 'other')).toBe('near');
  });
});
