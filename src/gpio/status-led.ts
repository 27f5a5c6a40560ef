import './events.js';
import '../path/events.js';
import '../speech/events.js';
import '../turn/events.js';
import type { Bus } from '../core/bus.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import { LedPlayer } from './led-player.js';
import { ledState, patternFor, type LedFlag, type LedState } from './led-state.js';

export interface StatusLedOptions {
  bus: Bus;
  clock: Clock;
  /** Turn the LED on or off (the GPIO driver's setLed). */
  write: (on: boolean) => void;
  idle?: 'heartbeat' | 'off';
  /** How long a one-off failure (a playback error, a VAD fault) blinks fast. */
  errorFlashMs?: number;
  /** "Thinking" gives up after this long if nothing ends it (a turn that produced no reply). */
  thinkingMaxMs?: number;
}

/**
 * The LED, driven from bus events in this one place: every event that changes what hark is doing
 * sets or clears a flag, and the highest-priority flag picks the pattern (led-state.ts).
 *
 * Events followed: segment.open/closed/dropped (listening, then thinking), speak.* (speaking; an
 * error flashes), cascade.* (thinking while an answer is prepared), capture.down/up (mic missing),
 * mute, vad.error, and the command core's timer effects (a timer rings from done to its end). Awaiting a confirmation has no bus event of its own yet: call
 * setFlag('confirm', true/false) when the confirm frame is pushed and popped.
 */
export class StatusLed {
  private readonly flags = new Set<LedFlag>();
  private readonly player: LedPlayer;
  private readonly opts: Required<Omit<StatusLedOptions, 'write'>>;
  private readonly offs: (() => void)[] = [];
  private readonly timers = new Map<LedFlag, TimerHandle>();
  private speakingId: number | null = null;
  /** Timers ringing here (this device's and those rung for its area), by id: the LED rings while any does. */
  private readonly ringing = new Set<number>();
  private shown: LedState | null = null;

  constructor(opts: StatusLedOptions) {
    this.opts = { idle: 'heartbeat', errorFlashMs: 2000, thinkingMaxMs: 15_000, ...opts };
    this.player = new LedPlayer(opts.clock, opts.write);
    const on = this.opts.bus.on.bind(this.opts.bus);
    this.offs.push(
      on('segment.open', () => {
        this.setFlag('thinking', false);
        this.setFlag('listening', true);
      }),
      on('segment.closed', () => {
        this.setFlag('listening', false);
        this.setFlag('thinking', true, this.opts.thinkingMaxMs);
      }),
      on('segment.dropped', () => this.setFlag('listening', false)),
      on('speak.start', (e) => {
        // earcons are too short to show (a 120 ms flicker reads as a fault)
        if (e.kind === 'earcon') return;
        this.speakingId = e.id;
        this.setFlag('thinking', false);
        this.setFlag('speaking', true);
      }),
      on('speak.end', (e) => this.speechOver(e.id)),
      on('speak.stopped', (e) => this.speechOver(e.id)),
      on('speak.error', (e) => {
        this.speechOver(e.id);
        this.flash();
      }),
      on('cascade.stage', (e) => {
        if (e.stage !== 'playing') this.setFlag('thinking', true, this.opts.thinkingMaxMs);
      }),
      on('cascade.done', () => this.setFlag('thinking', false)),
      on('cascade.cancelled', () => this.setFlag('thinking', false)),
      on('cascade.failed', () => {
        this.setFlag('thinking', false);
        this.flash();
      }),
      // restartInMs null: capture was stopped on purpose (shutdown, mute), not lost.
      on('capture.down', (e) => this.setFlag('micMissing', e.restartInMs !== null)),
      on('capture.up', () => this.setFlag('micMissing', false)),
      on('mute', (e) => this.setFlag('muted', e.muted)),
      on('vad.error', () => this.flash()),
      on('router.effect', (e) => {
        if (e.type !== 'timer') return;
        // A delayed command comes due without ringing; every other due timer rings until it ends.
        if (e.event === 'done' && e.command === undefined) this.ringing.add(e.id);
        else if (e.event === 'stopped' || e.event === 'cancelled' || e.event === 'gave-up' || e.event === 'ended') this.ringing.delete(e.id);
        else return;
        this.setFlag('ringing', this.ringing.size > 0);
      }),
    );
    this.render();
  }

  get state(): LedState {
    return ledState(this.flags);
  }

  get pattern() {
    return this.player.pattern;
  }

  /** Set or clear a condition; with `forMs`, it clears itself after that long. */
  setFlag(flag: LedFlag, on: boolean, forMs?: number): void {
    this.opts.clock.clearTimer(this.timers.get(flag));
    this.timers.delete(flag);
    if (on) {
      this.flags.add(flag);
      if (forMs !== undefined)
        this.timers.set(
          flag,
          this.opts.clock.setTimer(forMs, () => this.setFlag(flag, false)),
        );
    } else this.flags.delete(flag);
    this.render();
  }

  /** Blink fast for a moment: something failed. */
  flash(): void {
    this.setFlag('errorFlash', true, this.opts.errorFlashMs);
  }

  close(): void {
    for (const off of this.offs) off();
    for (const t of this.timers.values()) this.opts.clock.clearTimer(t);
    this.timers.clear();
    this.player.stop();
  }

  private speechOver(id: number | null): void {
    if (id === null || id !== this.speakingId) return;
    this.speakingId = null;
    this.setFlag('speaking', false);
  }

  private render(): void {
    const state = this.state;
    const pattern = patternFor(state, this.opts.idle);
    if (state === this.shown && pattern === this.player.pattern) return;
    this.shown = state;
    this.player.set(pattern);
    this.opts.bus.emit('led.pattern', { state, pattern });
  }
}
