import type { Clock, TimerHandle } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { EffectSink } from '../router/effects.js';

/**
 * Seed 000's action router: debounce and route actions to handlers.
 *
 * - Cooldown per action name (stop 0, repeat 1500, continue 1500, generate 5000 ms): the same
 *   action again within its cooldown after it fired is dropped (a double "repeat" says it once).
 * - Last-wins within the conflict window (1.5 s) for the conflicting actions (the imperatives):
 *   one of them waits out the window and a newer one replaces it — "repeat number 3. no, number
 *   5" says number 5 only. Actions listed as immediate (stop) fire at once, because stopping speech
 *   must never wait; they still replace a waiting one, and a later one still wins after them
 *   ("stop. actually continue" → continue).
 * - Everything else (timers, voice) fires at once.
 * - A handler that throws or rejects is logged and reported; the pipeline carries on.
 */
export interface ActionRequest {
  name: string;
  args: Record<string, unknown>;
}

export interface ActionPolicy {
  cooldownsMs: Record<string, number>;
  conflictWindowMs: number;
  /** Actions that conflict with each other: the last one said within the window wins. */
  lastWins: readonly string[];
  /** Of those, the ones that fire at once rather than wait out the window. */
  immediate: readonly string[];
}

export const DEFAULT_ACTION_POLICY: ActionPolicy = {
  cooldownsMs: { stop: 0, repeat: 1500, continue: 1500, generate: 5000 },
  conflictWindowMs: 1500,
  lastWins: ['stop', 'repeat', 'continue', 'start-over', 'generate'],
  immediate: ['stop'],
};

export type ActionHandler = (action: ActionRequest) => void | Promise<void>;

export class ActionRouter {
  private readonly handlers = new Map<string, ActionHandler>();
  private readonly lastFired = new Map<string, number>();
  private waiting: { action: ActionRequest; timer: TimerHandle } | undefined;
  private readonly lastWins: ReadonlySet<string>;
  private readonly immediate: ReadonlySet<string>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly opts: { clock: Clock; emit: EffectSink; log: Logger; policy?: ActionPolicy },
  ) {
    const p = opts.policy ?? DEFAULT_ACTION_POLICY;
    this.lastWins = new Set(p.lastWins);
    this.immediate = new Set(p.immediate);
  }

  private get policy(): ActionPolicy {
    return this.opts.policy ?? DEFAULT_ACTION_POLICY;
  }

  /** One handler per action name; a second registration replaces the first. */
  on(name: string, handler: ActionHandler): void {
    this.handlers.set(name, handler);
  }

  /** What happened to the request: fired now, waiting out the conflict window, or dropped. */
  submit(action: ActionRequest): 'fired' | 'waiting' | 'dropped' {
    const now = this.opts.clock.now();
    const cooldown = this.policy.cooldownsMs[action.name] ?? 0;
    const last = this.lastFired.get(action.name);
    if (cooldown > 0 && last !== undefined && now - last < cooldown) {
      this.opts.emit({ type: 'action.dropped', name: action.name, args: action.args, reason: 'cooldown' });
      return 'dropped';
    }
    if (!this.lastWins.has(action.name) || this.policy.conflictWindowMs <= 0) {
      this.fire(action);
      return 'fired';
    }
    if (this.waiting) {
      const old = this.waiting;
      this.opts.clock.clearTimer(old.timer);
      this.waiting = undefined;
      this.opts.emit({ type: 'action.dropped', name: old.action.name, args: old.action.args, reason: 'superseded', by: action.name });
    }
    if (this.immediate.has(action.name)) {
      this.fire(action);
      return 'fired';
    }
    const timer = this.opts.clock.setTimer(this.policy.conflictWindowMs, () => {
      this.waiting = undefined;
      this.fire(action);
    });
    this.waiting = { action, timer };
    return 'waiting';
  }

  /** Resolves when every async handler started so far has settled. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  dispose(): void {
    if (this.waiting) this.opts.clock.clearTimer(this.waiting.timer);
    this.waiting = undefined;
  }

  private fire(action: ActionRequest): void {
    this.lastFired.set(action.name, this.opts.clock.now());
    this.opts.emit({ type: 'action', name: action.name, args: action.args });
    const handler = this.handlers.get(action.name);
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

  private failed(action: ActionRequest, err: unknown): void {
    this.opts.log.error('action handler failed', { action: action.name, error: err });
    this.opts.emit({ type: 'action.failed', name: action.name, error: errorMessage(err) });
  }
}
