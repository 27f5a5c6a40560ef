import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfigText } from '../../src/config/load.js';
import { outputDir } from '../support/paths.js';
import { roomMatrix, roomsByName } from '../support/room-spec.js';
import { matrixPrograms, measureRoom, misses, roomMics, stopWithoutEcho, table, type Programs, type RoomResult } from './room-matrix.js';

/**
 * The canceller met its targets in the room it was tuned in and missed them in the next
 * kitchen. Here its default settings (echo.filterMs, echo.residual as the config gives
 * them) are held to the live echo-room run's targets in six kitchens — RT60 250, 400 and 600 ms, each
 * with a USB card at 30 and at 80 ms (test/support/room-spec.ts: a small speaker, an early
 * reflection, an extractor fan and mains hum, the cook 2 m away) — through the production capture
 * path (Silero, the segmenter, the echo stage with speexdsp, the gate):
 *  - hark reads a 30 s list and a timer rings 60 s, nobody speaking: no segment opens;
 *  - "stop" said 6 dB under the echo, 3, 3.5 and 6 s into the ring and into the list
 *    (room-matrix.ts, STOP_AFTER_MS): its segment opens within
 *    300 ms of the word — or, where the room alone takes nearly that long (the same word with hark
 *    silent: 281 ms at RT60 600), within one 32 ms frame of what it takes there.
 * Two of them also have their card run dry 50 s in and restart without hark hearing of it (the echo
 * comes 20 ms later from then on, in the middle of the ring): until the delay tracker re-aligns, the
 * canceller takes nothing out, and that must not pass for a person (it opened a segment in both).
 * HARK_ECHO_MATRIX_YAML (a hark.yaml's text) points it at other settings, e.g.
 * 'echo:\n  filterMs: 256'. The numbers per room go to test-output/echo-matrix/; the
 * benchmark (test/bench/echo-matrix.bench.ts) runs the same rooms across filter lengths.
 */
const config = parseConfigText(process.env.HARK_ECHO_MATRIX_YAML ?? '', 'hark.yaml');
const settings = { filterMs: config.echo.filterMs, residual: config.echo.residual };

describe(`hark's own sound in six kitchens and two cards that restart (filterMs ${settings.filterMs}, residual ${settings.residual})`, () => {
  let programs: Programs;
  const results: RoomResult[] = [];
  const floors: string[] = [];
  beforeAll(async () => {
    programs = await matrixPrograms(config);
  }, 60_000);

  afterAll(() => {
    const text = `${table(results)}\n\n"stop" with hark silent, ms (ring, then list, at each point):\n${floors.join('\n')}`;
    writeFileSync(join(outputDir('echo-matrix'), 'test.md'), text + '\n');
    process.stderr.write(`\n${text}\n`);
  });

  const rooms = [...roomMatrix(), ...roomsByName('kitchen-rt250-lat30-restart20at50,kitchen-rt400-lat80-restart20at50')];
  it.each(rooms.map((spec) => ({ name: spec.name, spec })))(
    '$name: the list and the ring open no segment, and "stop" 6 dB under the echo opens within 300 ms',
    async ({ spec }) => {
      const mics = roomMics(spec, programs);
      const r = await measureRoom(mics, programs, config, settings, { erle: false });
      results.push(r);
      const silent = (await stopWithoutEcho(mics, programs, config)).map((s) => s.openedAfterMs);
      floors.push(`${spec.name}: ${silent.map((ms) => ms ?? 'none').join(' / ')}`);
      // The room did put hark's voice into the microphone, well above the fan: there was echo to take out.
      expect(r.echoDbfs).toBeGreaterThan(-30);
      expect(misses(r, silent)).toEqual([]);
    },
    120_000,
  );
});
