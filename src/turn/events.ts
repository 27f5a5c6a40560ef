import type { CascadeStage } from './cascade.js';

/** Barge-in and the response cascade, as the bus carries them. */
declare module '../core/bus.js' {
  interface HarkEvents {
    /** Said while hark spoke, and only a backchannel: hark goes on. */
    'interruption.filtered': { text: string; reason: string; utteranceId: string | null; final: boolean };
    /** Said while hark spoke, and more than a backchannel (or the filter could not tell): hark stops. */
    'interruption.allowed': { text: string; reason: string; utteranceId: string | null; final: boolean; confidence: number };
    /** A partial made only of backchannel words: waiting for the final transcript. */
    'interruption.pending': { text: string; reason: string; utteranceId: string | null };
    /** A step of the response cascade began; `atMs` is time since the end of the person's speech. */
    'cascade.stage': { generation: number; stage: 'thinking' | 'rendering' | 'playing'; atMs: number };
    'cascade.done': { generation: number; atMs: number };
    /** The person spoke (or something else cut in): timers, cached answer and audio were thrown away. */
    'cascade.cancelled': { generation: number; stage: CascadeStage; reason: string; atMs: number };
    'cascade.failed': { generation: number; stage: CascadeStage; error: string; atMs: number };
  }
}

export {};
