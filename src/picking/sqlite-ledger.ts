import type { Database } from 'better-sqlite3';
import { checkAssignment, MESSAGE_VERSION, type Assignment, type Pick, type PickResult } from './assignment.js';
import type { Confirmation, PickLedger, PickNote, Progress } from './ledger.js';

/**
 * The picking ledger in the store's SQLite file (schema versions 5 and 6). Each method is one transaction:
 * a confirmed pick's line and its outbox row are written together, so after a kill either both are
 * there (the pick is done and will be sent) or neither (the picker is asked for it again).
 */
export class SqliteLedger implements PickLedger {
  private readonly q;

  constructor(
    private readonly db: Database,
    private readonly device: string,
    private readonly wallNow: () => number = Date.now,
  ) {
    this.q = {
      has: db.prepare<[string], { id: string }>('SELECT id FROM pick_assignments WHERE id = ?'),
      next: db.prepare<[], { n: number }>('SELECT COALESCE(MAX(arrived), 0) + 1 AS n FROM pick_assignments'),
      insert: db.prepare('INSERT INTO pick_assignments (id, arrived, received_at, body_json, state) VALUES (?, ?, ?, ?, ?)'),
      line: db.prepare('INSERT INTO pick_lines (assignment_id, pick_id, turn) VALUES (?, ?, ?)'),
      current: db.prepare<[{ op: string }], { id: string; body_json: string }>(
        `SELECT id, body_json FROM pick_assignments
          WHERE state != 'done' AND coalesce(json_extract(body_json, '$.operator'), @op) = @op
          ORDER BY state = 'active' DESC, arrived LIMIT 1`,
      ),
      waiting: db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM pick_assignments WHERE state = 'waiting'"),
      lines: db.prepare<[string], { pick_id: string; turn: number; picked: number | null }>(
        'SELECT pick_id, turn, picked FROM pick_lines WHERE assignment_id = ? ORDER BY confirmed_at IS NULL, confirmed_at, turn',
      ),
      activate: db.prepare("UPDATE pick_assignments SET state = 'active' WHERE id = ?"),
      deactivateOthers: db.prepare("UPDATE pick_assignments SET state = 'waiting' WHERE state = 'active' AND id != ?"),
      operator: db.prepare<[], { operator: string }>('SELECT operator FROM pick_operator WHERE one = 1'),
      signOn: db.prepare(
        'INSERT INTO pick_operator (one, operator, since) VALUES (1, ?, ?) ON CONFLICT (one) DO UPDATE SET operator = excluded.operator, since = excluded.since',
      ),
      signOff: db.prepare('DELETE FROM pick_operator'),
      confirmLine: db.prepare('UPDATE pick_lines SET picked = ?, confirmed_at = ? WHERE assignment_id = ? AND pick_id = ? AND picked IS NULL'),
      outbox: db.prepare('INSERT INTO pick_outbox (id, body_json, utterance_id, created_at) VALUES (?, ?, ?, ?)'),
      maxTurn: db.prepare<[string], { t: number }>('SELECT MAX(turn) AS t FROM pick_lines WHERE assignment_id = ?'),
      minTurn: db.prepare<[string], { t: number }>('SELECT MIN(turn) AS t FROM pick_lines WHERE assignment_id = ? AND picked IS NULL'),
      setTurn: db.prepare('UPDATE pick_lines SET turn = ? WHERE assignment_id = ? AND pick_id = ?'),
      sentOf: db.prepare<[string], { seq: number; sent_at: number | null }>('SELECT seq, sent_at FROM pick_outbox WHERE id = ?'),
      dropOut: db.prepare('DELETE FROM pick_outbox WHERE seq = ? AND sent_at IS NULL'),
      unconfirm: db.prepare('UPDATE pick_lines SET picked = NULL, confirmed_at = NULL WHERE assignment_id = ? AND pick_id = ?'),
      finish: db.prepare("UPDATE pick_assignments SET state = 'done' WHERE id = ?"),
      rate: db.prepare<[string], { wpm: number }>('SELECT wpm FROM pick_rates WHERE operator = ?'),
      setRate: db.prepare(
        'INSERT INTO pick_rates (operator, wpm, set_at) VALUES (?, ?, ?) ON CONFLICT (operator) DO UPDATE SET wpm = excluded.wpm, set_at = excluded.set_at',
      ),
      note: db.prepare('INSERT INTO pick_notes (at, operator, kind, assignment_id, pick_id, utterance_id) VALUES (?, ?, ?, ?, ?, ?)'),
    };
  }

  add(a: Assignment): boolean {
    return this.db.transaction(() => {
      if (this.q.has.get(a.id)) return false;
      this.q.insert.run(a.id, this.q.next.get()!.n, this.wallNow(), JSON.stringify(a), 'waiting');
      a.picks.forEach((p, i) => this.q.line.run(a.id, p.id, i + 1));
      return true;
    })();
  }

  current(operator: string): Progress | null {
    const row = this.q.current.get({ op: operator });
    if (!row) return null;
    // Written by add() after the same check: a row that no longer reads is a damaged file, said loudly.
    const checked = checkAssignment(JSON.parse(row.body_json));
    if (!checked.ok) throw new Error(`pick_assignments ${row.id}: the stored assignment no longer reads (${checked.problems.join('; ')})`);
    const a = checked.value;
    const byId = new Map(a.picks.map((p) => [p.id, p]));
    const todo: Pick[] = [];
    const done: Progress['done'] = [];
    for (const l of this.q.lines.all(a.id)) {
      const pick = byId.get(l.pick_id)!;
      if (l.picked === null) todo.push(pick);
      else done.push({ pick, picked: l.picked });
    }
    this.q.activate.run(a.id);
    return { assignment: a, todo, done };
  }

  waiting(): number {
    return this.q.waiting.get()!.n;
  }

  operator(): string | null {
    return this.q.operator.get()?.operator ?? null;
  }
  signOn(operator: string): void {
    this.q.signOn.run(operator, this.wallNow());
  }
  signOff(): void {
    this.q.signOff.run();
  }

  confirm(c: Confirmation): PickResult {
    return this.db.transaction(() => {
      const at = this.wallNow();
      const changed = this.q.confirmLine.run(c.picked, at, c.assignment.id, c.pick.id).changes;
      if (changed !== 1) throw new Error(`pick ${c.assignment.id}/${c.pick.id} is not open: it cannot be confirmed twice`);
      const body: Omit<PickResult, 'seq'> = {
        version: MESSAGE_VERSION,
        type: 'pick',
        id: `${c.assignment.id}/${c.pick.id}`,
        device: this.device,
        operator: c.operator,
        assignment: c.assignment.id,
        pick: c.pick.id,
        aisle: c.pick.aisle,
        slot: c.pick.slot,
        quantity: c.pick.quantity,
        picked: c.picked,
        short: c.picked < c.pick.quantity,
        confirmedAt: new Date(at).toISOString(),
      };
      // The body is stored without its seq; the outbox adds the row's seq when it sends it.
      const seq = Number(this.q.outbox.run(body.id, JSON.stringify(body), c.utteranceId, at).lastInsertRowid);
      return { ...body, seq };
    })();
  }

  skip(assignmentId: string, pickId: string): void {
    this.db.transaction(() => this.q.setTurn.run(this.q.maxTurn.get(assignmentId)!.t + 1, assignmentId, pickId))();
  }

  undo(assignmentId: string, pickId: string): 'undone' | 'sent' | 'none' {
    return this.db.transaction(() => {
      const out = this.q.sentOf.get(`${assignmentId}/${pickId}`);
      if (!out) return 'none';
      if (out.sent_at !== null) return 'sent';
      this.q.dropOut.run(out.seq);
      this.q.unconfirm.run(assignmentId, pickId);
      // First in turn again: the picker goes back to it now.
      this.q.setTurn.run((this.q.minTurn.get(assignmentId)?.t ?? 1) - 1, assignmentId, pickId);
      this.q.deactivateOthers.run(assignmentId);
      this.q.activate.run(assignmentId);
      return 'undone';
    })();
  }

  finish(assignmentId: string): void {
    this.q.finish.run(assignmentId);
  }

  note(kind: PickNote, d: { assignment?: string; pick?: string; utteranceId?: string }): void {
    this.q.note.run(this.wallNow(), this.operator(), kind, d.assignment ?? null, d.pick ?? null, d.utteranceId ?? null);
  }

  rate(operator: string): number | null {
    return this.q.rate.get(operator)?.wpm ?? null;
  }

  setRate(operator: string, wpm: number): void {
    this.q.setRate.run(operator, wpm, this.wallNow());
  }
}
