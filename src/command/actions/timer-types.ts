import type { TimerHandle } from '../../core/clock.js';

/** A kitchen timer (timers.ts): what the store keeps, the debug page shows and the effects report. */
export interface KitchenTimer {
  id: number;
  label?: string;
  /** The duration it was set for (what "the 5 minute timer" means). */
  seconds: number;
  /** Clock time it is (or was) due. While paused, meaningless: see remainingMs. */
  dueAtMs: number;
  state: 'running' | 'paused' | 'ringing';
  /** While paused: what was left. */
  remainingMs?: number;
  /** A delayed command ("in 5 minutes, open the garage door"). */
  command?: string;
  /** Another device's timer, rung here for its area (the fleet): that device and its id there. Never kept in the store. */
  from?: { device: string; id: number };
  /** The language it was set in, when not the device's first: its ring is said in it. */
  lang?: string;
}

export interface TimerSettings {
  /** A ringing timer is announced again this often. */
  ringIntervalMs: number;
  /** A timer nobody stops stops ringing after this long (logged). */
  giveUpMs: number;
}

export const DEFAULT_TIMER_SETTINGS: TimerSettings = { ringIntervalMs: 6000, giveUpMs: 300_000 };

/** Where timers are kept across restarts (the store); clock times, the keeper converts. */
export interface TimerKeeper {
  save(t: KitchenTimer): void;
  remove(id: number): void;
}

export interface TimerEvents {
  /** First ring of a due timer (the core turns it into a timer.done action, which speaks). */
  onDone: (t: KitchenTimer, lateMs: number) => void;
  onCommand: (t: KitchenTimer) => void;
  /** A timer gave up ringing unheard. */
  onGiveUp?: (t: KitchenTimer) => void;
}

/** `rung`: rings of it gone unanswered since it came due (each is louder: the speaker's AlarmLevel). */
export type Live = KitchenTimer & { handle?: TimerHandle; ringingSince?: number; rung?: number };
export type TimerOp = 'cancel' | 'status' | 'pause' | 'resume' | 'add' | 'remove';

/** How long "Which timer?" waits for its answer without the wake word. */
export const ANSWER_MS = 10_000;

/** A timer as kept and reported: without its clock handle and its ring count. */
export function plain(t: Live): KitchenTimer {
  const { handle: _h, ringingSince: _r, rung: _n, ...rest } = t;
  return rest;
}

/** A timer's fields as its `timer` effects carry them. */
export function eventOf(t: KitchenTimer): {
  id: number;
  label?: string;
  seconds: number;
  dueAtMs: number;
  command?: string;
  from?: { device: string; id: number };
} {
  return {
    id: t.id,
    seconds: t.seconds,
    dueAtMs: t.dueAtMs,
    ...(t.label ? { label: t.label } : {}),
    ...(t.command ? { command: t.command } : {}),
    ...(t.from ? { from: t.from } : {}),
  };
}
