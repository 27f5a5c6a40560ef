import type { LedPatternName, LedState } from './led-state.js';

/** The button, mute and the LED, as the bus carries them. */
declare module '../core/bus.js' {
  interface HarkEvents {
    'button.down': { muted: boolean };
    'button.up': { heldMs: number };
    /** A short press; `whileSpeaking`: it stopped hark. */
    'button.tap': { heldMs: number; whileSpeaking: boolean; muted: boolean };
    /** Held long enough to toggle mute. */
    'button.hold': { heldMs: number };
    /** The microphone is closed (muted) or open again. */
    mute: { muted: boolean; by: 'button' | 'voice' | 'api' };
    'led.pattern': { state: LedState; pattern: LedPatternName };
  }
}

export {};
