import { bench, describe } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readWavFile } from '../../src/audio/wav.js';
import { parseConfigText } from '../../src/config/load.js';
import { outputDir } from '../support/paths.js';
import type { RoomSpec } from '../support/room-spec.js';
import { hear } from '../echo/room-matrix-run.js';
import { matrixPrograms, roomMics, score, table, type RoomResult } from '../echo/room-matrix.js';

/**
 * WebRTC AEC3 scored as the matrix scores speexdsp. scripts/echo-lab/aec3-compare.sh ran
 * AEC3 (in a trixie root) over the rooms the matrix benchmark wrote out (HARK_ECHO_DUMP); here its
 * output goes through hark's capture path without hark's canceller (Silero and the segmenter as the
 * daemon builds them; no echo gate: AEC3 has no trust signal hark reads), and ERLE and the residual
 * are taken on its output for the echo-only microphone. HARK_AEC3_DIR: the rooms' directory.
 * The table goes to stderr and test-output/bench/echo-aec3.md, with speexdsp's rows for the same
 * rooms from test-output/bench/echo-matrix.json when the matrix benchmark has run.
 */
const dir = process.env.HARK_AEC3_DIR ? resolve(process.env.HARK_AEC3_DIR) : null;
const config = parseConfigText('', 'hark.yaml');
const results: RoomResult[] = [];

if (!dir) process.stderr.write('echo-aec3: set HARK_AEC3_DIR to the rooms scripts/echo-lab/aec3-compare.sh processed\n');
else {
  const programs = await matrixPrograms(config);
  for (const name of readdirSync(dir).sort()) {
    const room = join(dir, name);
    if (!existsSync(join(room, 'aec3.json'))) continue;
    const meta = JSON.parse(readFileSync(join(room, 'meta.json'), 'utf8')) as { room: RoomSpec };
    const mics = roomMics(meta.room, programs);
    // The microphone AEC3 was given must be the one rebuilt here, sample for sample, or the scores compare nothing.
    const dumped = (await readWavFile(join(room, 'quiet-mic.wav'))).pcm;
    if (dumped.length !== mics.quiet.mic.length || dumped.some((v, i) => v !== mics.quiet.mic[i]))
      throw new Error(`${name}: the dumped microphone differs from the room rebuilt now (the simulator changed since the dump)`);
    const runs = readFileSync(join(room, 'aec3.json'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { variant: string; run: string; stats: { cpuMsPer32msFrame: number } });
    for (const variant of [...new Set(runs.map((r) => r.variant))]) {
      const wav = async (run: string) => (await readWavFile(join(room, `${variant}-${run}.wav`))).pcm;
      const quietOpens = await hear(await wav('quiet-mic'), programs.quiet, config);
      const stopOpens = await hear(await wav('stop-mic'), programs.stop, config);
      const cpu = runs.find((r) => r.variant === variant && r.run === 'quiet-mic')!.stats.cpuMsPer32msFrame;
      results.push(
        score(mics, programs, {
          label: variant === 'aec3' ? 'AEC3' : 'AEC3+NS',
          quietOpens,
          stopOpens,
          stopOut: await wav('stop-mic'),
          echoOut: await wav('quiet-echo'),
          cpuMsPerFrame: cpu,
        }),
      );
    }
  }
  const matrixJson = join(outputDir('bench'), 'echo-matrix.json');
  const speex = existsSync(matrixJson)
    ? (JSON.parse(readFileSync(matrixJson, 'utf8')) as { results: RoomResult[] }).results.filter((r) => results.some((a) => a.room === r.room))
    : [];
  const text = table([...results, ...speex].sort((a, b) => a.room.localeCompare(b.room))) + '\n';
  process.stderr.write(`\nAEC3 and speexdsp in the same rooms (CPU: process CPU time per 32 ms of audio, under load):\n${text}`);
  writeFileSync(join(outputDir('bench'), 'echo-aec3.md'), text);
}

describe('AEC3 in the room matrix', () => {
  bench('measured above (see stderr)', () => {});
});
