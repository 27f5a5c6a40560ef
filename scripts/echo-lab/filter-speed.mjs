// What a longer echo filter costs. The production echo stage (dist/echo/create.js:
// hark-aec's speexdsp and hark's delay tracking) at each echo.filterMs, residual suppression
// on and off, on 20 s of a played signal and its echo; process CPU time per 32 ms frame (not wall
// time). Run from a built hark directory, here or inside pi-check's emulated arm64 root:
//   node scripts/echo-lab/filter-speed.mjs [/opt/hark] [128,256,384,512]
// Prints one JSON line per setting. Under qemu-user the figure is the emulator's cost, an upper bound
// for a Pi; on a loaded machine CPU time still grows with cache contention: compare within one run.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const root = process.argv[2] ?? process.cwd();
const filters = (process.argv[3] ?? '128,256,384,512').split(',').map(Number);
const { createEchoCleaner } = await import(pathToFileURL(join(root, 'dist', 'echo', 'create.js')).href);
const { EchoReference } = await import(pathToFileURL(join(root, 'dist', 'echo', 'reference.js')).href);

const S = 16000;
const FRAME = 512;
const seconds = Number(process.env.AEC_SECONDS ?? 20);
// Speech-like bursts (noise under a slow envelope) and their echo 50 ms late with a 300 ms decaying
// tail (the filter's work does not depend on the room, but a tail keeps it adapting), over a quiet hiss.
let seed = 7;
const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
const played = new Int16Array(seconds * S);
for (let i = 0; i < played.length; i++) played[i] = Math.round(8000 * rnd() * (0.5 + 0.5 * Math.sin((2 * Math.PI * i) / (S * 0.7))));
const taps = Array.from({ length: 40 }, (_, k) => [800 + k * 120, 0.5 * Math.exp(-k / 8) * (k % 2 ? -1 : 1)]);
const mic = new Int16Array(played.length);
for (let i = 0; i < mic.length; i++) {
  let v = 0.7 * (played[i - 800] ?? 0);
  for (const [d, g] of taps) v += g * (played[i - d] ?? 0);
  mic[i] = Math.max(-32768, Math.min(32767, Math.round(v + 200 * rnd())));
}

for (const filterMs of filters) {
  for (const residual of [true, false]) {
    let now = 0;
    const reference = new EchoReference();
    reference.played(played, 0);
    const made = createEchoCleaner({ filterMs, residual, denoise: false, denoiseDb: 15 }, reference, { now: () => now });
    if ('error' in made) {
      console.log(JSON.stringify({ ok: false, error: made.error }));
      process.exit(1);
    }
    const { cleaner } = made;
    let cpu = 0;
    let frames = 0;
    for (let f = 0; f + FRAME <= mic.length; f += FRAME) {
      now = ((f + FRAME) * 1000) / S;
      cleaner.arrived(FRAME, now);
      const t0 = process.cpuUsage();
      cleaner.process(mic.subarray(f, f + FRAME), f);
      const d = process.cpuUsage(t0);
      cpu += (d.user + d.system) / 1000;
      frames++;
    }
    console.log(
      JSON.stringify({
        arch: process.arch,
        filterMs,
        residual,
        frames,
        cpuMsPer32msFrame: +(cpu / frames).toFixed(3),
        erleDb: Math.round(cleaner.stage.status.erleDb),
      }),
    );
  }
}
