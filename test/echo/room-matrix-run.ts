import type { HarkConfig } from '../../src/config/schema.js';
import { VirtualClock } from '../../src/core/clock.js';
import { createEchoCleaner, type EchoCleaner } from '../../src/echo/create.js';
import type { EchoStatus } from '../../src/echo/canceller.js';
import { EchoReference } from '../../src/echo/reference.js';
import { EchoGate } from '../../src/echo/gate.js';
import { createVad } from '../../src/vad/create.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import { dbfs } from '../support/room-acoustics.js';
import { micSignal, rms, rng, type RoomSpec } from '../support/room-sim.js';
import type { Program } from './room-program.js';

/**
 * One room of the offline matrix: a Program (what hark plays, where a person speaks) through a
 * RoomSpec's room, the microphone through the production capture path as the daemon builds it
 * (SegmentPipeline with the config's Silero VAD and segmenter, the EchoStage made by
 * createEchoCleaner with the real speexdsp addon, the EchoGate as its fallback), fed in arecord's
 * 125 ms periods, each reaching hark 0-15 ms late, the reference from one long-lived player.
 */
const S = 16;
const PERIOD = 2000;
const T0 = 1000;
/** How far ahead of the clock the long-lived player hands hark's sound over (speech.playerLeadMs). */
const LEAD_MS = 250;

/**
 * A segment opened: where the VAD put its start, where it opened (the end of the frame that opened
 * it), and where it closed (kept or dropped as too short; Infinity: still open at the end).
 */
export interface Opened {
  vadStart: number;
  openedAt: number;
  closedAt: number;
}

/** The room's microphone for a program: the person's words each 6 dB under the echo of the second before. */
export function programMic(spec: RoomSpec, program: Program): ReturnType<typeof micSignal> {
  const quiet = micSignal(spec, program.played);
  if (!program.words.length) return quiet;
  const dry = new Float32Array(quiet.mic.length);
  for (const w of program.words) {
    const level = rms(quiet.echo, w.at - 16000, w.at) / 2;
    const gain = level / rms(w.pcm);
    for (let i = 0; i < w.pcm.length && w.at + i < dry.length; i++) dry[w.at + i]! += w.pcm[i]! * gain;
  }
  return micSignal(spec, program.played, dry, quiet.mic.length);
}

/** hark's sound as the player reports it: 20 ms blocks, each due LEAD_MS after it is handed over. */
function feeder(program: Program, reference: EchoReference): (nowMs: number) => void {
  let fed = 0;
  return (nowMs) => {
    const upTo = Math.min(program.played.length, Math.round((nowMs + LEAD_MS - T0) * S));
    for (; fed + 320 <= upTo; fed += 320) reference.streamed(program.played.subarray(fed, fed + 320), T0 + fed / S, 1);
  };
}

/**
 * The capture path over `mic`. With `settings`, the production echo stage (and its gate) cleans it
 * first; without, `mic` is taken as already cleaned (another canceller's output).
 */
export async function hear(
  mic: Int16Array,
  program: Program,
  config: HarkConfig,
  settings?: { filterMs: number; residual: boolean; knownSkewPpm?: number },
  keepSkew?: (ppm: number, errorPpm: number) => void,
): Promise<Opened[]> {
  const clock = new VirtualClock(0);
  const reference = new EchoReference();
  let cleaner: EchoCleaner | undefined;
  let gate: EchoGate | undefined;
  if (settings) {
    const made = createEchoCleaner({ ...config.echo, ...settings }, reference, clock, {}, undefined, keepSkew);
    if ('error' in made) throw new Error(made.error);
    cleaner = made.cleaner;
    gate = new EchoGate(config.echo, config.vad.threshold, clock);
    gate.setCanceller(cleaner);
  }
  const vad = await createVad(config.vad);
  const pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(config.vad), ...(gate ? { gate } : {}), ...(cleaner ? { echo: cleaner } : {}) });
  const opens: Opened[] = [];
  pipeline.on('open', (e) => opens.push({ vadStart: e.vadStartSample, openedAt: pipeline.position, closedAt: Infinity }));
  const closed = (end: number) => {
    const last = opens[opens.length - 1];
    if (last) last.closedAt = end;
  };
  pipeline.on('segment', (g) => closed(g.endSample));
  pipeline.on('dropped', (d) => closed(d.endSample));
  const feed = feeder(program, reference);
  const rand = rng(3);
  let clip = 0;
  for (let p = 0; p + PERIOD <= mic.length; p += PERIOD) {
    clock.advanceTo(T0 + (p + PERIOD) / S + rand() * 15);
    feed(clock.now());
    // speak.start / speak.end as the queue emits them, for the gate.
    const at = (clock.now() - T0) * S;
    while (gate && clip < program.clips.length && program.clips[clip]![1] <= at) {
      gate.playbackStarted();
      gate.playbackEnded();
      clip++;
    }
    if (gate && clip < program.clips.length && program.clips[clip]![0] <= at) gate.playbackStarted();
    await pipeline.push(mic.subarray(p, p + PERIOD));
  }
  await pipeline.end();
  await vad.close();
  return opens;
}

/**
 * The production echo stage alone over `mic` into `out` (no VAD): for ERLE and the residual, and for
 * its CPU per 32 ms frame (process CPU time around each call).
 */
export function clean(
  mic: Int16Array,
  program: Program,
  config: HarkConfig,
  settings: { filterMs: number; residual: boolean },
  out: Int16Array,
  watch?: (status: EchoStatus, position: number) => void,
): number {
  const clock = new VirtualClock(0);
  const reference = new EchoReference();
  const made = createEchoCleaner({ ...config.echo, ...settings }, reference, clock);
  if ('error' in made) throw new Error(made.error);
  const { cleaner } = made;
  const feed = feeder(program, reference);
  const rand = rng(3);
  let cpu = 0;
  let frames = 0;
  let pos = 0;
  for (let p = 0; p + PERIOD <= mic.length; p += PERIOD) {
    const t = T0 + (p + PERIOD) / S + rand() * 15;
    feed(t);
    cleaner.arrived(PERIOD, t);
    // 32 ms frames as the framer cuts them: a period is not a whole number of frames.
    for (; pos + 512 <= p + PERIOD; pos += 512) {
      const c0 = process.cpuUsage();
      out.set(cleaner.process(mic.subarray(pos, pos + 512), pos), pos);
      const c = process.cpuUsage(c0);
      watch?.(cleaner.stage.status, pos);
      cpu += (c.user + c.system) / 1000;
      frames++;
    }
  }
  return cpu / frames;
}

/**
 * ERLE (dB) and the residual's level (dBFS) over a part from 2 s after its echo starts: the echo's
 * power at the mic over the power left of it, in 0.5 s windows where the echo sounds (a quarter of
 * its level over the part or more). Measured on an echo-only microphone: the fan would set a floor.
 */
export function erle(echo: ArrayLike<number>, out: Int16Array, from: number, to: number): { erleDb: number; residualDbfs: number } {
  const level = rms(echo, from, to);
  let m = 0;
  let o = 0;
  let n = 0;
  for (let a = from; a + 8000 <= to; a += 8000) {
    if (rms(echo, a, a + 8000) < level / 4) continue;
    m += rms(echo, a, a + 8000) ** 2;
    o += rms(out, a, a + 8000) ** 2;
    n++;
  }
  return { erleDb: 10 * Math.log10(m / Math.max(1e-9, o)), residualDbfs: dbfs(Math.sqrt(o / Math.max(1, n))) };
}
