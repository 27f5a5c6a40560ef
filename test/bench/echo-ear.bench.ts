import { afterAll, beforeAll, bench, describe } from 'vitest';
import { FRAME_MS } from '../../src/audio/pcm.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { EchoCleaner } from '../../src/echo/create.js';
import { EchoGate } from '../../src/echo/gate.js';
import { SileroVad } from '../../src/vad/silero.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import { JFK_WAV } from '../support/paths.js';
import { frames, readPcm16k } from '../vad/vad-audio.js';

/**
 * What the second Silero state (src/vad/talk-over-ear.ts) costs while hark plays: the capture path's
 * VAD and segmenter over jfk.wav's frames, cycled, with hark's sound in the microphone (the gate
 * active, the canceller trusted, no frame muted), once with echo.talkOverThreshold 0.2 (the default:
 * the second state hears every frame) and once at the VAD's threshold (none is built). The echo
 * stage itself is left out (a pass-through): its cost is echo.bench.ts's and echo-drift.bench.ts's.
 *
 *   npx vitest bench --run test/bench/echo-ear.bench.ts
 *
 * The summary printed at the end gives process CPU per 32 ms frame for each and their difference;
 * vitest's own table is wall time, which on a shared machine includes waiting for a core.
 */
const jfk = frames(await readPcm16k(JFK_WAV));
const CANCEL = { mode: 'cancel' as const, fallback: 'raise' as const, raiseThreshold: 0.9, tailMs: 300 };

/** A canceller that hands each frame on as it came and is trusted: what the VAD side pays is all that is measured. */
function passThrough(): EchoCleaner {
  return {
    now: () => 0,
    arrived: () => {},
    process: (frame) => frame,
    restart: () => {},
    rawTrack: () => null,
    latency: 0,
    trusted: true,
    echoOnly: false,
    talkOver: false,
    stage: undefined as never,
  };
}

class Run {
  next = 0;
  frames = 0;
  cpu = 0;
  private cpu0: NodeJS.CpuUsage = { user: 0, system: 0 };
  private frames0 = 0;
  pipeline!: SegmentPipeline;
  vad!: SileroVad;

  constructor(
    readonly label: string,
    readonly talkOverThreshold: number,
  ) {}

  async build(): Promise<void> {
    this.vad = await SileroVad.create();
    const gate = new EchoGate({ ...CANCEL, talkOverThreshold: this.talkOverThreshold }, 0.5, new VirtualClock(0));
    const echo = passThrough();
    gate.setCanceller(echo);
    gate.playbackStarted();
    const segmenter = {
      threshold: 0.5,
      releaseThreshold: 0.35,
      prerollMs: 500,
      minSpeechMs: 96,
      hangoverMs: 600,
      maxSegmentMs: 12_000,
      minSegmentMs: 120,
      stateResetMs: 2000,
    };
    this.pipeline = new SegmentPipeline({ vad: this.vad, segmenter, gate, echo });
  }

  async frame(): Promise<void> {
    await this.pipeline.push(jfk[this.next]!);
    this.next = (this.next + 1) % jfk.length;
    this.frames++;
  }

  start = (_t: unknown, mode: 'warmup' | 'run'): void => {
    if (mode !== 'run') return;
    this.frames0 = this.frames;
    this.cpu0 = process.cpuUsage();
  };

  stop = (_t: unknown, mode: 'warmup' | 'run'): void => {
    if (mode !== 'run') return;
    const c = process.cpuUsage(this.cpu0);
    this.cpu = (c.user + c.system) / 1000 / (this.frames - this.frames0);
  };
}

const withEar = new Run('with the second state (talkOverThreshold 0.2)', 0.2);
const without = new Run('without it (talkOverThreshold 0.5)', 0.5);

beforeAll(async () => {
  await withEar.build();
  await without.build();
});

afterAll(async () => {
  const pct = (ms: number) => `${((ms / FRAME_MS) * 100).toFixed(2)}% of real time`;
  for (const r of [withEar, without]) console.log(`${r.label}: ${r.cpu.toFixed(4)} ms CPU per 32 ms frame (${pct(r.cpu)})`);
  console.log(`the second state: ${(withEar.cpu - without.cpu).toFixed(4)} ms CPU per 32 ms frame while hark plays`);
  await withEar.vad.close();
  await without.vad.close();
});

const opts = (r: Run) => ({ time: 4000, warmupTime: 500, setup: r.start, teardown: r.stop });

describe('the capture path while hark plays, per 32 ms frame (mean = wall ms/frame)', () => {
  bench(withEar.label, () => withEar.frame(), opts(withEar));
  bench(without.label, () => without.frame(), opts(without));
});
