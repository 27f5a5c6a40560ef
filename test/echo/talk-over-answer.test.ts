import { beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load.js';
import { roomsByName } from '../support/room-spec.js';
import { hear } from './room-matrix-run.js';
import { TARGETS, matrixPrograms, openedAfterMs, roomMics, type Programs } from './room-matrix.js';
import { SHORT_ANSWER } from './room-program.js';

/**
 * Live, "stop" said 6 dB under hark's answer went unheard in the RT60 400 and 600 kitchens
 * (make echo-room). Offline the same happens over that answer (its text, not the matrix's list) at the
 * points where it fell: said every 250 ms from 2 to 5.5 s in, it opened no segment at 1-4 of the 15
 * points in each kitchen, always 3.5-5.25 s in. The canceller keeps the word's level and the
 * double-talk decision gives every frame of it to the person, but Silero scored the cleaned word
 * 0.3-0.6, short of its threshold three frames in a row. Those frames are now heard at
 * echo.talkOverThreshold (the gate, with the trained canceller vouching for them).
 *
 * Held here at all 15 points in the two kitchens where most went unheard: every "stop" opens its
 * segment, within one 32 ms frame of the 300 ms target. At 0.25 the 600 ms tail took 373 ms 3.5 s in;
 * at 0.2 every point is within 305 ms, and 3 of these 30 are over 300 (301-305: Silero's state, settled
 * on hark's residual through the answer, scores the word's first frames 0.02; docs/echo.md). The room
 * alone opens all 30 within 265 ms (test/vad/state-reset.test.ts). The rooms' list and ring with
 * nobody speaking, and the cards that restart, are room-matrix.test.ts's: the same settings open no
 * segment there.
 */
const config = parseConfigText(process.env.HARK_ECHO_MATRIX_YAML ?? '', 'hark.yaml');
const settings = { filterMs: config.echo.filterMs, residual: config.echo.residual };
// Every 250 ms from 2 to 5.5 s in, as found: where the word falls and what the canceller has heard
// before it both matter, so the points are said in this order, one ring and one answer each.
const POINTS = Array.from({ length: 15 }, (_, k) => 2000 + 250 * k);

let programs: Programs;
beforeAll(async () => {
  programs = await matrixPrograms(config, 1000, { stopAfterMs: POINTS, answer: SHORT_ANSWER });
}, 60_000);

describe('"stop" 6 dB under a reverberant answer, where it went unheard', () => {
  it.each(roomsByName('kitchen-rt400-lat80,kitchen-rt600-lat30').map((spec) => ({ name: spec.name, spec })))(
    '$name: every "stop" over the answer opens its segment within one frame of 300 ms',
    async ({ spec }) => {
      const mics = roomMics(spec, programs);
      const opens = await hear(mics.stop.mic, programs.stop, config, settings);
      const allowed = TARGETS.stopWithinMs + 32;
      const heard = programs.stop.stops.map((s) => {
        const ms = openedAfterMs(opens, s.at);
        const where = `${s.over === 'list' ? 'answer' : s.over} ${Math.round((s.at - programs.stop.parts.find((p) => p.start <= s.at && s.at < p.end)!.start) / 16)} ms in`;
        return { text: `${where}: ${ms === null ? 'unheard' : `${ms} ms`} (allowed ${allowed})`, late: ms === null || ms > allowed };
      });
      expect(
        heard.filter((h) => h.late).map((h) => h.text),
        heard.map((h) => h.text).join('; '),
      ).toEqual([]);
    },
    120_000,
  );
});

/**
 * The lift must not let hark's own sound through. In the kitchen where an unannounced card restart
 * (the echo 64 ms later, 50 s in, mid-ring) still opens segments without it, the canceller's output
 * for a while after the move is its own estimate misplaced, louder than the microphone: lifted, it
 * opened one more (EchoStage.talkOver now refuses a frame it left louder than the microphone).
 */
describe("the lift opens no segment on hark's own sound that it would not open without it", () => {
  it('kitchen-rt250-lat80-restart64at50: a 30 s list and a 60 s ring, nobody speaking', async () => {
    const [spec] = roomsByName('kitchen-rt250-lat80-restart64at50');
    const quiet = await matrixPrograms(config);
    const mics = roomMics(spec!, quiet);
    const off = parseConfigText('echo:\n  talkOverThreshold: 0.5', 'hark.yaml');
    const without = await hear(mics.quiet.mic, quiet.quiet, off, settings);
    const lifted = await hear(mics.quiet.mic, quiet.quiet, config, settings);
    expect(lifted.map((o) => Math.round(o.vadStart / 16))).toEqual(without.map((o) => Math.round(o.vadStart / 16)));
  }, 120_000);
});
