import { createNativeCanceller } from '../../src/echo/addon.js';
import { EchoStage, type EchoStageOptions } from '../../src/echo/canceller.js';
import { Framer } from '../../src/audio/framer.js';
import { createEchoCleaner } from '../../src/echo/create.js';
import { EchoReference } from '../../src/echo/reference.js';
import { VirtualClock } from '../../src/core/clock.js';
import { synthEarcon } from '../../src/speech/earcons.js';
import { rms, rng, Reverb } from '../support/room-sim.js';
import { espeakPhrase } from '../support/speech.js';

/**
 * hark's sound through the simulated room, the microphone through the production EchoStage (the
 * native speexdsp canceller, the reference timeline, the delay tracker), chunk by chunk as arecord
 * delivers them (125 ms periods, each arriving 0-15 ms late). Returns the signals for measuring.
 */
export interface RoomRun {
  mic: Int16Array;
  echo: Float32Array;
  out: Int16Array;
  /** Per 32 ms frame: was the canceller trusted after it. */
  trusted: boolean[];
  /** Per 32 ms frame: did the canceller vouch that someone talked over hark in it (EchoStage.talkOver); runRoom fills it. */
  talkOver?: boolean[];
  /** Per 32 ms frame: the bulk delay in use after it (ms); only runStreamRoom fills it. */
  delays?: number[];
  cpuMsPerFrame: number;
  frames: number;
  stage: EchoStage;
}

export function runRoom(opts: {
  ref: Int16Array;
  delayMs: number;
  /** From this sample on, the delay is newDelayMs (a card replugged, another latency). */
  changeAt?: number;
  newDelayMs?: number;
  gain: number;
  rt60Ms: number;
  near?: Float32Array;
  noise?: Int16Array;
  settings?: Partial<{ filterMs: number; residual: boolean; denoise: boolean; denoiseDb: number }>;
  stage?: Partial<EchoStageOptions>;
}): RoomRun {
  const { ref } = opts;
  const n = ref.length + 16000;
  // hark's sound delayed (by the delay in force at each instant) and through the room.
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const d = Math.round((opts.changeAt !== undefined && i >= opts.changeAt ? opts.newDelayMs! : opts.delayMs) * 16);
    const k = i - d;
    x[i] = k >= 0 && k < ref.length ? ref[k]! * opts.gain : 0;
  }
  const echo = new Reverb(opts.rt60Ms).process(x);
  const mic = new Int16Array(n);
  for (let i = 0; i < n; i++)
    mic[i] = Math.max(-32768, Math.min(32767, Math.round(echo[i]! + (opts.near?.[i] ?? 0) + (opts.noise ? opts.noise[i % opts.noise.length]! : 0))));
  const clock = new VirtualClock();
  const reference = new EchoReference();
  const made = createEchoCleaner({ filterMs: 128, residual: true, denoise: false, denoiseDb: 15, ...opts.settings }, reference, clock, opts.stage);
  if ('error' in made) throw new Error(made.error);
  const stage = made.cleaner.stage;
  const t0 = 1000;
  reference.played(ref, t0);
  const out = new Int16Array(n);
  const trusted: boolean[] = [];
  const talkOver: boolean[] = [];
  const rand = rng(3);
  const F = 512;
  const PERIOD = 2000;
  // arecord's periods cut into the VAD's frames, as the capture pipeline does (SegmentPipeline).
  const framer = new Framer(F);
  let cpu = 0;
  let frames = 0;
  let pos = 0;
  for (let p = 0; p + PERIOD <= n; p += PERIOD) {
    stage.arrived(PERIOD, t0 + (p + PERIOD) / 16 + rand() * 15);
    for (const frame of framer.frames(mic.subarray(p, p + PERIOD))) {
      const c0 = process.cpuUsage();
      const o = stage.process(frame, pos);
      const c = process.cpuUsage(c0);
      cpu += (c.user + c.system) / 1000;
      frames++;
      out.set(o, pos);
      trusted.push(stage.trusted);
      talkOver.push(stage.talkOver);
      pos += F;
    }
  }
  return { mic, echo, out, trusted, talkOver, cpuMsPerFrame: cpu / frames, frames, stage };
}

/** ERLE (dB) over [from, to) samples: echo power in the mic over what is left of it in the output. */
export function erleDb(run: RoomRun, from: number, to: number): number {
  return 20 * Math.log10(rms(run.mic, from, to) / Math.max(1e-9, rms(run.out, from, to)));
}

/**
 * hark's ring as the speech queue plays it: "Timer done." at 0.3 s, then every 2 s up to `untilMs` the
 * timer's beeps (one tone keyed on and off), with the timer's name said after them when `named`.
 */
export async function ringClips(untilMs: number, named: boolean): Promise<Array<{ pcm: Int16Array; atMs: number }>> {
  const ringText = await espeakPhrase('Timer done.');
  const beeps = synthEarcon('timer', 0.8);
  const out: Array<{ pcm: Int16Array; atMs: number }> = [{ pcm: ringText, atMs: 300 }];
  for (let t = 2000; t < untilMs; t += 2000) {
    out.push({ pcm: beeps, atMs: t });
    if (named) out.push({ pcm: ringText, atMs: t + beeps.length / 16 + 20 });
  }
  return out;
}

/** 10 s of a quiet hiss (±100), the same every time: the room is never silent. */
export function hiss(): Int16Array {
  const noise = new Int16Array(160_000);
  const r = rng(7);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.round((r() - 0.5) * 200);
  return noise;
}

/**
 * Where hark's sound was cancelled less than `db`: the start (s) of each 1 s window, every 0.5 s from
 * `fromMs` on, that holds echo (rms 1000 or more) and whose ERLE falls under it.
 */
export function secondsUnder(run: RoomRun, fromMs: number, db: number): number[] {
  const out: number[] = [];
  for (let a = fromMs * 16; a + 16000 <= run.mic.length - 16000; a += 8000) {
    if (rms(run.echo, a, a + 16000) < 1000) continue;
    if (erleDb(run, a, a + 16000) < db) out.push(Math.round(a / 1600) / 10);
  }
  return out;
}

/** Stretches of `win` samples where the reference is sounding (the echo carries energy). */
export function activeWindows(run: RoomRun, from: number, to: number, win = 8000): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const level = rms(run.echo, 0, run.echo.length);
  for (let a = from; a + win <= to; a += win) if (rms(run.echo, a, a + win) > level / 4) out.push([a, a + win]);
  return out;
}

export { createNativeCanceller };

/**
 * Several clips, each its own aplay process: hark stamps each at `atMs`, but each starts sounding
 * `startMs` later (aplay's start-up, different every time) and then `delayMs` (the card) later still.
 */
export function runRoomClips(opts: {
  clips: Array<{ pcm: Int16Array; atMs: number; startMs: number }>;
  delayMs: number;
  gain: number;
  rt60Ms: number;
}): RoomRun & { reference: EchoReference } {
  const endMs = Math.max(...opts.clips.map((c) => c.atMs + c.startMs + c.pcm.length / 16)) + 1000;
  const n = Math.round(endMs * 16);
  const x = new Float32Array(n);
  for (const c of opts.clips) {
    const at = Math.round((c.atMs + c.startMs + opts.delayMs) * 16);
    for (let i = 0; i < c.pcm.length && at + i < n; i++) x[at + i]! += c.pcm[i]! * opts.gain;
  }
  const echo = new Reverb(opts.rt60Ms).process(x);
  const mic = new Int16Array(n);
  for (let i = 0; i < n; i++) mic[i] = Math.max(-32768, Math.min(32767, Math.round(echo[i]!)));
  const reference = new EchoReference();
  const made = createEchoCleaner({ filterMs: 128, residual: true, denoise: false, denoiseDb: 15 }, reference, new VirtualClock());
  if ('error' in made) throw new Error(made.error);
  const stage = made.cleaner.stage;
  const out = new Int16Array(n);
  const trusted: boolean[] = [];
  const F = 512;
  let next = 0;
  const clips = [...opts.clips].sort((a, b) => a.atMs - b.atMs);
  let cpu = 0;
  let frames = 0;
  for (let p = 0; p + F <= n; p += F) {
    // hark starts each clip at its time (in real time, before the mic hears it).
    while (next < clips.length && clips[next]!.atMs <= (p + F) / 16) reference.played(clips[next]!.pcm, clips[next++]!.atMs);
    stage.arrived(F, (p + F) / 16);
    const c0 = process.cpuUsage();
    out.set(stage.process(mic.subarray(p, p + F), p), p);
    const c = process.cpuUsage(c0);
    cpu += (c.user + c.system) / 1000;
    frames++;
    trusted.push(stage.trusted);
  }
  return { mic, echo, out, trusted, cpuMsPerFrame: cpu / frames, frames, stage, reference };
}

/**
 * Clips played through the production stream player (AplayStream: one aplay, fed in step with a
 * virtual clock, the mix as the echo reference) into the simulated room: the card plays what was
 * written from its first write on, `cardMs` later, and the room adds `delayMs` (from `changeAt` ms
 * on, `newDelayMs`). The microphone then goes through the production EchoStage in arecord's 125 ms
 * periods. This is hark with the canceller in force, minus the real processes.
 */
export async function runStreamRoom(opts: {
  clips: Array<{ pcm: Int16Array; atMs: number }>;
  cardMs: number;
  delayMs: number;
  changeAtMs?: number;
  newDelayMs?: number;
  gain: number;
  rt60Ms: number;
  noise?: Int16Array;
  near?: Float32Array;
  tailMs?: number;
  /** How late (ms) the microphone's k-th 125 ms period reaches hark; default 0-15 ms at random. */
  lateMs?: (period: number) => number;
}): Promise<RoomRun & { reference: EchoReference; processes: number }> {
  const { AplayStream } = await import('../../src/speech/aplay-stream.js');
  const { EventEmitter } = await import('node:events');
  const clock = new VirtualClock(0);
  const reference = new EchoReference();
  const writes: Array<{ at: number; pcm: Int16Array }> = [];
  const fakeChild = () => {
    const child = Object.assign(new EventEmitter(), {
      pid: 1,
      stderr: Object.assign(new EventEmitter(), { setEncoding() {} }),
      stdin: Object.assign(new EventEmitter(), {
        destroyed: false,
        write(b: Buffer) {
          writes.push({ at: clock.now(), pcm: new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) });
          return true;
        },
        end() {},
        destroy() {},
      }),
      kill() {
        return true;
      },
    });
    queueMicrotask(() => child.emit('spawn'));
    return child as never;
  };
  const player = new AplayStream({
    device: 'room',
    sampleRate: 16000,
    leadMs: 120,
    tickMs: 20,
    idleCloseMs: 3_600_000,
    stallMs: 3000,
    backoffMs: 250,
    backoffMaxMs: 5000,
    bin: 'aplay',
    clock,
    reference: reference,
    spawnAplay: fakeChild,
    readyCheck: () => true,
  });
  for (const c of opts.clips) clock.setTimer(c.atMs, () => void player.play(c.pcm));
  const endMs = Math.max(...opts.clips.map((c) => c.atMs + c.pcm.length / 16)) + (opts.tailMs ?? 1000);
  for (let t = 0; t < endMs; t += 5) {
    clock.advanceTo(t);
    await Promise.resolve();
  }
  player.close();
  const n = Math.round(endMs * 16);
  // The card: what was written, sample after sample, from the first write on, cardMs later.
  const card = new Float32Array(n);
  let k = writes.length ? Math.round((writes[0]!.at + opts.cardMs) * 16) : n;
  for (const w of writes) for (let i = 0; i < w.pcm.length && k < n; i++) card[k++] = w.pcm[i]!;
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const d = Math.round((opts.changeAtMs !== undefined && i >= opts.changeAtMs * 16 ? opts.newDelayMs! : opts.delayMs) * 16);
    x[i] = i - d >= 0 ? card[i - d]! * opts.gain : 0;
  }
  const echo = new Reverb(opts.rt60Ms).process(x);
  const mic = new Int16Array(n);
  for (let i = 0; i < n; i++)
    mic[i] = Math.max(-32768, Math.min(32767, Math.round(echo[i]! + (opts.near?.[i] ?? 0) + (opts.noise ? opts.noise[i % opts.noise.length]! : 0))));
  const made = createEchoCleaner({ filterMs: 128, residual: true, denoise: false, denoiseDb: 15 }, reference, new VirtualClock());
  if ('error' in made) throw new Error(made.error);
  const stage = made.cleaner.stage;
  const out = new Int16Array(n);
  const trusted: boolean[] = [];
  const delays: number[] = [];
  const rand = rng(3);
  const F = 512;
  const PERIOD = 2000;
  const framer = new Framer(F);
  let cpu = 0;
  let frames = 0;
  let pos = 0;
  for (let p = 0; p + PERIOD <= n; p += PERIOD) {
    stage.arrived(PERIOD, (p + PERIOD) / 16 + (opts.lateMs ? opts.lateMs(p / PERIOD) : rand() * 15));
    for (const frame of framer.frames(mic.subarray(p, p + PERIOD))) {
      const c0 = process.cpuUsage();
      const o = stage.process(frame, pos);
      const c = process.cpuUsage(c0);
      cpu += (c.user + c.system) / 1000;
      frames++;
      out.set(o, pos);
      trusted.push(stage.trusted);
      delays.push(stage.status.delayMs);
      pos += F;
    }
  }
  return { mic, echo, out, trusted, delays, cpuMsPerFrame: cpu / frames, frames, stage, reference, processes: player.processes };
}
