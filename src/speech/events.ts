import type { Priority, SpeechKind } from './item.js';

/** What hark's speaker does, as the bus carries it (the LED, the echo gate, the store and the debug page listen). */
declare module '../core/bus.js' {
  interface HarkEvents {
    /** Sound started coming out: `durationMs` is what is left to play; `gainDb`, a timer's ring played over the voice's level. */
    'speak.start': { id: number; kind: SpeechKind; text: string; priority: Priority; durationMs: number; offsetMs: number; gainDb?: number };
    /** Played to its end. */
    'speak.end': { id: number; kind: SpeechKind; text: string; playedMs: number };
    /**
     * Silenced before its end (barge-in, the button, "stop", a preemption, shutdown). `id` is null
     * when nothing was playing and only queued items were dropped; `dropped` counts those.
     */
    'speak.stopped': { id: number | null; kind: SpeechKind | null; text: string; reason: string; playedMs: number; dropped: number };
    /** Could not be rendered or played; the queue moves on to the next item. */
    'speak.error': { id: number; kind: SpeechKind; text: string; error: string };
  }
}

export {};
