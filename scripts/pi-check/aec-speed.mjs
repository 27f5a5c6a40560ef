// pi-check's echo-speed step (the canceller's CPU per frame under arm64 emulation):
// the production echo stage (dist/echo/create.js: hark-aec's speexdsp plus hark's delay
// tracking) on 30 s of a played signal and its echo, timed per 32 ms frame with process.cpuUsage
// (CPU time, not wall time), and the memory it adds. Run from a built hark directory:
//   node scripts/pi-check/aec-speed.mjs [/opt/hark]
// Prints one JSON line. Under qemu-user the figure is the emulator's cost, an upper bound for a Pi.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const root = process.argv[2] ?? process.cwd();
const load = (p) => import(pathToFileURL(join(root, 'dist', p)).href);
const { createEchoCleaner } = await load('echo/create.js');
const { EchoReference } = await load('echo/reference.js');
const { echoSection } = await load('echo/config.js');
// The settings a device runs with (the config's defaults), not a copy that can fall behind them.
const echo = echoSection.parse(undefined);

const S = 16000;
const FRAME = 512;
const seconds = Number(process.env.AEC_SECONDS ?? 30);
// The speaker's clock against the microphone's for the second run: a USB microphone beside the
// headphone jack or HDMI is two crystals, and following their skew adds the resampler's cost.
const driftPpm = Number(process.env.AEC_PPM ?? 100);

/** One run of the stage over `seconds` of echo, the speaker `ppm` off the microphone's clock. */
function run(ppm) {
  // A played signal with speech-like bursts (noise shaped by a slow envelope), and its echo 50 ms late
  // at -3 dB plus a quiet room, the played sound read on the speaker's clock.
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) * 2 - 1;
  const played = new Int16Array(seconds * S);
  for (let i = 0; i < played.length; i++) played[i] = Math.round(8000 * rnd() * (0.5 + 0.5 * Math.sin((2 * Math.PI * i) / (S * 0.7))));
  const at = (x) => {
    const i = Math.floor(x);
    const a = played[i] ?? 0;
    return a + ((played[i + 1] ?? 0) - a) * (x - i);
  };
  const ratio = 1 + ppm * 1e-6;
  const mic = new Int16Array(played.length);
  for (let i = 0; i < mic.length; i++) mic[i] = Math.round(0.7 * at(i * ratio - 800) + 200 * rnd());

  let now = 0;
  const clock = { now: () => now };
  const reference = new EchoReference();
  reference.played(played, 0);
  const rss0 = process.memoryUsage().rss;
  const made = createEchoCleaner(
    { filterMs: echo.filterMs, residual: echo.residual, denoise: echo.denoise, denoiseDb: echo.denoiseDb, followSkew: echo.followSkew },
    reference,
    clock,
  );
  if ('error' in made) {
    console.log(JSON.stringify({ ok: false, error: made.error }));
    process.exit(1);
  }
  const { cleaner } = made;
  const times = [];
  for (let f = 0; f + FRAME <= mic.length; f += FRAME) {
    now = ((f + FRAME) * 1000) / S;
    cleaner.arrived(FRAME, now);
    const frame = mic.subarray(f, f + FRAME);
    const t0 = process.cpuUsage();
    cleaner.process(frame, f);
    const d = process.cpuUsage(t0);
    times.push((d.user + d.system) / 1000);
  }
  const rssAdded = (process.memoryUsage().rss - rss0) / 1048576;
  // After the first 10 s: what a device that runs all day pays per frame. The first seconds carry
  // one-off costs: the first delay search compiles its code and sizes its FFTs (~70 ms in one frame
  // here), and the filter starts over at the echo's place once found, replaying its history.
  const steadyFrom = Math.round((10 * S) / FRAME);
  const steady = times.slice(steadyFrom);
  const steadyMean = steady.length ? steady.reduce((a, b) => a + b, 0) / steady.length : NaN;
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  const pct = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  const st = cleaner.stage.status;
  const clocks = st.clocks ?? {};
  return {
    ppm,
    frames: times.length,
    msPerFrame: { mean: +mean.toFixed(3), p50: +pct(0.5).toFixed(3), p95: +pct(0.95).toFixed(3), steadyMean: +steadyMean.toFixed(3) },
    rssAddedMb: +rssAdded.toFixed(1),
    delayMs: st.delayMs,
    erleDb: Math.round(st.erleDb),
    converged: st.converged,
    followedPpm: clocks.followedPpm === undefined ? null : +Number(clocks.followedPpm).toFixed(2),
  };
}

const one = run(0);
const drifted = run(driftPpm);
console.log(JSON.stringify({ ok: true, arch: process.arch, filterMs: echo.filterMs, ...one, drifted }));
