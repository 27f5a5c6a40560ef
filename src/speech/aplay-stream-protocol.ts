import type { AplayStreamOptions, PlayResult } from './playback.js';

/**
 * The messages between hark's main thread and the thread that feeds aplay (aplay-stream-thread.ts,
 * aplay-stream-worker.ts). Times are on the main thread's clock (performance.now() there): the worker's
 * clock is laid over it (see mainTimeline), so what it stamps goes into the echo reference unchanged.
 */

/** The options that cross to the worker: AplayStreamOptions' plain data (the clock, reference and callbacks stay on the main thread). */
export type WorkerStreamOptions = Pick<
  AplayStreamOptions,
  'device' | 'sampleRate' | 'leadMs' | 'idleLeadMs' | 'tickMs' | 'idleCloseMs' | 'stallMs' | 'backoffMs' | 'backoffMaxMs' | 'bin'
>;

export interface WorkerInit {
  options: WorkerStreamOptions;
  /** process.hrtime.bigint() at the main thread's performance.now() = 0 (ns). */
  originNs: bigint;
  /** Forward the mix to the main thread (an echo reference is listening). */
  reference: boolean;
}

export type ToWorker =
  | { t: 'play'; id: number; pcm: Int16Array; complete: boolean }
  | { t: 'push'; id: number; pcm: Int16Array }
  | { t: 'end'; id: number }
  | { t: 'stop'; id: number }
  | { t: 'close' }
  | { t: 'ping'; n: number };

export type FromWorker =
  | { t: 'started'; id: number }
  | { t: 'done'; id: number; result: PlayResult }
  | { t: 'played'; id: number; ms: number }
  | { t: 'streamed'; pcm: Int16Array; atMs: number; stream: number }
  | { t: 'moved'; atMs: number }
  | { t: 'late'; lateMs: number }
  | { t: 'pid'; pid: number | undefined; processes: number }
  | { t: 'pong'; n: number; now: number };

/**
 * The main thread's performance.now(), read from another thread. Both are the one monotonic clock the
 * process has (process.hrtime, CLOCK_MONOTONIC) less an origin; the main thread hands its origin over,
 * so the two agree to well under a millisecond (test/speech/aplay-stream-thread.test.ts measures it).
 * performance.timeOrigin would not do: it is wall-clock time, read separately in each thread.
 */
export function mainTimeline(originNs: bigint): () => number {
  return () => Number(process.hrtime.bigint() - originNs) / 1e6;
}

/** This thread's performance.now() origin on process.hrtime (ns): handed to the worker. */
export function timelineOrigin(): bigint {
  // Read between two hrtime readings: the error is half the gap (well under a microsecond).
  const a = process.hrtime.bigint();
  const now = performance.now();
  const b = process.hrtime.bigint();
  return (a + b) / 2n - BigInt(Math.round(now * 1e6));
}
