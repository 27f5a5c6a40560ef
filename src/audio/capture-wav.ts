import { EventEmitter } from 'node:events';
import { basename } from 'node:path';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock.js';
import { HarkError } from '../core/errors.js';
import { FRAME_SAMPLES, SAMPLE_RATE } from './pcm.js';
import type { AudioSource, AudioSourceEvents } from './source.js';
import { readWavFile } from './wav.js';

export type Pace = 'realtime' | 'fast';

export interface WavFileSourceOptions {
  /** 'realtime' plays the file at the speed a microphone would; 'fast' as fast as consumers allow. */
  pace?: Pace;
  /** Samples per `data` chunk (default one 32 ms frame). */
  chunkSamples?: number;
  /** Drives realtime pacing; a VirtualClock makes it deterministic in tests. */
  clock?: Clock;
}

/**
 * A WAV file (or samples already in memory) played as if it were a microphone: for tests, demos and
 * `hark segment`. Emits `up`, then `data` chunks in order, then `end`.
 */
export class WavFileSource extends EventEmitter<AudioSourceEvents> implements AudioSource {
  readonly description: string;
  private readonly input: string | Int16Array;
  private readonly pace: Pace;
  private readonly chunk: number;
  private readonly clock: Clock;
  private state: 'idle' | 'running' | 'done' = 'idle';
  private timer: TimerHandle | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private finishedResolve!: () => void;
  /** Resolves after `end` has been emitted, or when stopped. */
  readonly finished: Promise<void> = new Promise((resolve) => (this.finishedResolve = resolve));

  constructor(input: string | Int16Array, opts: WavFileSourceOptions = {}) {
    super();
    this.input = input;
    this.pace = opts.pace ?? 'fast';
    this.chunk = opts.chunkSamples ?? FRAME_SAMPLES;
    if (!Number.isInteger(this.chunk) || this.chunk <= 0) throw new HarkError(`chunkSamples must be a positive whole number (got ${this.chunk})`);
    this.clock = opts.clock ?? new SystemClock();
    this.description = typeof input === 'string' ? `file ${basename(input)}` : `memory (${input.length} samples)`;
  }

  /** Reads and decodes the file (rejecting with a HarkError if it is not a usable WAV), then starts emitting. */
  async start(): Promise<void> {
    if (this.state !== 'idle') return;
    this.state = 'running';
    let pcm: Int16Array;
    try {
      pcm = typeof this.input === 'string' ? (await readWavFile(this.input)).pcm : this.input;
    } catch (err) {
      this.finish();
      throw err;
    }
    if (this.state !== 'running') return; // stopped while reading
    this.emit('up', { device: this.description });
    if (this.pace === 'fast') this.runFast(pcm, 0);
    else this.runRealtime(pcm, this.clock.now(), 0);
  }

  async stop(): Promise<void> {
    this.clock.clearTimer(this.timer);
    this.timer = null;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    this.finish();
  }

  /**
   * One chunk per macrotask: setImmediate (not a tight loop, not process.nextTick) lets I/O callbacks
   * and promise continuations of consumers run between chunks, so a file of an hour does not queue
   * an hour of audio before anyone sees the first frame.
   */
  private runFast(pcm: Int16Array, at: number): void {
    this.immediate = null;
    if (this.state !== 'running') return;
    if (at >= pcm.length) return this.end();
    const next = Math.min(pcm.length, at + this.chunk);
    this.emit('data', pcm.subarray(at, next));
    this.immediate = setImmediate(() => this.runFast(pcm, next));
  }

  /** Chunk i is due at t0 + its end time, computed from t0 each time so timer lateness never accumulates into drift. */
  private runRealtime(pcm: Int16Array, t0: number, at: number): void {
    this.timer = null;
    if (this.state !== 'running') return;
    if (at >= pcm.length) return this.end();
    const next = Math.min(pcm.length, at + this.chunk);
    const due = t0 + (next * 1000) / SAMPLE_RATE;
    this.timer = this.clock.setTimer(due - this.clock.now(), () => {
      this.timer = null;
      if (this.state !== 'running') return;
      this.emit('data', pcm.subarray(at, next));
      this.runRealtime(pcm, t0, next);
    });
  }

  private end(): void {
    this.finish();
    this.emit('end');
  }

  private finish(): void {
    this.state = 'done';
    this.finishedResolve();
  }
}
