import { errorMessage } from '../core/errors.js';
import { isDiskFull, isSqliteError, type DiskGuard } from './disk-guard.js';

/**
 * One write to the log under the disk guard, the same for a segment and for a row that comes later.
 * Rows still waiting go first: the log keeps the order things happened in. A full disk never costs the
 * text: audio storage stops, the oldest stored audio is given up to make room, and a write that still
 * does not fit waits in the guard's bounded queue (null is returned) until it does.
 *
 * `now` is the write as asked (a segment with its audio, when there is room for it); `again` is what a
 * retry and the queue run (the text alone); `done` follows each write that landed.
 */
export function guardedWrite<R>(disk: DiskGuard, what: string, now: () => R, again: () => R, done: (r: R) => void): R | null {
  const later = () => done(again());
  if (!disk.flushPending()) {
    disk.enqueue(what, later);
    return null;
  }
  let result: R | null;
  try {
    result = now();
  } catch (err) {
    if (!isSqliteError(err)) throw err;
    if (!isDiskFull(err)) {
      disk.writeFailed(what, err);
      return null;
    }
    disk.pauseAudio(errorMessage(err));
    result = disk.retryAfterReclaim(again);
    if (result === null) {
      disk.enqueue(what, later);
      return null;
    }
  }
  done(result);
  return result;
}
