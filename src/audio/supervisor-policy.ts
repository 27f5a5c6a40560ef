import { Backoff } from '../core/backoff.js';
import type { Clock, TimerHandle } from '../core/clock.js';

/**
 * When to (re)start the recorder, when to give up on a silent one, and what to tell the world.
 * Pure: it is told what happened (started, bytes arrived, the process ended) and answers with
 * effects; the ALSA adapter does the spawning and killing. Timers go through the injected Clock.
 *
 * Rules:
 * - Every recorder run that ends (exit, crash, watchdog kill) reports `down` with the reason and the
 *   delay before the next try — also when the run never delivered audio, so a technician sees each
 *   failed attempt and the backoff growing in the log.
 * - The delay starts at `initialMs` and doubles per consecutive failure up to `maxMs`.
 * - It resets to `initialMs` only after a run delivered audio for `steadyMs`. Resetting on the
 *   first byte would let a flapping USB microphone (a burst of audio, then a crash) restart every
 *   second forever; requiring a steady stretch makes such a device back off like a dead one.
 * - `up` is reported when data first flows after a (re)start, not at spawn: arecord starts fine
 *   on a device that then delivers nothing.
 * - Watchdog: no bytes for `watchdogMs` while a recorder runs → kill it; the run's `down` then
 *   carries "no audio for N ms" rather than the exit status the kill caused.
 */
export interface SupervisorSettings {
  initialMs: number;
  maxMs: number;
  watchdogMs: number;
  steadyMs: number;
}

export type SupervisorEffect =
  { kind: 'spawn' } | { kind: 'kill'; reason: string } | { kind: 'up' } | { kind: 'down'; reason: string; restartInMs: number | null };

type State = 'idle' | 'running' | 'waiting' | 'stopped';

export class SupervisorPolicy {
  private state: State = 'idle';
  private readonly backoff: Backoff;
  private upSince: number | null = null;
  private lastDataAt = 0;
  private killReason: string | null = null;
  private watchdog: TimerHandle | null = null;
  private restart: TimerHandle | null = null;

  constructor(
    private readonly settings: SupervisorSettings,
    private readonly clock: Clock,
    private readonly effect: (e: SupervisorEffect) => void,
  ) {
    this.backoff = new Backoff(settings.initialMs, settings.maxMs);
  }

  /** The delay the next failure will wait (for logs and tests). */
  get backoffMs(): number {
    return this.backoff.nextMs;
  }

  get running(): boolean {
    return this.state === 'running';
  }

  start(): void {
    if (this.state !== 'idle') return;
    this.launch();
  }

  /** Bytes arrived from the current recorder. Cheap: called for every chunk. */
  onData(): void {
    if (this.state !== 'running') return;
    this.lastDataAt = this.clock.now();
    if (this.upSince === null) {
      this.upSince = this.lastDataAt;
      this.effect({ kind: 'up' });
    }
  }

  /** The current recorder is gone (exited, crashed, failed to spawn). */
  onExit(reason: string): void {
    if (this.state !== 'running') return;
    this.clearTimers();
    const now = this.clock.now();
    if (this.upSince !== null && now - this.upSince >= this.settings.steadyMs) this.backoff.reset();
    const delay = this.backoff.fail();
    const why = this.killReason ?? reason;
    this.killReason = null;
    this.upSince = null;
    this.state = 'waiting';
    this.restart = this.clock.setTimer(delay, () => {
      this.restart = null;
      if (this.state === 'waiting') this.launch();
    });
    this.effect({ kind: 'down', reason: why, restartInMs: delay });
  }

  /** No restart after this; reports `down` (not restarting) if audio was flowing. */
  stop(): void {
    if (this.state === 'stopped') return;
    const wasUp = this.state === 'running' && this.upSince !== null;
    this.state = 'stopped';
    this.clearTimers();
    if (wasUp) this.effect({ kind: 'down', reason: 'stopped', restartInMs: null });
  }

  private launch(): void {
    this.state = 'running';
    this.upSince = null;
    this.killReason = null;
    this.lastDataAt = this.clock.now();
    this.effect({ kind: 'spawn' });
    if (this.state === 'running') this.armWatchdog(this.settings.watchdogMs);
  }

  /**
   * One timer per silence window, re-armed from the last byte's time when it fires, rather than a
   * clear-and-set on every chunk: the recorder delivers ~30 chunks a second, all day.
   */
  private armWatchdog(inMs: number): void {
    this.watchdog = this.clock.setTimer(inMs, () => {
      this.watchdog = null;
      if (this.state !== 'running' || this.killReason !== null) return;
      const silentFor = this.clock.now() - this.lastDataAt;
      if (silentFor < this.settings.watchdogMs) return this.armWatchdog(this.settings.watchdogMs - silentFor);
      this.killReason = `no audio for ${this.settings.watchdogMs} ms`;
      this.effect({ kind: 'kill', reason: this.killReason });
    });
  }

  private clearTimers(): void {
    this.clock.clearTimer(this.watchdog);
    this.clock.clearTimer(this.restart);
    this.watchdog = null;
    this.restart = null;
  }
}
