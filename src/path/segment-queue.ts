/**
 * The waiting line in front of speech-to-text and the router. Pure: no timers, no I/O; the time is
 * passed in (`now`, on the caller's Clock).
 *
 * Why it exists: in a loud room segments close faster than a Pi can transcribe them. Without a
 * bound, the line (and the audio it holds) grows all day and a command waits behind every segment
 * of radio queued before it. So:
 * - two lanes: `first` (a push-to-talk segment, an answer the top frame waits for) is always taken
 *   before `normal`; each lane is first in, first out;
 * - every job records when it joined, so the taker knows how long it waited (a segment that waited
 *   past `maxWaitMs` is not worth transcribing in wake-word mode: the moment has passed);
 * - the audio held is bounded in bytes: past `maxBytes`, the oldest queued audio jobs are handed back
 *   to be stored untranscribed (never dropped), normal lane before first lane, never the last one.
 */

export type Lane = 'first' | 'normal';

export interface QueueLimits {
  /** A job that waited longer than this without starting is `late`. */
  maxWaitMs: number;
  /** Audio bytes held by queued jobs before the oldest are evicted. */
  maxBytes: number;
}

export interface JobInput<T> {
  value: T;
  lane: Lane;
  /** Audio bytes it holds (0 for a text utterance or a button tap: never evicted). */
  bytes: number;
  /** Seconds of audio it holds (for the "seconds waiting" gauge). */
  audioSec: number;
}

export interface Job<T> extends JobInput<T> {
  queuedAt: number;
}

export interface Taken<T> {
  job: Job<T>;
  waitedMs: number;
  /** It waited longer than maxWaitMs. */
  late: boolean;
}

export class SegmentQueue<T> {
  private readonly lanes: Record<Lane, Job<T>[]> = { first: [], normal: [] };
  private heldBytes = 0;
  private heldSec = 0;
  /** When a job was last found late or evicted: "behind" lasts one maxWaitMs after it. */
  private overAt: number | null = null;
  private peak = 0;

  constructor(readonly limits: QueueLimits) {}

  /** Add a job; returns the jobs evicted to keep the audio bound (oldest first), to be stored untranscribed. */
  push(input: JobInput<T>, now: number): Job<T>[] {
    const job: Job<T> = { ...input, queuedAt: now };
    this.lanes[job.lane].push(job);
    this.heldBytes += job.bytes;
    this.heldSec += job.audioSec;
    const evicted: Job<T>[] = [];
    while (this.heldBytes > this.limits.maxBytes) {
      const victim = this.oldestAudio();
      if (!victim) break;
      this.remove(victim);
      evicted.push(victim);
    }
    if (evicted.length) this.overAt = now;
    this.peak = Math.max(this.peak, this.depth);
    return evicted;
  }

  /** The next job to run: the first lane before the normal one, oldest first within a lane. */
  take(now: number): Taken<T> | null {
    const job = this.lanes.first[0] ?? this.lanes.normal[0];
    if (!job) return null;
    this.remove(job);
    const waitedMs = now - job.queuedAt;
    const late = waitedMs > this.limits.maxWaitMs;
    if (late) this.overAt = now;
    return { job, waitedMs, late };
  }

  get depth(): number {
    return this.lanes.first.length + this.lanes.normal.length;
  }

  /** The largest depth seen since the last call. */
  takePeakDepth(): number {
    const p = this.peak;
    this.peak = this.depth;
    return p;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  /** Seconds of audio waiting. */
  get audioSec(): number {
    return Math.max(0, this.heldSec);
  }

  /** How long the oldest waiting job has waited (0 when none). */
  oldestWaitMs(now: number): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const lane of [this.lanes.first, this.lanes.normal]) if (lane[0]) oldest = Math.min(oldest, lane[0].queuedAt);
    return Number.isFinite(oldest) ? now - oldest : 0;
  }

  /**
   * The bound is reached: the oldest job has waited past maxWaitMs, or within the last maxWaitMs a
   * job was taken late or evicted for memory.
   */
  behind(now: number): boolean {
    if (this.oldestWaitMs(now) > this.limits.maxWaitMs) return true;
    return this.overAt !== null && now - this.overAt <= this.limits.maxWaitMs;
  }

  private oldestAudio(): Job<T> | undefined {
    // Never the only audio job left: one segment longer than the bound still gets its turn.
    const audio = [...this.lanes.normal, ...this.lanes.first].filter((j) => j.bytes > 0);
    return audio.length > 1 ? audio[0] : undefined;
  }

  private remove(job: Job<T>): void {
    const lane = this.lanes[job.lane];
    const i = lane.indexOf(job);
    if (i >= 0) lane.splice(i, 1);
    this.heldBytes -= job.bytes;
    this.heldSec -= job.audioSec;
  }
}
