import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { SegmentQueue, type Lane, type Taken } from './segment-queue.js';

/**
 * The line in front of speech-to-text and the router: everything that reaches the command side goes
 * through here, one job at a time, in order; a failure is logged and the next goes on. Text and taps
 * keep their order; a segment goes in a lane (push-to-talk and awaited answers first) and may be
 * stored untranscribed instead when the line holds too much audio (segment-queue.ts keeps the order
 * and the bounds; this runs the jobs).
 */

declare module '../core/bus.js' {
  interface HarkEvents {
    /** The line in front of speech-to-text changed (a job joined or started). */
    'stt.queue': QueueLoad;
  }
}

/** The line's state, for /metrics, /healthz and the page's header. */
export interface QueueLoad {
  depth: number;
  /** Seconds of audio waiting. */
  audioSec: number;
  bytes: number;
  oldestWaitMs: number;
  /** The wait bound was reached (stt.queue.maxWaitMs) or audio was evicted, within the last bound. */
  behind: boolean;
}

/** A job in the line. */
export interface Work {
  run: (taken: Taken<Work>) => Promise<void>;
  /** A segment's: store it untranscribed now (the audio bound was passed while it waited). */
  evict?: () => void;
  failed: string;
  fields: Record<string, unknown>;
  done: () => void;
}

/** A segment's place in the line: its lane, what it holds, and how it is stored if evicted. */
export interface AudioJob {
  lane: Lane;
  bytes: number;
  audioSec: number;
  evict: () => void;
}

export class WorkLine {
  private readonly queue: SegmentQueue<Work>;
  private work: Promise<void> = Promise.resolve();
  private pumping = false;

  constructor(
    private readonly d: { bus: Bus; clock: Clock; log: Logger },
    bounds: { maxWaitMs: number; maxBytes: number },
  ) {
    this.queue = new SegmentQueue<Work>(bounds);
  }

  /** Resolves when the line is empty and the last job done. */
  idle(): Promise<void> {
    return this.work;
  }

  load(): QueueLoad {
    const now = this.d.clock.now();
    const q = this.queue;
    return {
      depth: q.depth,
      audioSec: Math.round(q.audioSec * 100) / 100,
      bytes: q.bytes,
      oldestWaitMs: Math.round(q.oldestWaitMs(now)),
      behind: q.behind(now),
    };
  }

  /** Jobs waiting for their turn (not the one running). */
  get waiting(): number {
    return this.queue.depth;
  }

  /** The largest depth since the last call (for the metrics' "largest queue depth"). */
  takePeakDepth(): number {
    return this.queue.takePeakDepth();
  }

  /** Join the line; resolves when the job is done (or was evicted and stored). */
  enqueue(run: (taken: Taken<Work>) => Promise<void>, failed: string, fields: Record<string, unknown> = {}, audio?: AudioJob): Promise<void> {
    return new Promise<void>((done) => {
      const work: Work = { run, failed, fields, done, ...(audio ? { evict: audio.evict } : {}) };
      const evicted = this.queue.push(
        { value: work, lane: audio?.lane ?? 'normal', bytes: audio?.bytes ?? 0, audioSec: audio?.audioSec ?? 0 },
        this.d.clock.now(),
      );
      for (const e of evicted) {
        try {
          e.value.evict?.();
        } catch (err) {
          this.d.log.error('storing an evicted segment failed', { ...e.value.fields, error: errorMessage(err) });
        } finally {
          e.value.done();
        }
      }
      this.d.bus.emit('stt.queue', this.load());
      this.pump();
    });
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    this.work = (async () => {
      try {
        // Start on a later tick, as a promise chain would: the caller finishes first, and a
        // push-to-talk segment closed in the same tick is still taken first.
        await null;
        for (let t = this.queue.take(this.d.clock.now()); t; t = this.queue.take(this.d.clock.now())) {
          this.d.bus.emit('stt.queue', this.load());
          const w = t.job.value;
          try {
            await w.run(t);
          } catch (err) {
            this.d.log.error(w.failed, { ...w.fields, error: errorMessage(err) });
          } finally {
            w.done();
          }
        }
      } finally {
        this.pumping = false;
      }
    })();
  }
}
