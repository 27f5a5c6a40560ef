import type { SegmentSummary } from '../vad/summary.js';

/** The daemon's own events and the audio front end's, as the bus carries them. */
declare module '../core/bus.js' {
  interface HarkEvents {
    'daemon.ready': { components: string[] };
    'daemon.stopping': { reason: string };
    /** The debug viewer is up at this address. */
    'debug.listening': { url: string };
    /** The recorder is being (re)started and has delivered nothing yet. */
    'capture.starting': { device: string };
    'capture.up': { device: string };
    'capture.down': { device: string; reason: string; restartInMs: number | null };
    /** A file given with --input has been played to its end. */
    'input.end': { samples: number };
    'segment.open': { openedBy: 'vad' | 'ptt'; startMs: number; vadStartMs: number; prerollMs: number };
    /** `outage`: why capture went down, for a segment closed 'capture-lost'. */
    'segment.closed': SegmentSummary & { openedBy: 'vad' | 'ptt'; outage?: string };
    'segment.dropped': { reason: string; openedBy: 'vad' | 'ptt'; vadStartMs: number; endMs: number; speechMs: number };
    'vad.error': { message: string };
  }
}

export {};
