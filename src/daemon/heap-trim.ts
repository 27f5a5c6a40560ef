import type { Clock, TimerHandle } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Component } from '../path/lifecycle.js';

/**
 * How often hark hands malloc's free pages back to the kernel. Each segment leaves transient native
 * buffers (Whisper's and onnxruntime's per-inference memory, the echo stage's) freed between blocks
 * that live on; glibc returns only the top of each heap by itself, so RSS crept about 1 MB per 10
 * minutes of talk with nothing live growing. malloc_trim(0) walked a 45 MB heap in
 * 0.5-0.7 ms here, so once a minute on the main thread costs nothing a cook could notice. (An hour
 * with it kept the same RSS floor as the hour before, within 1 MB: it bounds malloc's free space, it
 * did not find the creep; docs/testing.md.)
 * Why: docs/decisions.md#a-loud-room-all-day-finished-work-is-forgotten.
 */
export const HEAP_TRIM_EVERY_MS = 60_000;

export interface HeapTrimOptions {
  clock: Clock;
  log: Logger;
  /** glibc's malloc_trim(0) (hark-aec's trimHeap); null where it could not load: then nothing runs. */
  trim: (() => boolean) | null;
  everyMs?: number;
}

/** A daemon component that trims the heap every `everyMs` while hark runs. */
export function heapTrimComponent(opts: HeapTrimOptions): Component {
  const every = opts.everyMs ?? HEAP_TRIM_EVERY_MS;
  let timer: TimerHandle | null = null;
  // Scheduled only while started (stop clears the timer), and only with a trim to call.
  const schedule = (trim: () => boolean) => {
    timer = opts.clock.setTimer(every, () => {
      const at = opts.clock.now();
      try {
        const released = trim();
        opts.log.debug('heap trimmed', { released, ms: Math.round((opts.clock.now() - at) * 10) / 10 });
      } catch (err) {
        // Never happens with glibc; if the addon misbehaves, stop asking rather than log every minute.
        timer = null;
        opts.log.warn('cannot trim the heap; memory freed by native code stays with hark', { error: errorMessage(err) });
        return;
      }
      schedule(trim);
    });
  };
  return {
    name: 'heap-trim',
    start: () => {
      if (!opts.trim) {
        opts.log.debug('no heap trim: hark-aec did not load');
        return;
      }
      schedule(opts.trim);
    },
    stop: () => {
      opts.clock.clearTimer(timer);
      timer = null;
    },
  };
}
