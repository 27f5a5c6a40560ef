import type { Database } from 'better-sqlite3';
import type { PickResult } from './assignment.js';

/** One result waiting to go, as the sender takes it. */
export interface OutboxRow {
  seq: number;
  id: string;
  result: PickResult;
  createdAt: number;
  attempts: number;
}

export interface OutboxState {
  /** Results kept and not yet taken by the warehouse system. */
  pending: number;
  /** Wall-clock ms of the oldest pending one. */
  oldestAt: number | null;
  sent: number;
  lastError: string | null;
}

/**
 * The outbox table (pick_outbox): results in confirmation order, each sent until the warehouse
 * system takes it. Rows are never deleted once sent: they are the day's record (debug page).
 */
export class Outbox {
  private readonly q;

  constructor(db: Database) {
    this.q = {
      first: db.prepare<[], { seq: number; id: string; body_json: string; created_at: number; attempts: number }>(
        'SELECT seq, id, body_json, created_at, attempts FROM pick_outbox WHERE sent_at IS NULL ORDER BY seq LIMIT 1',
      ),
      sent: db.prepare('UPDATE pick_outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE seq = ?'),
      failed: db.prepare('UPDATE pick_outbox SET attempts = attempts + 1, last_error = ? WHERE seq = ?'),
      state: db.prepare<[], { pending: number; oldest: number | null; sent: number }>(
        'SELECT COUNT(*) FILTER (WHERE sent_at IS NULL) AS pending, MIN(created_at) FILTER (WHERE sent_at IS NULL) AS oldest, COUNT(sent_at) AS sent FROM pick_outbox',
      ),
      lastError: db.prepare<[], { last_error: string | null }>('SELECT last_error FROM pick_outbox WHERE sent_at IS NULL ORDER BY seq LIMIT 1'),
    };
  }

  /** The oldest result not yet taken: the only one that may go now, so results arrive in order. */
  first(): OutboxRow | null {
    const r = this.q.first.get();
    if (!r) return null;
    return {
      seq: r.seq,
      id: r.id,
      result: { ...(JSON.parse(r.body_json) as Omit<PickResult, 'seq'>), seq: r.seq },
      createdAt: r.created_at,
      attempts: r.attempts,
    };
  }

  markSent(seq: number, atMs: number): void {
    this.q.sent.run(atMs, seq);
  }

  markFailed(seq: number, error: string): void {
    this.q.failed.run(error, seq);
  }

  state(): OutboxState {
    const s = this.q.state.get()!;
    return { pending: s.pending, oldestAt: s.oldest, sent: s.sent, lastError: this.q.lastError.get()?.last_error ?? null };
  }
}
