import type { Database } from 'better-sqlite3';

/** The operator's day as a supervisor reads it (debug API `GET /api/picking`). */
export interface PickingDay {
  since: string;
  picks: number;
  units: number;
  shorts: number;
  skips: number;
  wrongCheckDigits: number;
  undos: number;
  /** Confirmed picks an hour, over the time from the first confirmation to the last. */
  picksPerHour: number | null;
  /** Median time between one confirmation and the next, seconds. */
  secondsPerPick: number | null;
  /** The latest picks, each with the utterance that confirmed it (its segment is on the debug page). */
  recent: {
    id: string;
    picked: number;
    quantity: number;
    short: boolean;
    confirmedAt: string;
    sent: boolean;
    utteranceId: string | null;
    segmentId: number | null;
    /** The segments of the wrong check-digit readings at this pick, oldest first: what a supervisor listens to. */
    wrongCheckSegments: number[];
  }[];
}

/** Counts since `sinceMs` (wall clock), from the ledger's tables; read-only. */
export function pickingDay(db: Database, sinceMs: number): PickingDay {
  const notes = db.prepare<[number], { kind: string; n: number }>('SELECT kind, COUNT(*) AS n FROM pick_notes WHERE at >= ? GROUP BY kind').all(sinceMs);
  const count = (k: string) => notes.find((n) => n.kind === k)?.n ?? 0;
  const rows = db
    .prepare<[number], { id: string; body_json: string; created_at: number; sent_at: number | null; utterance_id: string | null; segment_id: number | null }>(
      `SELECT o.id, o.body_json, o.created_at, o.sent_at, o.utterance_id, u.segment_id
         FROM pick_outbox o LEFT JOIN utterances u ON u.id = o.utterance_id
        WHERE o.created_at >= ? ORDER BY o.seq`,
    )
    .all(sinceMs);
  const wrong = db.prepare<[string, string], { segment_id: number }>(
    `SELECT u.segment_id FROM pick_notes n JOIN utterances u ON u.id = n.utterance_id
      WHERE n.kind = 'wrong-check' AND n.assignment_id = ? AND n.pick_id = ? AND u.segment_id IS NOT NULL ORDER BY n.id`,
  );
  const bodies = rows.map((r) => JSON.parse(r.body_json) as { picked: number; quantity: number; short: boolean });
  const times = rows.map((r) => r.created_at);
  const gaps = times
    .slice(1)
    .map((t, i) => t - times[i]!)
    .sort((a, b) => a - b);
  const span = times.length > 1 ? times[times.length - 1]! - times[0]! : 0;
  return {
    since: new Date(sinceMs).toISOString(),
    picks: rows.length,
    units: bodies.reduce((n, b) => n + b.picked, 0),
    shorts: bodies.filter((b) => b.short).length,
    skips: count('skip'),
    wrongCheckDigits: count('wrong-check'),
    undos: count('undo'),
    picksPerHour: span > 0 ? Math.round(((rows.length - 1) * 3_600_000) / span) : null,
    secondsPerPick: gaps.length ? Math.round(gaps[Math.floor(gaps.length / 2)]! / 100) / 10 : null,
    recent: rows.slice(-20).map((r, i, all) => {
      const b = bodies[rows.length - all.length + i]!;
      const body = JSON.parse(r.body_json) as { assignment: string; pick: string };
      const wrongCheckSegments = wrong.all(body.assignment, body.pick).map((w) => w.segment_id);
      return {
        id: r.id,
        picked: b.picked,
        quantity: b.quantity,
        short: b.short,
        confirmedAt: new Date(r.created_at).toISOString(),
        sent: r.sent_at !== null,
        utteranceId: r.utterance_id,
        segmentId: r.segment_id,
        wrongCheckSegments,
      };
    }),
  };
}
