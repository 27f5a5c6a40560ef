import { EventEmitter } from 'node:events';
import { Framer } from '../../src/audio/framer.js';
import { createEchoCleaner } from '../../src/echo/create.js';
import { EchoReference } from '../../src/echo/reference.js';
import { VirtualClock } from '../../src/core/clock.js';
import { AplayStream } from '../../src/speech/aplay-stream.js';
import type { StreamReference } from '../../src/speech/playback.js';
import { synthEarcon } from '../../src/speech/earcons.js';
import { Reverb, rng } from '../support/room-sim.js';
import { espeakPhrase } from '../support/speech.js';
import type { RoomRun } from './room-run.js';

/**
 * hark with the canceller in force, minus the real processes, in the order things happen live: the
 * stream player (AplayStream, one aplay fed in step with a virtual clock) tells the echo reference what
 * it wrote as it writes it, and the microphone's 125 ms periods reach the EchoStage after they were
 * captured; so the reference holds what had been played by then, not the whole session up front
 * (runStreamRoom hands it everything first). That ordering is what prunes the reference in a long quiet.
 *
 * Each aplay process the player starts plays from its first write on, `cardMs(process)` later; the room
 * (`room`, by default room-sim's Reverb) adds `delayMs` (from `changeAtMs` on, `newDelayMs`).
 */
export interface LiveRun extends RoomRun {
  reference: EchoReference;
  processes: number;
  delays: number[];
  /** Per frame: the delay tracker's believed estimate after it (ms), NaN before the first. */
  estimates: number[];
  /** Per frame: whether the canceller had shown it cancels (converged), and why it last stopped (status.distrustedFor). */
  converged: boolean[];
  why: Array<string | null>;
  /** Per frame: the canceller's own smoothed ERLE (status.erleDb, dB). */
  erle: number[];
}

export async function runLiveRoom(opts: {
  clips: Array<{ pcm: Int16Array; atMs: number }>;
  cardMs: number | ((process: number) => number);
  delayMs: number;
  changeAtMs?: number;
  newDelayMs?: number;
  gain: number;
  room?: (x: Float32Array) => Float32Array;
  rt60Ms?: number;
  noise?: Int16Array;
  /** A person in the room, added to the microphone as it is (samples from mic sample 0). */
  near?: Float32Array;
  /** The player closes aplay after this much quiet (production: speech.playerIdleMs, 60 s). */
  idleCloseMs?: number;
  lateMs?: (period: number) => number;
  tailMs?: number;
}): Promise<LiveRun> {
  const clock = new VirtualClock(0);
  // What the player told the reference, and when (clock ms): replayed to the stage's reference in step with the microphone.
  const told: Array<{ callMs: number; tell: (reference: StreamReference) => void }> = [];
  const recorder: StreamReference = {
    streamed: (pcm, atMs, stream) => {
      const copy = pcm.slice();
      told.push({ callMs: clock.now(), tell: (t) => t.streamed(copy, atMs, stream) });
    },
    moved: (atMs) => told.push({ callMs: clock.now(), tell: (t) => t.moved?.(atMs) }),
  };
  const writes: Array<{ at: number; pcm: Int16Array; process: number }> = [];
  let spawned = 0;
  const fakeChild = () => {
    const process = ++spawned;
    const child = Object.assign(new EventEmitter(), {
      pid: process,
      stderr: Object.assign(new EventEmitter(), { setEncoding() {} }),
      stdin: Object.assign(new EventEmitter(), {
        destroyed: false,
        write(b: Buffer) {
          writes.push({ at: clock.now(), process, pcm: new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) });
          return true;
        },
        // aplay plays out what it has and exits.
        end() {
          queueMicrotask(() => child.emit('close', 0, null));
        },
        destroy() {},
      }),
      kill() {
        queueMicrotask(() => child.emit('close', null, 'SIGKILL'));
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
    idleCloseMs: opts.idleCloseMs ?? 60_000,
    stallMs: 3000,
    backoffMs: 250,
    backoffMaxMs: 5000,
    bin: 'aplay',
    clock,
    reference: recorder,
    spawnAplay: fakeChild,
    readyCheck: () => true,
  });
  for (const c of opts.clips) clock.setTimer(c.atMs, () => void player.play(c.pcm));
  const endMs = Math.max(...opts.clips.map((c) => c.atMs + c.pcm.length / 16)) + (opts.tailMs ?? 1000);
  for (let t = 0; t < endMs; t += 5) {
    clock.advanceTo(t);
    for (let i = 0; i < 4; i++) await Promise.resolve();
  }
  player.close();
  const n = Math.round(endMs * 16);
  // The card: each process plays what it was written, sample after sample, from its first write on.
  const card = new Float32Array(n);
  const cardMs = typeof opts.cardMs === 'number' ? () => opts.cardMs as number : opts.cardMs;
  const next = new Map<number, number>();
  for (const w of writes) {
    let k = next.get(w.process) ?? Math.round((w.at + cardMs(w.process)) * 16);
    for (let i = 0; i < w.pcm.length && k < n; i++) card[k++] = w.pcm[i]!;
    next.set(w.process, k);
  }
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const d = Math.round((opts.changeAtMs !== undefined && i >= opts.changeAtMs * 16 ? opts.newDelayMs! : opts.delayMs) * 16);
    x[i] = i - d >= 0 ? card[i - d]! * opts.gain : 0;
  }
  const echo = opts.room ? opts.room(x) : new Reverb(opts.rt60Ms ?? 250).process(x);
  const mic = new Int16Array(n);
  for (let i = 0; i < n; i++)
    mic[i] = Math.max(-32768, Math.min(32767, Math.round(echo[i]! + (opts.near?.[i] ?? 0) + (opts.noise ? opts.noise[i % opts.noise.length]! : 0))));
  const reference = new EchoReference();
  const made = createEchoCleaner({ filterMs: 128, residual: true, denoise: false, denoiseDb: 15 }, reference, new VirtualClock());
  if ('error' in made) throw new Error(made.error);
  const stage = made.cleaner.stage;
  const out = new Int16Array(n);
  const trusted: boolean[] = [];
  const delays: number[] = [];
  const estimates: number[] = [];
  const converged: boolean[] = [];
  const why: Array<string | null> = [];
  const erle: number[] = [];
  const rand = rng(3);
  const F = 512;
  const PERIOD = 2000;
  const framer = new Framer(F);
  let pos = 0;
  let toldUpTo = 0;
  for (let p = 0; p + PERIOD <= n; p += PERIOD) {
    const arrival = (p + PERIOD) / 16 + (opts.lateMs ? opts.lateMs(p / PERIOD) : rand() * 15);
    while (toldUpTo < told.length && told[toldUpTo]!.callMs <= arrival) told[toldUpTo++]!.tell(reference);
    stage.arrived(PERIOD, arrival);
    for (const frame of framer.frames(mic.subarray(p, p + PERIOD))) {
      out.set(stage.process(frame, pos), pos);
      trusted.push(stage.trusted);
      delays.push(stage.status.delayMs);
      const st = stage.status;
      estimates.push(st.estimate?.lagMs ?? NaN);
      converged.push(st.converged);
      why.push(st.distrustedFor);
      erle.push(st.erleDb);
      pos += F;
    }
  }
  return { mic, echo, out, trusted, delays, estimates, converged, why, erle, cpuMsPerFrame: 0, frames: trusted.length, stage, reference, processes: spawned };
}

/**
 * A timer ringing as hark rings it (KitchenTimers.ringAgain: the timer earcon, then "Timer done.",
 * every actions.timers.ringEveryMs, 6 s by default) up to `untilMs`; the earcon at speech.earconVolume's
 * default (0.5).
 */
export async function timerRing(untilMs: number, everyMs = 6000): Promise<Array<{ pcm: Int16Array; atMs: number }>> {
  const words = await espeakPhrase('Timer done.');
  const beeps = synthEarcon('timer', 0.5);
  const out: Array<{ pcm: Int16Array; atMs: number }> = [];
  for (let t = 500; t < untilMs; t += everyMs) out.push({ pcm: beeps, atMs: t }, { pcm: words, atMs: t + beeps.length / 16 + 30 });
  return out;
}
