import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bench, describe } from 'vitest';
import { HarkProcess } from '../support/hark-process.js';
import { JFK_WAV, ROOT, TINY_MODEL, outputDir } from '../support/paths.js';
import { harkUnit } from '../support/unit-env.js';

/**
 * Memory of a real `hark run` over a long recording of speech and silence: jfk.wav
 * (four phrases) and 1.5 s of silence, repeated for HARK_MEMORY_BENCH_MIN minutes of audio (default 10),
 * played with --fast, local Whisper (HARK_MEMORY_MODEL, default whisper.cpp's 1 MB test model).
 * It runs with the environment systemd/hark.service gives hark (its Environment= lines: the malloc
 * settings that keep Whisper's per-inference buffers from piling up), so the figure is the unit's.
 * VmRSS is sampled every 250 ms with the number of segments handled; reported: peak, steady state
 * (median over the second half of the run), growth per segment over the second half (least squares),
 * and the unit's MemoryMax beside them. A benchmark, not an assertion: it prints and keeps the numbers.
 */
const MINUTES = Number(process.env.HARK_MEMORY_BENCH_MIN ?? 10);
const MODEL = process.env.HARK_MEMORY_MODEL ?? TINY_MODEL;

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  const num = points.reduce((a, p) => a + (p.x - mx) * (p.y - my), 0);
  const den = points.reduce((a, p) => a + (p.x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

describe('daemon memory', () => {
  bench(
    `hark run --fast over ${MINUTES} min of speech and silence`,
    async () => {
      const dir = outputDir('bench-memory');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const silence = join(dir, 'silence.wav');
      execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', silence, 'trim', '0', '1.5']);
      const reps = Math.max(1, Math.round((MINUTES * 60) / 12.5));
      const input = join(dir, 'input.wav');
      execFileSync('sox', [...Array.from({ length: reps }, () => [JFK_WAV, silence]).flat(), input]);
      const unit = harkUnit();
      writeFileSync(join(dir, 'hark.yaml'), `speech:\n  device: "null"\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`);
      const t0 = Date.now();
      const hark = new HarkProcess(
        ['--input', input, '--fast', '--exit-at-end', '--db', join(dir, 'hark.db'), '--port', '0', '--model', MODEL, '--stt-mode', 'local-only'],
        { ...process.env, ...unit.env, HARK_CONFIG: join(dir, 'hark.yaml') },
      );
      const samples: { t: number; mb: number; segments: number }[] = [];
      const timer = setInterval(() => {
        try {
          const mb = rssMb(hark.child.pid!);
          // an exiting process has no VmRSS line any more
          if (Number.isFinite(mb)) samples.push({ t: Date.now() - t0, mb, segments: hark.of('segment.handled').length });
        } catch {
          /* exited between ticks */
        }
      }, 250);
      const exit = await hark.exited;
      clearInterval(timer);
      const second = samples.slice(Math.floor(samples.length / 2));
      const sorted = second.map((s) => s.mb).sort((a, b) => a - b);
      const steady = sorted[Math.floor(sorted.length / 2)] ?? NaN;
      const peak = Math.max(...samples.map((s) => s.mb));
      const perSegmentKb = slope(second.map((s) => ({ x: s.segments, y: s.mb }))) * 1024;
      const segments = hark.of('segment.handled').length;
      const line =
        `daemon memory: ${MINUTES} min of audio (${reps} × jfk + 1.5 s silence), ${segments} segments, ${((Date.now() - t0) / 1000).toFixed(0)} s wall, exit ${exit.code}; ` +
        `peak ${peak.toFixed(0)} MB, steady ${steady.toFixed(0)} MB (median, 2nd half), growth ${perSegmentKb.toFixed(1)} KB/segment (2nd half); ` +
        `model ${MODEL.split('/').pop()}; unit env ${JSON.stringify(unit.env)}; unit MemoryMax=${unit.memoryMax}`;
      process.stderr.write(`\n${line}\n`);
      writeFileSync(join(outputDir('bench-results'), 'memory.txt'), line + '\n');
      writeFileSync(join(dir, 'rss.tsv'), samples.map((s) => `${s.t}\t${s.mb.toFixed(1)}\t${s.segments}`).join('\n') + '\n');
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );

  /**
   * The cause, alone: whisper.cpp inferences in a bare Node process (the compiled addon from dist/,
   * so `npm run build` first), RSS after each, with glibc's defaults and with the unit's environment.
   * smart-whisper creates and frees a whisper_state (KV caches and compute buffers) per call.
   */
  bench(
    'whisper inferences: RSS after each, glibc defaults vs the unit environment',
    () => {
      const script = `
        import fs from 'node:fs';
        import { loadBinding } from ${JSON.stringify(join(ROOT, 'dist/stt/whisper/binding.js'))};
        import { readWavFile } from ${JSON.stringify(join(ROOT, 'dist/audio/wav.js'))};
        const rss = () => Math.round(Number(/VmRSS:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) / 1024);
        const b = loadBinding(true);
        const model = await b.WhisperModel.load(${JSON.stringify(MODEL)}, false);
        const loaded = rss();
        const pcm = (await readWavFile(${JSON.stringify(JFK_WAV)})).pcm;
        const f = Float32Array.from(pcm, (v) => v / 32768);
        const after = [];
        for (let i = 0; i < 12; i++) {
          const n = 16000 * (1 + (i % 4) * 3);
          await new Promise((res) => b.transcribe(model.handle, f.subarray(0, n), { language: 'en', format: 'detail', strategy: 0, n_threads: 2, no_context: true, single_segment: true, audio_ctx: Math.ceil(n / 320) + 128 }, res, () => {}));
          after.push(rss());
        }
        console.log(JSON.stringify({ loaded, after }));`;
      const unit = harkUnit();
      const run = (env: NodeJS.ProcessEnv) =>
        JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8' }).trim().split('\n').pop()!) as {
          loaded: number;
          after: number[];
        };
      const plain = run({ PATH: process.env.PATH });
      const tuned = run({ PATH: process.env.PATH, ...unit.env });
      const line = `whisper inferences (12, 1-10 s of jfk): glibc defaults: model loaded ${plain.loaded} MB, after each ${plain.after.join(' ')} MB; unit env: loaded ${tuned.loaded} MB, after each ${tuned.after.join(' ')} MB`;
      process.stderr.write(`\n${line}\n`);
      writeFileSync(join(outputDir('bench-results'), 'memory-whisper.txt'), line + '\n');
    },
    { iterations: 1, warmupIterations: 0, time: 0, warmupTime: 0 },
  );
});
