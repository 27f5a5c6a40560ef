/**
 * Which segments to delete, decided without touching the database: the housekeeper feeds in the
 * oldest rows and the totals, and deletes what comes back. Small batches keep each write
 * transaction short, so a segment being logged never waits long behind a purge.
 */
export interface RetentionPolicy {
  /** Segments that started longer ago than this are deleted. */
  maxAgeMs: number;
  /** Oldest segments are deleted until the stored PCM fits in this many bytes. */
  maxAudioBytes: number;
  /** At most this many segments per batch. */
  batchSize: number;
}

export interface RetentionCandidate {
  id: number;
  startedAt: number;
  audioBytes: number;
}

export interface RetentionPlan {
  deleteIds: number[];
  byAge: number;
  bySize: number;
  freedBytes: number;
  /** The batch was full: run again soon rather than waiting a whole interval. */
  more: boolean;
}

/**
 * `oldest` holds the first rows in insertion order (id) and, merged in, the rows older than the age
 * limit by their time, whatever their id. Age is judged by time, so one row stamped in the future (a
 * clock that jumped, a bad POST) can no longer shield every older row behind it; size is judged in id
 * order, so the size bound removes the oldest audio whatever the clock said.
 */
export function planRetention(input: {
  nowMs: number;
  policy: RetentionPolicy;
  totalAudioBytes: number;
  oldest: readonly RetentionCandidate[];
}): RetentionPlan {
  const { nowMs, policy } = input;
  const cutoff = nowMs - policy.maxAgeMs;
  let remaining = input.totalAudioBytes;
  const plan: RetentionPlan = { deleteIds: [], byAge: 0, bySize: 0, freedBytes: 0, more: false };
  const rows = [...new Map(input.oldest.map((r) => [r.id, r])).values()].sort((a, b) => a.id - b.id);
  for (const row of rows) {
    if (plan.deleteIds.length >= policy.batchSize) break;
    const tooOld = row.startedAt < cutoff;
    const overSize = remaining > policy.maxAudioBytes;
    if (!tooOld && !overSize) continue; // a young row: later ones may still be old or over the budget
    plan.deleteIds.push(row.id);
    if (tooOld) plan.byAge++;
    else plan.bySize++;
    plan.freedBytes += row.audioBytes;
    remaining -= row.audioBytes;
  }
  plan.more = plan.deleteIds.length >= policy.batchSize;
  return plan;
}
