import type { ItemAmount } from './items.js';

/**
 * What an utterance asks of hark, once the kitchen language has read it (understand.ts): a timer
 * request, a list request, one or more of the imperatives to hark's voice, or a follow-up
 * on what hark just did. Plain data, the same for the router, the follow-up window and the
 * interruption filter.
 */

/** Which timer a command means: by name, by its starting duration, by room; none of them = "the timer". */
export interface TimerPick {
  name?: string;
  /** The duration the timer was set for ("the 5 minute timer"). */
  startSeconds?: number;
  /** A room named in the request ("the kitchen timer"); `here` when it is this device's room. */
  area?: { room: string; here: boolean };
  /** "the last timer", "the latest one": the one set most recently. */
  latest?: boolean;
}

export type TimerCommand =
  | { op: 'start'; seconds: number; name?: string }
  /** "set a timer" without a duration: hark asks how long. */
  | { op: 'start'; seconds: null; name?: string }
  /** "a 10 minute pasta timer and a 5 minute sauce timer": several at once. */
  | { op: 'start-many'; timers: { seconds: number; name?: string }[] }
  /** "in 5 minutes, open the garage door": `command` is handled when the time comes, as if just heard. */
  | { op: 'delay'; seconds: number; command: string }
  | { op: 'cancel' | 'status'; pick: TimerPick; all: boolean }
  | { op: 'pause' | 'resume'; pick: TimerPick; all: boolean }
  /** Add time to (or take it off) the picked timer. */
  | { op: 'add' | 'remove'; seconds: number; pick: TimerPick };

export type ListCommand =
  /** `unread`: parts of a list said in one breath that were not items, as said (named back, never dropped silently). */
  { op: 'add' | 'remove'; list: string; items: ItemAmount[]; unread?: string[] } | { op: 'read' | 'clear'; list: string };

export type ImperativeName = 'stop' | 'repeat' | 'continue' | 'start-over';

export interface Imperative {
  name: ImperativeName;
  /** "number 3", "last", "previous" (repeat). */
  reference?: string;
}

export type FollowUp =
  /** More of the same list request: "and two pints of milk". */
  | { kind: 'more'; items: ItemAmount[]; unread?: string[] }
  /** The timer just set, at a new length: "make it ten minutes". */
  | { kind: 'length'; seconds: number };

/** `lang`: the language whose reading won (readRequest sets it), which the reply is said in. */
export type Reading = (
  | { kind: 'timer'; command: TimerCommand; question: boolean }
  | { kind: 'list'; command: ListCommand; question: boolean }
  | { kind: 'imperative'; imperatives: Imperative[] }
  | { kind: 'follow-up'; follow: FollowUp }
  /** It names something hark owns (`about`: "the chips timer") but asks nothing hark can read. */
  | { kind: 'unclear'; about: string }
) & { lang?: string };

export const DEFAULT_LIST = 'shopping';
