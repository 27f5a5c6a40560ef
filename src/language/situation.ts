/**
 * What hark owns at the moment something is said: the timers that run (by name), the lists and
 * what is on them, whether an alarm rings, and what hark last did on a command. The language reads
 * words against it, as Home Assistant's sentences read entity names: "give the brisket five more
 * minutes" is about a timer only while a brisket timer runs. Plain data; the command core fills it.
 */
export interface SituationTimer {
  label?: string;
  /** The duration it was set for. */
  seconds: number;
  state: 'running' | 'paused' | 'ringing';
}

export interface SituationList {
  name: string;
  /** The items on it now. */
  items: readonly string[];
}

/** What hark last did on a command, for a follow-up to lean on ("and two pints of milk", "make it ten minutes"). */
export type LastRequest = { kind: 'list'; op: 'add' | 'remove'; list: string } | { kind: 'timer'; seconds: number; label?: string };

export interface Situation {
  timers: readonly SituationTimer[];
  lists: readonly SituationList[];
  ringing: boolean;
  /** This device's room (device.area), lower case. */
  area?: string;
  /** Set only inside the follow-up window. */
  last?: LastRequest | null;
}

export const NOTHING_OWNED: Situation = { timers: [], lists: [], ringing: false };
