import type { Assignment, Pick, PickResult } from './assignment.js';

/** An assignment under way: what is left, in the order the picker will meet it, and what is done. */
export interface Progress {
  assignment: Assignment;
  /** Picks not yet confirmed, in turn order (a skipped pick has moved to the end). */
  todo: Pick[];
  /** Confirmed picks and how many were picked, in the order they were confirmed. */
  done: { pick: Pick; picked: number }[];
}

/** A pick the picker confirmed, as the dialogue hands it to be kept. */
export interface Confirmation {
  assignment: Assignment;
  pick: Pick;
  operator: string;
  picked: number;
  /** The utterance that confirmed it (the debug page puts the pick beside its segment). */
  utteranceId: string;
}

/** What the operator's day counts (debug page). */
export type PickNote = 'wrong-check' | 'skip' | 'short' | 'undo' | 'sign-on' | 'sign-off' | 'break';

/**
 * Where picking keeps what must survive a kill: the assignments, each pick's state, the signed-on
 * operator and the outbox of results. Every call is one transaction, done before it returns, so hark
 * says the next location only once the pick is on disk.
 */
export interface PickLedger {
  /** Keep an assignment; false when one with this id is already kept (a repeat delivery: nothing changes). */
  add(assignment: Assignment): boolean;
  /**
   * The assignment under way, or the oldest waiting one, with its progress; null when none. Only
   * assignments for this operator or for anyone (no `operator` in the message).
   */
  current(operator: string): Progress | null;
  /** How many assignments wait behind the current one. */
  waiting(): number;
  operator(): string | null;
  signOn(operator: string): void;
  signOff(): void;
  /** Store the pick as confirmed and its result in the outbox, in one transaction. */
  confirm(c: Confirmation): PickResult;
  /** The pick goes to the end of its assignment. */
  skip(assignmentId: string, pickId: string): void;
  /** Take back a confirmed pick whose result has not been sent: it is first in turn again. */
  undo(assignmentId: string, pickId: string): 'undone' | 'sent' | 'none';
  finish(assignmentId: string): void;
  note(kind: PickNote, detail: { assignment?: string; pick?: string; utteranceId?: string }): void;
  /** The operator's speaking rate (words a minute) as they last set it, or null if they never did. */
  rate(operator: string): number | null;
  setRate(operator: string, wpm: number): void;
}
