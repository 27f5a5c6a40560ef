import type { Clock, TimerHandle } from '../core/clock.js';

export interface ButtonSettings {
  /** A level must hold this long to count (contact bounce). */
  debounceMs: number;
  /** A press shorter than this is a tap. */
  tapMaxMs: number;
  /** Held this long, the press toggles mute instead of talking. */
  muteHoldMs: number;
}

export type ButtonEffect =
  | { type: 'down' }
  | { type: 'up'; heldMs: number }
  /** A short press. `whileSpeaking`: hark was speaking when it went down (so it was stopped). */
  | { type: 'tap'; heldMs: number; whileSpeaking: boolean; muted: boolean }
  /** The press reached muteHoldMs (still held). */
  | { type: 'hold'; heldMs: number }
  /** Silence hark now: the button is an always-valid barge-in. */
  | { type: 'barge-in' }
  /** Open a push-to-talk segment (with pre-roll). */
  | { type: 'ptt-start' }
  /** Close it with no hangover. `cancelled`: it was a tap to stop hark or a hold to mute, not speech: drop the segment. */
  | { type: 'ptt-end'; cancelled: boolean }
  | { type: 'mute'; muted: boolean };

/**
 * What a person means with the one button, from its raw level. Pure: time is the clock.
 *
 * - A level counts once it has held for debounceMs (bounces shorter than that are nothing).
 * - Press: hark stops talking at once if it was (barge-in on the press, not the release: a person
 *   who presses wants silence now), and push-to-talk starts, unless muted.
 * - Release: push-to-talk ends; a release before tapMaxMs is a tap. A tap that silenced hark
 *   cancels its push-to-talk segment (it was a "stop", not words).
 * - Held for muteHoldMs: mute toggles there and then (the LED answers while the finger is still
 *   down), and the push-to-talk segment is cancelled.
 * - A button that reads pressed at start-up (stuck, or a missing pull-up) is ignored until released.
 */
export class ButtonGestures {
  private readonly s: ButtonSettings;
  private readonly clock: Clock;
  private readonly isSpeaking: () => boolean;
  private readonly onEffect: (e: ButtonEffect) => void;

  private raw: boolean;
  private stable: boolean;
  private debounce: TimerHandle | null = null;
  private ignoreUntilRelease: boolean;

  private downAt = 0;
  private holdTimer: TimerHandle | null = null;
  private holdFired = false;
  private pttOpen = false;
  private speakingAtDown = false;
  private isMuted: boolean;

  constructor(opts: {
    settings: ButtonSettings;
    clock: Clock;
    isSpeaking: () => boolean;
    onEffect: (e: ButtonEffect) => void;
    muted?: boolean;
    initiallyPressed?: boolean;
  }) {
    this.s = opts.settings;
    this.clock = opts.clock;
    this.isSpeaking = opts.isSpeaking;
    this.onEffect = opts.onEffect;
    this.isMuted = opts.muted ?? false;
    this.raw = this.stable = opts.initiallyPressed ?? false;
    this.ignoreUntilRelease = this.stable;
  }

  get muted(): boolean {
    return this.isMuted;
  }

  /** The debounced state. */
  get pressed(): boolean {
    return this.stable && !this.ignoreUntilRelease;
  }

  /** Mute changed elsewhere (a voice command, the debug page): the next long hold toggles from here. */
  setMuted(muted: boolean): void {
    this.isMuted = muted;
  }

  /** The raw level from the driver (true = pressed), bounces and all. */
  level(pressed: boolean): void {
    this.raw = pressed;
    if (pressed === this.stable) {
      // bounced back before it counted
      this.clock.clearTimer(this.debounce);
      this.debounce = null;
      return;
    }
    if (this.s.debounceMs <= 0) return this.commit(pressed);
    if (this.debounce) return; // already timing this change
    this.debounce = this.clock.setTimer(this.s.debounceMs, () => {
      this.debounce = null;
      if (this.raw !== this.stable) this.commit(this.raw);
    });
  }

  private commit(pressed: boolean): void {
    this.stable = pressed;
    if (this.ignoreUntilRelease) {
      if (!pressed) this.ignoreUntilRelease = false;
      return;
    }
    if (pressed) this.down();
    else this.up();
  }

  private down(): void {
    this.downAt = this.clock.now();
    this.holdFired = false;
    this.speakingAtDown = this.isSpeaking();
    this.emit({ type: 'down' });
    if (this.speakingAtDown) this.emit({ type: 'barge-in' });
    if (!this.isMuted) {
      this.pttOpen = true;
      this.emit({ type: 'ptt-start' });
    }
    this.holdTimer = this.clock.setTimer(this.s.muteHoldMs, () => this.hold());
  }

  private hold(): void {
    this.holdTimer = null;
    this.holdFired = true;
    this.emit({ type: 'hold', heldMs: this.clock.now() - this.downAt });
    if (this.pttOpen) {
      this.pttOpen = false;
      this.emit({ type: 'ptt-end', cancelled: true });
    }
    this.isMuted = !this.isMuted;
    this.emit({ type: 'mute', muted: this.isMuted });
  }

  private up(): void {
    this.clock.clearTimer(this.holdTimer);
    this.holdTimer = null;
    const heldMs = this.clock.now() - this.downAt;
    this.emit({ type: 'up', heldMs });
    if (this.holdFired) return;
    const tap = heldMs < this.s.tapMaxMs;
    if (tap) this.emit({ type: 'tap', heldMs, whileSpeaking: this.speakingAtDown, muted: this.isMuted });
    if (this.pttOpen) {
      this.pttOpen = false;
      this.emit({ type: 'ptt-end', cancelled: tap && this.speakingAtDown });
    }
  }

  private emit(e: ButtonEffect): void {
    this.onEffect(e);
  }
}
