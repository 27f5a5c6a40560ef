import { describe, expect, it } from 'vitest';
import { plan, type Clip } from '../../src/speech/aplay-stream-mix.js';

/** plan(): how far the stream player writes at a tick, and whose audio (positions in samples). */
function clip(samples: number, o: { complete: boolean; started?: boolean }): Clip {
  return {
    pending: samples > 0 ? [new Int16Array(samples).fill(1)] : [],
    offset: 0,
    complete: o.complete,
    fed: 0,
    firstPos: o.started ? 0 : null,
    finished: false,
    resolveStarted: () => {},
    resolveDone: () => {},
    endTimer: null,
  };
}

// Playhead at 10 000; 1 280 samples (80 ms) of silence already written ahead; lead 4 000 (250 ms),
// idle 1 280 (80 ms), floor 640 (40 ms).
const at = { playhead: 10_000, fed: 11_280, lead: 4_000, idle: 1_280, floor: 640 };

describe('plan: a streamed clip is never padded', () => {
  it.each([
    // [what, clips, samples written, how many sound]
    ['nothing plays: silence up to the idle lead (already there)', [], 0, 0],
    ['a whole clip: up to the lead', [clip(100_000, { complete: true })], 14_000 - 11_280, 1],
    ['a stream not started, short of the lead: held, idle silence only', [clip(2_000, { complete: false })], 0, 0],
    ['a stream not started that reaches the lead: starts, up to the lead', [clip(2_720, { complete: false })], 2_720, 1],
    ['a stream not started but complete (all its audio came): starts', [clip(500, { complete: true })], 14_000 - 11_280, 1],
    ['a started stream with less than the lead: only its audio, no silence after it', [clip(900, { complete: false, started: true })], 900, 1],
    ['a started stream with nothing left, far enough ahead: nothing written', [clip(0, { complete: false, started: true })], 0, 0],
    [
      'a started stream and a whole clip: no further than the stream',
      [clip(900, { complete: false, started: true }), clip(100_000, { complete: true })],
      900,
      2,
    ],
  ] as [string, Clip[], number, number][])('%s', (_what, clips, n, sounding) => {
    const p = plan(clips, at);
    expect(p.n).toBe(n);
    expect(p.sounding).toHaveLength(sounding);
  });

  it('a started stream about to run dry: its audio, then silence to the floor (the server sent nothing; the card must not run dry)', () => {
    const p = plan([clip(100, { complete: false, started: true })], { ...at, fed: 10_200 });
    expect(p.n).toBe(10_640 - 10_200);
    expect(p.sounding).toHaveLength(1);
  });
});
