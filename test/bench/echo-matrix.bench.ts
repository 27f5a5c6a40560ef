import { bench, describe } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeWavFile } from '../../src/audio/wav.js';
import { parseConfigText } from '../../src/config/load.js';
import { outputDir } from '../support/paths.js';
import { SHORT_ANSWER } from '../echo/room-program.js';
import { toS16 } from '../support/room-sim.js';
import { roomMatrix, roomsByName } from '../support/room-spec.js';
import { matrixPrograms, measureRoom, misses, roomMics, stopWithoutEcho, table, type RoomMics, type RoomResult } from '../echo/room-matrix.js';

/**
 * Which echo filter length and residual suppression to ship. The offline room matrix
 * (test/echo/room-matrix.ts: the production capture path, hark's list and ring, a "stop" 6 dB under
 * the echo) across echo.filterMs × echo.residual, in every room:
 *   HARK_ECHO_ROOMS     rooms by name (test/support/room-spec.ts); default the six kitchens, the tuned
 *                       room, and a tiled kitchen whose card runs dry 50 s in (the echo moves 20 ms)
 *   HARK_ECHO_FILTERS   filter lengths, ms (default 128,256,384,512)
 *   HARK_ECHO_RESIDUAL  on,off (default both)
 *   HARK_ECHO_STOP_AT   where each "stop" falls, ms into the ring and the answer (default room-matrix.ts's STOP_AFTER_MS)
 *   HARK_ECHO_ANSWER    short: the "stop" comes over the live run's short answer, not the list
 *   HARK_ECHO_CONFIG    hark.yaml text the run starts from (default hark's defaults), e.g.
 *                       $'vad:\n  minSpeechMs: 64' to try a setting outside the echo stage
 *   HARK_ECHO_DUMP      a directory: each room's microphones and what hark played as WAV, with the
 *                       true delay in meta.json, for another canceller (scripts/echo-lab/aec3-compare.sh)
 * The table (segments, "stop" latency, ERLE 2 s in, residual dBFS, CPU per 32 ms frame in process
 * CPU time) goes to stderr and test-output/bench/echo-matrix.{md,json}. Slow (minutes): run it alone.
 */
const config = parseConfigText(process.env.HARK_ECHO_CONFIG ?? '', 'HARK_ECHO_CONFIG');
const rooms = process.env.HARK_ECHO_ROOMS ? roomsByName(process.env.HARK_ECHO_ROOMS) : [...roomMatrix(), ...roomsByName('tuned,tiled-kitchen-restart20at50')];
const filters = (process.env.HARK_ECHO_FILTERS ?? '128,256,384,512').split(',').map(Number);
const residuals = (process.env.HARK_ECHO_RESIDUAL ?? 'on,off').split(',').map((s) => s.trim() === 'on');
const dump = process.env.HARK_ECHO_DUMP ? resolve(process.env.HARK_ECHO_DUMP) : null;

const programs = await matrixPrograms(config, 60_000, {
  stopAfterMs: process.env.HARK_ECHO_STOP_AT?.split(',').map(Number),
  answer: process.env.HARK_ECHO_ANSWER === 'short' ? SHORT_ANSWER : undefined,
});
const results: RoomResult[] = [];
const baselines: Array<{ room: string; stops: Awaited<ReturnType<typeof stopWithoutEcho>>; silent: Array<number | null> }> = [];
for (const spec of rooms) {
  const mics = roomMics(spec, programs);
  if (dump) await dumpRoom(join(dump, spec.name), mics);
  const stops = await stopWithoutEcho(mics, programs, config);
  const silent = stops.map((s) => s.openedAfterMs);
  baselines.push({ room: spec.name, stops, silent });
  for (const filterMs of filters) {
    for (const residual of residuals) {
      const r = await measureRoom(mics, programs, config, { filterMs, residual });
      results.push(r);
      process.stderr.write(`${spec.name} ${filterMs} ms residual ${residual ? 'on' : 'off'}: ${misses(r, silent).join('; ') || 'meets the targets'}\n`);
    }
  }
}

// Per setting: the rooms where it misses the targets, and its CPU.
const summary = filters.flatMap((f) =>
  residuals.map((res) => {
    const mine = results.filter((r) => typeof r.settings !== 'string' && r.settings.filterMs === f && r.settings.residual === res);
    return {
      filterMs: f,
      residual: res,
      roomsMissed: mine.filter((r) => misses(r, baselines.find((b) => b.room === r.room)!.silent).length > 0).map((r) => r.room),
      worstErleDb: Math.round(Math.min(...mine.flatMap((r) => [r.erle.list.erleDb, r.erle.ring.erleDb])) * 10) / 10,
      cpuMsPer32msFrame: Math.round((mine.reduce((s, r) => s + r.cpuMsPerFrame, 0) / mine.length) * 1000) / 1000,
    };
  }),
);
const floor = baselines.map((b) => `${b.room}: ${b.stops.map((s) => `${s.over} ${s.openedAfterMs ?? 'none'} ms`).join(', ')}`).join('\n');
const text = `${table(results)}\n\n${summary.map((s) => JSON.stringify(s)).join('\n')}\n\n"stop" opening with hark silent (the room's own share):\n${floor}\n`;
process.stderr.write(`\necho room matrix (process CPU time; note the machine's load):\n${text}`);
writeFileSync(join(outputDir('bench'), 'echo-matrix.md'), text);
writeFileSync(join(outputDir('bench'), 'echo-matrix.json'), JSON.stringify({ results, summary, baselines }, null, 2) + '\n');

/** One room as WAV (16 kHz mono s16, all from the same instant) for a canceller outside Node. */
async function dumpRoom(dir: string, mics: RoomMics): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const ref = (p: Int16Array, n: number) => {
    const out = new Int16Array(n);
    out.set(p.subarray(0, n));
    return out;
  };
  await writeWavFile(join(dir, 'quiet-ref.wav'), ref(programs.quiet.played, mics.quiet.mic.length));
  await writeWavFile(join(dir, 'quiet-mic.wav'), mics.quiet.mic);
  await writeWavFile(join(dir, 'quiet-echo.wav'), toS16(mics.quiet.echo));
  await writeWavFile(join(dir, 'stop-ref.wav'), ref(programs.stop.played, mics.stop.mic.length));
  await writeWavFile(join(dir, 'stop-mic.wav'), mics.stop.mic);
  const { parts, stops } = { parts: programs.quiet.parts, stops: programs.stop.stops };
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ room: mics.spec, delayMs: mics.spec.latencyMs, quietParts: parts, stops }, null, 2) + '\n');
}

describe('echo room matrix', () => {
  bench('measured above (see stderr)', () => {});
});
