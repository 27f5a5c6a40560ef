import { bench, describe } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { fakeMic } from '../support/fake-mic.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';

/**
 * The daemon's own cost while nothing is said: a real `hark run` reading 60 s of silence from a fake
 * arecord in real time, with speech-to-text in cloud-only mode (so no Whisper model is loaded; the
 * Deepgram double is never called for silence). CPU is utime+stime of the hark process from /proc
 * over the measured window (after a 5 s warm-up); memory is its resident set at the end.
 * Targets: ≤ 3 % of one core, ≤ 150 MB.
 */
const MEASURE_MS = Number(process.env.HARK_IDLE_BENCH_MS ?? 60_000);
const TICK = 100; // USER_HZ on Linux

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
}
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** vitest bench prints only its timing table: write the measurement to the terminal and keep a copy. */
function report(line: string): void {
  process.stderr.write(`\n${line}\n`);
  writeFileSync(join(outputDir('bench-results'), 'daemon-idle.txt'), line + '\n');
}

describe('daemon idle cost', () => {
  bench(
    `hark run over ${MEASURE_MS / 1000} s of silence (no Whisper model)`,
    async () => {
      const dir = outputDir('bench-idle');
      rmSync(dir, { recursive: true, force: true });
      const mic = fakeMic(join(dir, 'bin'), new Int16Array(16000), ['play']);
      const deepgram = await DeepgramDouble.start({ apiKey: 'bench' });
      writeFileSync(join(dir, 'hark.yaml'), `stt:\n  mode: cloud-only\nspeech:\n  device: "null"\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`);
      const hark = new HarkProcess(['--db', join(dir, 'hark.db'), '--port', '0', '--deepgram-url', deepgram.url], {
        ...process.env,
        PATH: `${mic.dir}:${process.env.PATH}`,
        DEEPGRAM_API_KEY: 'bench',
        HARK_CONFIG: join(dir, 'hark.yaml'),
      });
      try {
        await hark.waitFor((e) => e.type === 'capture.up', 30_000, 'capture');
        await new Promise((r) => setTimeout(r, 5000));
        const pid = hark.child.pid!;
        const t0 = performance.now();
        const c0 = cpuTicks(pid);
        await new Promise((r) => setTimeout(r, MEASURE_MS));
        const c1 = cpuTicks(pid);
        const wall = performance.now() - t0;
        const cpuPct = (((c1 - c0) / TICK) * 1000 * 100) / wall;
        report(
          `daemon idle: CPU ${cpuPct.toFixed(2)} % of one core over ${(wall / 1000).toFixed(1)} s; RSS ${rssMb(pid).toFixed(1)} MB; segments ${hark.of('segment.closed').length}`,
        );
      } finally {
        hark.kill('SIGTERM');
        await hark.exited;
        await deepgram.close();
      }
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
