import { EventEmitter } from 'node:events';
import recordLib, { type Recording } from 'node-record-lpcm16';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { CaptureConfig } from './config.js';
import { SAMPLE_RATE } from './pcm.js';
import type { AudioSource, AudioSourceEvents } from './source.js';
import { SupervisorPolicy, type SupervisorEffect } from './supervisor-policy.js';

export interface AlsaCaptureOptions {
  clock?: Clock;
  logger?: Logger;
  /** Audio must flow this long before the restart backoff resets to its initial value (default 10 s). */
  steadyMs?: number;
  /** After SIGTERM, how long a recorder gets to exit before SIGKILL (default 2 s). */
  killGraceMs?: number;
}

/** Keep this much of the recorder's stderr: the last line is what explains a failure. */
const STDERR_TAIL_BYTES = 1024;

interface Run {
  rec: Recording;
  pid: number | undefined;
  stderr: string;
  spawnError: NodeJS.ErrnoException | null;
  /** Odd byte left over from the previous chunk: pipes split data anywhere, even mid-sample. */
  carry: number | null;
  exited: boolean;
  killTimer: TimerHandle | null;
  closed: Promise<void>;
}

/**
 * The microphone: `arecord` (through node-record-lpcm16) producing raw s16le 16 kHz mono, kept
 * alive by a SupervisorPolicy — restart with backoff when it dies, kill it when it goes silent.
 *
 * Raw mode, not WAV: in WAV mode arecord stops after 2 GiB of data (~18.6 h at 32 kB/s), which a
 * daemon that listens all day reaches. `arecord` is looked up on PATH at every (re)start.
 */
export class AlsaCapture extends EventEmitter<AudioSourceEvents> implements AudioSource {
  readonly description: string;
  readonly device: string;
  private readonly clock: Clock;
  private readonly logger: Logger | undefined;
  private readonly killGraceMs: number;
  private readonly policy: SupervisorPolicy;
  private run: Run | null = null;
  private started = false;
  private stopped = false;

  constructor(settings: Partial<CaptureConfig> = {}, opts: AlsaCaptureOptions = {}) {
    super();
    this.device = settings.device ?? 'default';
    this.description = `ALSA ${this.device}`;
    this.clock = opts.clock ?? new SystemClock();
    this.logger = opts.logger?.child({ device: this.device });
    this.killGraceMs = opts.killGraceMs ?? 2000;
    this.policy = new SupervisorPolicy(
      {
        initialMs: settings.restartInitialMs ?? 1000,
        maxMs: settings.restartMaxMs ?? 30_000,
        watchdogMs: settings.watchdogMs ?? 2000,
        steadyMs: opts.steadyMs ?? 10_000,
      },
      this.clock,
      (e) => this.apply(e),
    );
  }

  /** Pid of the running recorder, if any (for diagnostics and leak checks). */
  get pid(): number | undefined {
    return this.run && !this.run.exited ? this.run.pid : undefined;
  }

  /** Spawns the recorder and returns; `up` follows when audio flows. A stopped capture cannot be restarted. */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.policy.start();
  }

  /** Kills the recorder and waits for it to exit; no restart follows and no timer is left behind. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.policy.stop();
    const run = this.run;
    if (!run) return;
    if (!run.exited) this.kill(run);
    await run.closed;
  }

  private apply(e: SupervisorEffect): void {
    switch (e.kind) {
      case 'spawn':
        return this.spawn();
      case 'kill':
        this.logger?.warn('capture watchdog: killing recorder', { reason: e.reason });
        if (this.run && !this.run.exited) this.kill(this.run);
        return;
      case 'up':
        this.logger?.info('capture up');
        this.emit('up', { device: this.device });
        return;
      case 'down':
        this.logger?.warn('capture down', { reason: e.reason, restartInMs: e.restartInMs });
        this.emit('down', { device: this.device, reason: e.reason, restartInMs: e.restartInMs });
        return;
    }
  }

  private spawn(): void {
    let rec: Recording;
    try {
      rec = recordLib.record({
        recorder: 'arecord',
        audioType: 'raw',
        sampleRate: SAMPLE_RATE,
        channels: 1,
        device: this.device,
      });
    } catch (err) {
      this.run = null;
      this.policy.onExit(`cannot start arecord: ${errorMessage(err)}`);
      return;
    }
    let markClosed!: () => void;
    const run: Run = {
      rec,
      pid: rec.process.pid,
      stderr: '',
      spawnError: null,
      carry: null,
      exited: false,
      killTimer: null,
      closed: new Promise((resolve) => (markClosed = resolve)),
    };
    this.run = run;
    const child = rec.process;
    // The library re-emits a non-zero exit as a string 'error' on stdout; the 'close' handler below
    // already covers it, but without a listener Node would throw it and take the daemon down.
    rec.stream().on('error', () => {});
    rec.stream().on('data', (chunk: Buffer) => this.onBytes(run, chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      run.stderr = (run.stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // A failed spawn (ENOENT, EACCES) emits 'error' and then 'close'; an unhandled 'error' would crash.
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (run.pid === undefined) run.spawnError = err;
      else this.logger?.warn('capture: signalling recorder failed', { error: err.message });
    });
    // 'close' (not 'exit'): stdout has been drained by then, so no audio is lost or arrives after `down`.
    child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      run.exited = true;
      this.clock.clearTimer(run.killTimer);
      run.killTimer = null;
      if (this.run === run) this.run = null;
      markClosed();
      if (!this.stopped) this.policy.onExit(exitReason(run, code, signal));
    });
  }

  private onBytes(run: Run, chunk: Buffer): void {
    if (this.stopped || this.run !== run || chunk.length === 0) return;
    this.policy.onData(); // first: `up` must precede the first `data`
    let bytes = chunk;
    if (run.carry !== null) {
      bytes = Buffer.concat([Buffer.of(run.carry), chunk]);
      run.carry = null;
    }
    if (bytes.length % 2 === 1) {
      run.carry = bytes[bytes.length - 1]!;
      bytes = bytes.subarray(0, bytes.length - 1);
    }
    if (bytes.length === 0) return;
    // Copy into a fresh aligned array (host byte order is little-endian on every Pi, as is s16le).
    const pcm = new Int16Array(bytes.length / 2);
    new Uint8Array(pcm.buffer).set(bytes);
    this.emit('data', pcm);
  }

  private kill(run: Run): void {
    run.rec.process.kill('SIGTERM');
    if (run.killTimer) return;
    run.killTimer = this.clock.setTimer(this.killGraceMs, () => {
      run.killTimer = null;
      if (!run.exited) run.rec.process.kill('SIGKILL');
    });
  }
}

function exitReason(run: Run, code: number | null, signal: NodeJS.Signals | null): string {
  if (run.spawnError) {
    return run.spawnError.code === 'ENOENT' ? 'arecord not found on PATH (install alsa-utils)' : `cannot start arecord: ${run.spawnError.message}`;
  }
  const lastLine = run.stderr.trim().split('\n').pop()?.trim();
  const how = signal ? `arecord killed by ${signal}` : `arecord exited with code ${code}`;
  return lastLine ? `${how}: ${lastLine}` : how;
}
