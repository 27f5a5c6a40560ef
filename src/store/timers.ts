import type { Database } from 'better-sqlite3';

/**
 * Kitchen timers kept across restarts: one row per timer that is running, paused or ringing,
 * written on every change and deleted when it is cancelled, stopped or gives up. Times are wall
 * clock (epoch ms); the daemon converts to and from its own clock (daemon/timer-keeper.ts).
 */
export interface TimerRow {
  id: number;
  label: string | null;
  seconds: number;
  state: 'running' | 'paused' | 'ringing';
  /** Epoch ms it is (or was) due; null while paused. */
  dueAt: number | null;
  remainingMs: number | null;
  command: string | null;
  /** The language it was set in, when not the device's first; null (or absent, from older callers) for the first. */
  lang?: string | null;
}

/** A stop said here for another device's timer, kept until that device's state says it no longer rings. */
export interface RingStopRow {
  stopId: string;
  owner: string;
  timerId: number;
  by: 'voice' | 'button';
  device: string;
}

export class RingStopTable {
  constructor(
    private readonly db: Database,
    private readonly wallNow: () => number = Date.now,
  ) {}

  save(s: RingStopRow): void {
    this.db
      .prepare('INSERT OR IGNORE INTO ring_stops (stop_id, owner, timer_id, by, device, created_at) VALUES (@stopId, @owner, @timerId, @by, @device, @now)')
      .run({ ...s, now: this.wallNow() });
  }

  /** The owner no longer rings that timer: its stops are done with. */
  settle(owner: string, timerId: number): void {
    this.db.prepare('DELETE FROM ring_stops WHERE owner = ? AND timer_id = ?').run(owner, timerId);
  }

  /** Oldest first: the order they were said in. */
  all(): RingStopRow[] {
    return this.db
      .prepare('SELECT stop_id AS stopId, owner, timer_id AS timerId, by, device FROM ring_stops ORDER BY created_at, rowid')
      .all() as RingStopRow[];
  }
}

export class TimerTable {
  constructor(
    private readonly db: Database,
    private readonly wallNow: () => number = Date.now,
  ) {}

  save(t: TimerRow): void {
    this.db
      .prepare(
        `INSERT INTO timers (id, label, seconds, state, due_at, remaining_ms, command, lang, updated_at) VALUES (@id, @label, @seconds, @state, @dueAt, @remainingMs, @command, @lang, @now)
         ON CONFLICT (id) DO UPDATE SET label = excluded.label, seconds = excluded.seconds, state = excluded.state, due_at = excluded.due_at,
           remaining_ms = excluded.remaining_ms, command = excluded.command, lang = excluded.lang, updated_at = excluded.updated_at`,
      )
      .run({ ...t, lang: t.lang ?? null, now: this.wallNow() });
  }

  remove(id: number): void {
    this.db.prepare('DELETE FROM timers WHERE id = ?').run(id);
  }

  all(): TimerRow[] {
    return (
      this.db
        .prepare('SELECT id, label, seconds, state, due_at AS dueAt, remaining_ms AS remainingMs, command, lang FROM timers ORDER BY id')
        .all() as TimerRow[]
    ).map((r) => ({ ...r }));
  }
}
