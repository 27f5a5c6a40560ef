import type { Bus } from '../core/bus.js';
import type { SttEngine } from './engine.js';
import type { Outcome } from './engine-calls.js';
import './events.js';

/**
 * The transcriber's speculative work on an open segment (preemptive transcription): at a
 * pause the first engine starts on what was said so far, in case the person has stopped. At most one
 * runs at a time — a discarded one still occupies the engine until it finishes (whisper.cpp cannot be
 * stopped). This file keeps the books: which segment it was for, on what audio, whether it still
 * stands; the transcriber starts the work and hands its promise here. Counted on the bus
 * (`stt.preemptive`: started, used, discarded) for /metrics.
 * Why: docs/decisions.md#preemptive-transcription-at-a-pause.
 */

interface Speculation {
  key: string;
  engine: SttEngine;
  /** Samples of the segment it was started on (from its first). */
  samples: number;
  promise: Promise<Outcome>;
  settled: boolean;
  discarded: boolean;
}

export class Speculations {
  private current: Speculation | null = null;

  constructor(private readonly bus: Bus) {}

  /** Another may start: none is still running. */
  get free(): boolean {
    return !this.current || this.current.settled;
  }

  /** Book the work started on the first `samples` of segment `key`; returns whether it still stands when it ends. */
  start(key: string, engine: SttEngine, samples: number, work: Promise<Outcome>): { promise: Promise<Outcome>; stands: () => boolean } {
    const spec: Speculation = { key, engine, samples, settled: false, discarded: false, promise: work };
    spec.promise = work.finally(() => (spec.settled = true));
    this.current = spec;
    this.bus.emit('stt.preemptive', { segmentId: key, outcome: 'started' });
    return { promise: spec.promise, stands: () => !spec.discarded };
  }

  /** Speech resumed in segment `key` (or it was dropped, or its close decided otherwise): stale. */
  discard(key: string): void {
    const spec = this.current;
    if (!spec || spec.key !== key || spec.discarded) return;
    spec.discarded = true;
    this.bus.emit('stt.preemptive', { segmentId: key, outcome: 'discarded' });
  }

  /** A speculative transcript for this segment on `engine` is running or ready, and still good. */
  standing(key: string | undefined, engine: SttEngine): boolean {
    const spec = this.current;
    return !!spec && key !== undefined && spec.key === key && !spec.discarded && spec.engine === engine;
  }

  /** The speculative outcome for this segment on `engine`, when it is still good: used once. */
  take(key: string | undefined, engine: SttEngine): Promise<Outcome> | null {
    if (!this.standing(key, engine)) return null;
    const spec = this.current!;
    this.current = spec.settled ? null : spec;
    spec.discarded = true;
    this.bus.emit('stt.preemptive', { segmentId: spec.key, outcome: 'used' });
    return spec.promise;
  }

  /**
   * The work done on segment `key` by `engine` when it heard at least its first `samples`, stale or
   * not: the segment's opening is the start of what it heard, so a transcript started at
   * a pause once the opening was said answers the opening check too, without another inference.
   */
  covering(key: string | undefined, engine: SttEngine, samples: number): Promise<Outcome> | null {
    const spec = this.current;
    if (!spec || key === undefined || spec.key !== key || spec.engine !== engine || spec.samples < samples) return null;
    return spec.promise;
  }
}
