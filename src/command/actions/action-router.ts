import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { EffectSink } from '../../core/effects.js';

/**
 * Action router: debounce and route actions to handlers.
 *
 * - Every action that passes its cooldown fires at once: nothing waits (speech, records and the
 *   segment the action came from all happen now).
 * - Cooldown per action name (stop 0, repeat 1500, continue 1500, generate 5000 ms): the same
 *   action again within its cooldown after it fired is dropped (a double "repeat" says it once).
 *   One exception, so that the correction holds: a last-wins action with other args inside
 *   the conflict window is a correction, not a double tap ("repeat number 3. no, number 5").
 * - Last-wins within the conflict window (1.5 s) for the conflicting actions (the imperatives): a
 *   later one that fires within the window of the previous one supersedes it. The earlier action
 *   already fired, so "superseding" means: emit `action.superseded` (which fired action, by which)
 *   and run the earlier action's `undo`, registered beside its handler, to stop what it started
 *   (repeat's speech). Then the later action fires as usual. "stop. actually continue" → stop
 *   acted, continue acts and stop is recorded superseded; "repeat number 3. no, number 5" → 3 is
 *   cut off and 5 is said.
 * - The same action with the same args again inside the window ("stop … stop") supersedes nothing.
 * - A barge-in that cut hark off (interrupted()) restarts the cooldowns: the command that stopped
 *   hark's speech is not also refused by the cooldown of the speech it stopped.
 * - Everything else (timers, voice) neither supersedes nor is superseded.
 * - A handler (or undo) that throws or rejects is logged and reported; the pipeline carries on.
 * Why: docs/decisions.md#actions-fire-at-once-with-cooldowns-and-last-wins.
 */
export interface ActionRequest {
  name: string;
  args: Record<string, unknown>;
}

/** An action that fired: `seq` numbers the fired actions of one router, from 1. */
export interface FiredAction extends ActionRequest {
  seq: number;
}

export interface ActionPolicy {
  cooldownsMs: Record<string, number>;
  conflictWindowMs: number;
  /** Actions that conflict with each other: the last one said within the window wins. */
  lastWins: readonly string[];
  /**
   * No longer used: every action fires at once, so nothing is delayed and nothing is made
   * immediate. Kept so that configs (actions.immediate) that set it still load.
   * @deprecated
   */
  immediate?: readonly string[];
}

export const DEFAULT_ACTION_POLICY: ActionPolicy & { immediate: readonly string[] } = {
  cooldownsMs: { stop: 0, repeat: 1500, continue: 1500, generate: 5000 },
  conflictWindowMs: 1500,
  lastWins: ['stop', 'repeat', 'continue', 'start-over', 'generate'],
  /** Accepted for old configs; ignored (see ActionPolicy.immediate). */
  immediate: ['stop'],
};

export type ActionHandler = (action: FiredAction) => void | Promise<void>;
/** Stops what a fired action started, when a later conflicting action supersedes it. */
export type ActionUndo = (action: FiredAction, by: FiredAction) => void;

export class ActionRouter {
  private readonly handlers = new Map<string, { run: ActionHandler; undo?: ActionUndo }>();
  private readonly lastFired = new Map<string, { atMs: number; args: Record<string, unknown> }>();
  /** The last last-wins action that fired, and when: a conflicting one within the window supersedes it. */
  private standing: { action: FiredAction; atMs: number } | undefined;
  private seq = 0;
  private readonly lastWins: ReadonlySet<string>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly opts: { clock: Clock; emit: EffectSink; log: Logger; policy?: ActionPolicy }) {
    this.lastWins = new Set(this.policy.lastWins);
  }

  private get policy(): ActionPolicy {
    return this.opts.policy ?? DEFAULT_ACTION_POLICY;
  }

  /**
   * One handler per action name; a second registration replaces the first (and its undo). `undo`
   * stops what the action started when a later conflicting action supersedes it.
   */
  on(name: string, handler: ActionHandler, opts: { undo?: ActionUndo } = {}): void {
    this.handlers.set(name, { run: handler, ...(opts.undo ? { undo: opts.undo } : {}) });
  }

  /** What happened to the request: fired now (perhaps superseding an earlier one), or dropped. */
  submit(action: ActionRequest): 'fired' | 'dropped' {
    const now = this.opts.clock.now();
    const conflicting = this.lastWins.has(action.name) && this.policy.conflictWindowMs > 0;
    const rival = conflicting && this.standing && now - this.standing.atMs < this.policy.conflictWindowMs ? this.standing : undefined;
    const cooldown = this.policy.cooldownsMs[action.name] ?? 0;
    const last = this.lastFired.get(action.name);
    if (cooldown > 0 && last !== undefined && now - last.atMs < cooldown) {
      // Other args inside the conflict window: a correction ("number 3. no, number 5"), not a double tap.
      const correction = conflicting && now - last.atMs < this.policy.conflictWindowMs && !sameArgs(last.args, action.args);
      if (!correction) {
        this.opts.emit({ type: 'action.dropped', name: action.name, args: action.args, reason: 'cooldown' });
        return 'dropped';
      }
    }
    const fired: FiredAction = { name: action.name, args: action.args, seq: ++this.seq };
    // The same request said again ("stop … stop") is not a correction: nothing to supersede.
    if (rival && !(rival.action.name === fired.name && sameArgs(rival.action.args, fired.args))) this.supersede(rival.action, fired);
    if (conflicting) this.standing = { action: fired, atMs: now };
    this.fire(fired, now);
    return 'fired';
  }

  /**
   * The person talked over hark and cut it off (barge-in): what they say next is a new request, not
   * a double tap. Cooldowns restart, so a "repeat" that stopped hark's repeat is not refused by the
   * cooldown the first one started (the conflict window stays: a correction is still last-wins).
   */
  interrupted(): void {
    this.lastFired.clear();
  }

  /** Resolves when every async handler started so far has settled. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  /** Nothing waits on a timer any more; forgets the conflict window. */
  dispose(): void {
    this.standing = undefined;
  }

  /** Record that `old` was superseded, then stop what it started, before `by` fires. */
  private supersede(old: FiredAction, by: FiredAction): void {
    this.opts.emit({ type: 'action.superseded', name: old.name, args: old.args, seq: old.seq, by: by.name, bySeq: by.seq });
    const undo = this.handlers.get(old.name)?.undo;
    if (!undo) return;
    try {
      undo(old, by);
    } catch (err) {
      this.opts.log.error('action undo failed', { action: old.name, seq: old.seq, error: err });
      this.opts.emit({ type: 'action.failed', name: old.name, error: `undo failed: ${errorMessage(err)}`, seq: old.seq });
    }
  }

  private fire(action: FiredAction, now: number): void {
    this.lastFired.set(action.name, { atMs: now, args: action.args });
    this.opts.emit({ type: 'action', name: action.name, args: action.args, seq: action.seq });
    const handler = this.handlers.get(action.name)?.run;
    if (!handler) return;
    try {
      const result = handler(action);
      if (result && typeof (result as Promise<void>).then === 'function') {
        const p = (result as Promise<void>).catch((err: unknown) => this.failed(action, err)).finally(() => this.inFlight.delete(p));
        this.inFlight.add(p);
      }
    } catch (err) {
      this.failed(action, err);
    }
  }

  private failed(action: FiredAction, err: unknown): void {
    this.opts.log.error('action handler failed', { action: action.name, seq: action.seq, error: err });
    this.opts.emit({ type: 'action.failed', name: action.name, error: errorMessage(err), seq: action.seq });
  }
}

/** Args are plain JSON: equal when they serialise alike, whatever the key order. */
function sameArgs(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  return canonical(a) === canonical(b);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'undefined';
}
