import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Effect } from '../core/effects.js';
import type { Logger } from '../core/log.js';
import type { ActionInput } from '../store/records.js';
import type { Store } from '../store/store.js';
import type { Fate } from './fate.js';
import { actionRow, segmentWrite, type SegmentRecord } from './segment-record.js';

/**
 * The record's bookkeeping: the command side's effects become the action rows of the segment being
 * dispatched (or rows of their own: a timer that rang), a later last-wins action marks the row it
 * superseded, and a handled segment is told (segment.handled) and written in one transaction.
 */

declare module '../core/bus.js' {
  interface HarkEvents {
    /**
     * A segment has been through speech-to-text and the router. `fate` says what became of its words;
     * `latencyMs` is close-to-done, `actionMs` close-to-first-action.
     */
    'segment.handled': {
      segment: number;
      fate: Fate['kind'];
      reason: string | null;
      utterance: { id: string; text: string; engine: string } | null;
      actions: string[];
      sttMs: number;
      latencyMs: number;
      actionMs: number | null;
    };
  }
}

export interface RecordKeeperDeps {
  bus: Bus;
  clock: Clock;
  log: Logger;
  store: () => Store | null;
  source: 'mic' | 'file';
}

export class RecordKeeper {
  /** The segment being routed: actions fired now belong to it. */
  private current: SegmentRecord | null = null;
  /**
   * Recently fired actions by seq, so a later last-wins action can mark the row it superseded: the
   * segment still being handled (`pending`), or once it is written only its utterance's id. Holding
   * the record itself kept each one's audio (up to 12 s, with the raw track twice that) for the last
   * 16 actions: the hour-long capture soak found ~5 MB of segments held here.
   */
  private readonly fired = new Map<number, { row: ActionInput; pending: SegmentRecord | null; utteranceId: string | null }>();

  constructor(private readonly d: RecordKeeperDeps) {}

  /** Run the dispatch of this segment's words: what the command side does meanwhile is its. */
  async during(rec: SegmentRecord, dispatch: () => Promise<void>): Promise<void> {
    this.current = rec;
    try {
      await dispatch();
    } finally {
      this.current = null;
    }
  }

  /** The segment is handled: told, and written after the action (no write sits between speech and action). */
  write(rec: SegmentRecord): void {
    rec.written = true;
    for (const f of this.fired.values()) {
      if (f.pending !== rec) continue;
      f.pending = null;
      f.utteranceId = utteranceIdOf(rec);
    }
    this.report(rec);
    this.d.store()?.recordSegment(segmentWrite(rec, this.d.source));
  }

  /** The command side's effects, after hark's voice acted on them: the segment's action rows. */
  effect(e: Effect, atMs: number): void {
    if (e.type === 'action.superseded') {
      this.superseded(e.seq, e.by);
      return;
    }
    const row = actionRow(e);
    if (!row) return;
    if (e.type === 'action' && e.seq !== undefined) this.remember(e.seq, row);
    if (this.current) {
      if (e.type === 'action' && this.current.firstActionAt === null) this.current.firstActionAt = atMs;
      row.latencyMs = Math.round(atMs - this.current.closedAt);
      this.current.actions.push(row);
    } else {
      // A timer that rang, a confirmation timeout: not part of any segment's handling.
      this.d.store()?.addAction(row);
    }
  }

  private remember(seq: number, row: ActionInput): void {
    this.fired.set(seq, { row, pending: this.current, utteranceId: null });
    // Only the last few can still be superseded (the conflict window is seconds).
    for (const k of this.fired.keys()) {
      if (this.fired.size <= 16) break;
      this.fired.delete(k);
    }
  }

  /** Last-wins: the earlier action's row says it was superseded, written or not. */
  private superseded(seq: number, by: string): void {
    const f = this.fired.get(seq);
    if (!f) return;
    this.fired.delete(seq);
    f.row.outcome = 'superseded';
    f.row.error = `by ${by}`;
    // Still being handled: its row (changed above) is written with the segment.
    if (!f.pending) this.d.store()?.supersedeAction(f.utteranceId, f.row.name, f.row.error);
  }

  private report(rec: SegmentRecord): void {
    const firstActionAt = rec.firstActionAt;
    const now = this.d.clock.now();
    const f = rec.fate;
    const u = 'utterance' in f ? f.utterance : null;
    if (f.kind === 'untranscribed') this.d.log.warn('segment stored untranscribed', { segment: rec.segment.index, reason: f.reason });
    this.d.bus.emit('segment.handled', {
      segment: rec.segment.index,
      fate: f.kind,
      reason: f.kind === 'dispatched' ? null : f.reason,
      utterance: u ? { id: u.id, text: u.text, engine: u.engine } : null,
      actions: rec.actions.map((a) => a.name),
      sttMs: rec.transcript?.sttMs ?? 0,
      latencyMs: Math.round((now - rec.closedAt) * 1000) / 1000,
      actionMs: firstActionAt === null ? null : Math.round((firstActionAt - rec.closedAt) * 1000) / 1000,
    });
  }
}

function utteranceIdOf(rec: SegmentRecord): string | null {
  const fate = rec.fate;
  return fate && (fate.kind === 'dispatched' || fate.kind === 'filtered') ? fate.utterance.id : null;
}
