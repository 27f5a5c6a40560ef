import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { FrameGate } from '../../src/echo/gate.js';
import type { Vad } from '../../src/vad/vad.js';
import { roomsByName } from '../support/room-spec.js';
import { matrixPrograms, roomMics, stopWithoutEcho, TARGETS } from '../echo/room-matrix.js';
import { SHORT_ANSWER } from '../echo/room-program.js';

/**
 * Silero is recurrent. Over minutes of a kitchen's fan its state settles on "not speech", and the first
 * frames of the next word score low: a "stop" said in the room went unheard at some points, or opened
 * 300-380 ms after the word, where the same samples after 2 s of that room open in 140-260 ms. The
 * capture pipeline starts the VAD's state afresh every vad.stateResetMs (2 s) while nothing is open,
 * no run of speech has begun and hark is silent (SegmentPipeline.freshen).
 */

/** A VAD that scores what the test scripts per frame, and records before which frame each reset came. */
function scripted(score: (frame: number) => number) {
  let frame = 0;
  const resetAt: number[] = [];
  const vad: Vad = {
    name: 'silero',
    process: async () => score(frame++),
    reset: () => void resetAt.push(frame),
    close: async () => {},
  };
  return { vad, resetAt, resets: () => resetAt.length };
}

const SEGMENTER = {
  threshold: 0.5,
  releaseThreshold: 0.35,
  prerollMs: 500,
  minSpeechMs: 96,
  hangoverMs: 600,
  maxSegmentMs: 12_000,
  minSegmentMs: 120,
  stateResetMs: 2000,
};
const FRAMES_2S = 63; // 2000 ms in 32 ms frames (62.5), rounded: the state is reset before every 63rd frame
const frames = (n: number) => new Int16Array(n * 512);

describe('the VAD state starts afresh while the room is quiet (SegmentPipeline)', () => {
  it('every 2 s of frames heard with nothing open; never inside a segment or its opening run', async () => {
    // 10 s of room, 3 s of speech, 10 s of room.
    const s = scripted((f) => (f >= 312 && f < 406 ? 0.9 : 0.05));
    const p = new SegmentPipeline({ vad: s.vad, segmenter: SEGMENTER });
    const opened: number[] = [];
    const closed: number[] = [];
    p.on('open', (e) => opened.push(e.vadStartSample / 512));
    p.on('segment', (g) => closed.push(g.endSample / 512));
    await p.push(frames(312 + 94 + 312));
    await p.end();
    expect(opened).toEqual([312]);
    const close = closed[0]!; // the hangover's last frame, 600 ms after the word
    expect(close).toBeGreaterThan(406 + 18);
    // Each 2 s before the word; none from the word's first frame until 2 s after the segment closed.
    expect(s.resetAt.filter((f) => f < 312)).toEqual([63, 126, 189, 252]);
    const after = s.resetAt.filter((f) => f >= 312);
    expect(after[0]).toBe(close + FRAMES_2S);
    expect(after.slice(1).map((f, k) => f - after[k]!)).toEqual(after.slice(1).map(() => FRAMES_2S));
  });

  it('not while hark may be heard (the gate is active), and muted frames are not counted', async () => {
    let playing = true;
    let muted = false;
    const gate: FrameGate = {
      adjust: (prob) => (muted ? 0 : prob),
      mutes: () => muted,
      get active() {
        return playing;
      },
    };
    const s = scripted(() => 0.05);
    const p = new SegmentPipeline({ vad: s.vad, segmenter: SEGMENTER, gate });
    await p.push(frames(400)); // 12.8 s of hark playing
    expect(s.resets()).toBe(0);
    playing = false;
    muted = false;
    await p.push(frames(FRAMES_2S));
    expect(s.resets()).toBe(0);
    await p.push(frames(2));
    expect(s.resets()).toBe(1);
    playing = true;
    muted = true;
    await p.push(frames(300));
    expect(s.resets()).toBe(1);
  });

  it('stateResetMs 0: never', async () => {
    const s = scripted(() => 0.05);
    const p = new SegmentPipeline({ vad: s.vad, segmenter: { ...SEGMENTER, stateResetMs: 0 } });
    await p.push(frames(1000));
    expect(s.resets()).toBe(0);
  });
});

describe('a cook in a kitchen with the fan running all along, hark silent', () => {
  it('kitchen-rt600-lat80: "stop" said at 30 points 1.5 s apart opens its segment within 300 ms every time', async () => {
    const config = parseConfigText('', 'hark.yaml');
    const points = Array.from({ length: 15 }, (_, k) => 2000 + 250 * k);
    const programs = await matrixPrograms(config, 1000, { stopAfterMs: points, answer: SHORT_ANSWER });
    const [spec] = roomsByName('kitchen-rt600-lat80');
    const alone = await stopWithoutEcho(roomMics(spec!, programs), programs, config);
    const late = alone.filter((s) => s.openedAfterMs === null || s.openedAfterMs > TARGETS.stopWithinMs);
    expect(late, alone.map((s) => s.openedAfterMs ?? 'unheard').join(' ')).toEqual([]);
  }, 120_000);
});
