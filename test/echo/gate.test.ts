import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { bindEchoGate } from '../../src/speech/echo-gate.js';
import { EchoGate, effectiveThreshold } from '../../src/echo/gate.js';
import { SpeechQueue } from '../../src/speech/queue.js';
import { SimulatedOutput } from '../../src/speech/simulated-output.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Vad } from '../../src/vad/vad.js';

const RAISE = { mode: 'raise' as const, raiseThreshold: 0.9, tailMs: 300 };

/** A VAD that says what the test tells it to: the probability of every frame from now on. */
function scriptedVad() {
  let prob = 0;
  const vad: Vad = { name: 'silero', process: async () => prob, reset() {}, close: async () => {} };
  return { vad, set: (p: number) => (prob = p) };
}

describe('echo gate', () => {
  it('the threshold the VAD must reach: raised while hark plays, unchanged otherwise', () => {
    expect(effectiveThreshold(false, RAISE, 0.5)).toBe(0.5);
    expect(effectiveThreshold(true, RAISE, 0.5)).toBe(0.9);
    expect(effectiveThreshold(true, { ...RAISE, raiseThreshold: 0.3 }, 0.5)).toBe(0.5);
    expect(effectiveThreshold(true, { ...RAISE, mode: 'gate' }, 0.5)).toBe(Infinity);
    expect(effectiveThreshold(true, { ...RAISE, mode: 'off' }, 0.5)).toBe(0.5);
  });

  it('follows playback on the bus, and stays up for the echo tail after it ends', () => {
    const clock = new VirtualClock();
    const bus = new Bus();
    const queue = new SpeechQueue({ output: new SimulatedOutput({ clock }), clock, bus });
    const gate = new EchoGate(RAISE, 0.5, clock);
    bindEchoGate(bus, gate);
    expect(gate.active).toBe(false);
    queue.say('ten chars!'); // 700 ms
    expect(gate.active).toBe(true);
    clock.advanceBy(700);
    expect(gate.active).toBe(true);
    clock.advanceBy(299);
    expect(gate.active).toBe(true);
    clock.advanceBy(1);
    expect(gate.active).toBe(false);
    queue.say('again');
    clock.advanceBy(100);
    queue.stop('button');
    clock.advanceBy(300);
    expect(gate.active).toBe(false);
  });

  it("hark's own voice does not open a segment while it plays; a person talking over it loudly does", async () => {
    const clock = new VirtualClock();
    const gate = new EchoGate(RAISE, 0.5, clock);
    const { vad, set } = scriptedVad();
    const pipeline = new SegmentPipeline({
      vad,
      gate,
      segmenter: { threshold: 0.5, releaseThreshold: 0.35, prerollMs: 300, minSpeechMs: 96, hangoverMs: 300, maxSegmentMs: 12_000, minSegmentMs: 100 },
    });
    const opened: number[] = [];
    const peaks: number[] = [];
    pipeline.on('open', (e) => opened.push(e.vadStartSample));
    pipeline.on('segment', (s) => peaks.push(s.maxProb));
    const frames = async (n: number) => {
      for (let i = 0; i < n; i++) await pipeline.push(new Int16Array(512));
    };
    gate.playbackStarted();
    set(0.75); // hark's echo: speech-like, but not loud and close
    await frames(30);
    expect(opened).toEqual([]);
    set(0.95); // the person, up close, talking over hark
    await frames(10);
    expect(opened).toHaveLength(1);
    await pipeline.end();
    // Said over hark, it is still clear speech: the segment keeps the VAD's own score, not the gated
    // one, so speech-to-text's "clear speech" check (a blank Whisper answer goes to the cloud) holds.
    expect(peaks).toEqual([0.95]);
    // the same 0.75 with hark silent (and the tail over) is speech
    gate.playbackEnded();
    clock.advanceBy(300);
    set(0);
    await frames(20);
    set(0.75);
    await frames(10);
    expect(opened).toHaveLength(2);
  });

  it('gate mode hears nothing but the button while hark plays', async () => {
    const gate = new EchoGate({ ...RAISE, mode: 'gate' }, 0.5, new VirtualClock());
    gate.playbackStarted();
    expect(gate.adjust(1)).toBe(0);
  });
});

describe('echo gate in cancel mode: what the VAD hears', () => {
  const CANCEL = { mode: 'cancel' as const, raiseThreshold: 0.9, tailMs: 300 };
  const SEGMENTER = { threshold: 0.5, releaseThreshold: 0.35, prerollMs: 300, minSpeechMs: 96, hangoverMs: 300, maxSegmentMs: 12_000, minSegmentMs: 100 };

  /**
   * Silero is recurrent: seconds of hark's voice as the residual suppressor leaves it taught its state
   * that this was not speech, and a cook's "stop" over hark's answer then went unheard
   * (test/echo/room-matrix.test.ts, 3-3.5 s into the list). Frames the canceller explains as hark's
   * own sound alone are therefore not given to the VAD at all; a person's frames are.
   */
  it("hark's own sound alone is not given to the VAD; a person over it, and a person's segment, are", async () => {
    const clock = new VirtualClock();
    const gate = new EchoGate(CANCEL, 0.5, clock);
    const canceller = { trusted: true, echoOnly: false };
    gate.setCanceller(canceller);
    let heard = 0;
    let prob = 0;
    const vad: Vad = { name: 'silero', process: async () => (heard++, prob), reset() {}, close: async () => {} };
    const pipeline = new SegmentPipeline({ vad, gate, segmenter: SEGMENTER });
    const opened: number[] = [];
    pipeline.on('open', (e) => opened.push(e.vadStartSample));
    const frames = async (n: number) => {
      for (let i = 0; i < n; i++) await pipeline.push(new Int16Array(512));
    };
    // hark talks: every frame its residual alone, and the VAD would call it speech.
    gate.playbackStarted();
    canceller.echoOnly = true;
    prob = 0.9;
    await frames(50);
    expect(heard).toBe(0);
    expect(opened).toEqual([]);
    // Someone talks over it: those frames are heard, and open a segment.
    canceller.echoOnly = false;
    await frames(10);
    expect(heard).toBe(10);
    expect(opened).toHaveLength(1);
    prob = 0;
    await frames(20); // the hangover closes it
    // hark quiet: a person opens a segment, then hark starts and the verdict reads a frame as hark's
    // alone. The person's segment still hears it (the verdict does not cut a person's segment).
    gate.playbackEnded();
    clock.advanceBy(1000);
    canceller.echoOnly = false;
    prob = 0.9;
    await frames(10);
    expect(opened).toHaveLength(2);
    gate.playbackStarted();
    canceller.echoOnly = true;
    const before = heard;
    await frames(5);
    expect(heard).toBe(before + 5);
    await pipeline.end();
  });

  /**
   * A "stop" 6 dB under a reverberant answer keeps its level through the canceller, but Silero scored
   * it 0.3-0.6: never three frames in a row at 0.5, so it went unheard (test/echo/talk-over-answer.test.ts).
   * Frames the trained canceller vouches are someone talking over hark are heard at
   * talkOverThreshold; nothing else is: not while the canceller is untrusted (the gate stands in),
   * not a frame it does not vouch for, not with the setting at the VAD's own threshold.
   */
  it('a frame the canceller vouches is someone talking over hark is heard at talkOverThreshold, and only that', async () => {
    const clock = new VirtualClock();
    const opened = async (settings: Partial<typeof CANCEL & { talkOverThreshold: number }>, canceller: { trusted: boolean; talkOver: boolean }) => {
      const gate = new EchoGate({ ...CANCEL, ...settings }, 0.5, clock);
      gate.setCanceller(canceller);
      gate.playbackStarted();
      const pipeline = new SegmentPipeline({
        vad: { name: 'silero', process: async () => 0.4, reset() {}, close: async () => {} },
        gate,
        segmenter: SEGMENTER,
      });
      let n = 0;
      pipeline.on('open', () => n++);
      for (let i = 0; i < 10; i++) await pipeline.push(new Int16Array(512));
      await pipeline.end();
      return n;
    };
    // Silero at 0.4 on every frame: under the VAD's 0.5.
    expect(await opened({ talkOverThreshold: 0.25 }, { trusted: true, talkOver: true })).toBe(1);
    expect(await opened({ talkOverThreshold: 0.25 }, { trusted: true, talkOver: false })).toBe(0);
    expect(await opened({ talkOverThreshold: 0.25 }, { trusted: false, talkOver: true })).toBe(0);
    expect(await opened({ talkOverThreshold: 0.5 }, { trusted: true, talkOver: true })).toBe(0);
    expect(await opened({}, { trusted: true, talkOver: true })).toBe(0);
    // Lifted, not replaced: a frame Silero calls silence stays silence.
    const gate = new EchoGate({ ...CANCEL, talkOverThreshold: 0.25 }, 0.5, clock);
    gate.setCanceller({ trusted: true, talkOver: true });
    gate.playbackStarted();
    expect(gate.adjust(0.05)).toBeCloseTo(0.1);
    expect(gate.adjust(0.4)).toBeCloseTo(0.8);
    expect(gate.adjust(0.9)).toBe(1);
  });
});
