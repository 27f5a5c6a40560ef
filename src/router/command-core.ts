import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import { createLogger, type Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import { ActionRouter, type ActionPolicy } from '../actions/action-router.js';
import { registerBuiltInHandlers } from '../actions/handlers.js';
import { KitchenTimers, type TimerKeeper } from '../actions/timers.js';
import { MemoryListBook, type ListBook } from '../kitchen/lists.js';
import { DeliveryError, type Delivery, type Target } from '../actions/targets/target.js';
import type { ActionsConfig } from '../config/sections/actions.js';
import type { RouterConfig } from '../config/sections/router.js';
import type { Classifier } from './classifier.js';
import type { Effect, EffectSink } from './effects.js';
import { CommandRouter } from './router.js';
import { said } from './text.js';
import { parseTimerAnswer, stopsRinging } from '../kitchen/timer-language.js';
import type { VoiceSpec } from './spec.js';

export interface CommandCoreOptions {
  clock: Clock;
  router: RouterConfig;
  actions: ActionsConfig;
  /** Builds the targets; given the core's own sink so a speak target can talk. */
  targets?: (emit: EffectSink) => ReadonlyMap<string, Target>;
  classifiers?: Record<string, Classifier>;
  /** Voices the speech engine has (overrides router.voices). */
  voices?: readonly VoiceSpec[];
  log?: Logger;
  /** Everything that leaves the core: speech, earcons, fired actions, stack changes, ... */
  onEffect: EffectSink;
  /** Parts that ride on the core (the intent pass): attached once the router exists. */
  plugins?: readonly CorePlugin[];
  /** Where lists live (the store on the appliance; the intent pass shares it). Memory if omitted. */
  lists?: ListBook;
  /** Where timers are kept across restarts (the store). */
  timerKeeper?: TimerKeeper;
  /** This device's room (device.area). */
  area?: string;
}


/** What a plugin gets: the router (to ask yes/no), the action router (to act) and the core's sink. */
export interface CoreHost {
  readonly clock: Clock;
  readonly router: CommandRouter;
  readonly actions: ActionRouter;
  emit: EffectSink;
}

/** Something that works beside the router, asynchronously, and must be waited for by idle(). */
export interface CorePlugin {
  attach(host: CoreHost): void;
  readonly busy: boolean;
  idle(): Promise<void>;
  dispose(): void;
}

/**
 * The command core as one piece: CommandRouter → ActionRouter → handlers and targets, kitchen
 * timers, and the "last thing said" that repeat needs. The daemon and `hark simulate` both build
 * exactly this, so what a technician simulates is what the appliance runs.
 *
 * Effect flow: router `action` requests go to the ActionRouter (only fired ones come out, at once,
 * numbered by `seq`; a correction inside the conflict window also brings `action.superseded` for the
 * earlier one, after which its registered undo has already run); `submit` goes out and to its
 * target; fired actions named in actions.forward go to targets too.
 */
export class CommandCore {
  readonly router: CommandRouter;
  readonly actions: ActionRouter;
  readonly timers: KitchenTimers;
  /** The lists rules (and the intent pass) keep: for the debug page and the lists API. */
  readonly lists: ListBook;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly onEffect: EffectSink;
  private readonly targets: ReadonlyMap<string, Target>;
  private readonly forward: Record<string, string[]>;
  private readonly deliveries = new Set<Promise<void>>();
  private readonly plugins: readonly CorePlugin[];
  private lastSpoken: string | undefined;
  private readonly area: string | undefined;

  constructor(opts: CommandCoreOptions) {
    this.clock = opts.clock;
    this.log = opts.log ?? createLogger({ level: 'warn' });
    this.onEffect = opts.onEffect;
    this.forward = opts.actions.forward;
    this.area = opts.area?.toLowerCase();
    const out: EffectSink = (e) => this.out(e);
    this.targets = opts.targets?.(out) ?? new Map();
    // actions.immediate is still accepted in config but no longer means anything: every action fires at once.
    const policy: ActionPolicy = {
      cooldownsMs: opts.actions.cooldownsMs,
      conflictWindowMs: opts.actions.conflictWindowMs,
      lastWins: opts.actions.lastWins,
    };
    this.actions = new ActionRouter({ clock: this.clock, log: this.log, policy, emit: (e) => this.fromActions(e) });
    this.timers = new KitchenTimers({
      clock: this.clock,
      emit: out,
      settings: { ringIntervalMs: opts.actions.timers.ringEveryMs, giveUpMs: opts.actions.timers.giveUpMs },
      ...(opts.timerKeeper ? { keeper: opts.timerKeeper } : {}),
      ...(opts.area ? { deviceArea: opts.area.toLowerCase() } : {}),
      onDone: (t, lateMs) => {
        const late = lateMs >= 60_000 ? { lateSeconds: Math.round(lateMs / 1000) } : {};
        this.actions.submit({ name: 'timer.done', args: { ...(t.label ? { label: t.label } : {}), seconds: t.seconds, ...late } });
      },
      // A delayed command's words, handled now as if just heard.
      onCommand: (t) => this.router.command({ id: `timer-${t.id}`, text: t.command!, rawText: t.command!, engine: 'text', atMs: this.clock.now() }),
      onGiveUp: (t) => this.log.warn('timer rang unanswered; gave up', { timer: t.label ?? `${t.seconds} s`, giveUpMs: opts.actions.timers.giveUpMs }),
    });
    this.lists = opts.lists ?? new MemoryListBook();
    registerBuiltInHandlers(this.actions, { timers: this.timers, lists: this.lists, emit: out, lastSpoken: () => this.lastSpoken });
    this.router = new CommandRouter({
      clock: this.clock,
      emit: (e) => this.fromRouter(e),
      frames: opts.router.frames,
      voices: opts.voices ?? opts.router.voices,
      mode: opts.router.mode,
      fillers: opts.router.fillers,
      classifiers: opts.classifiers ?? {},
      log: this.log,
      ...(opts.area ? { area: opts.area } : {}),
    });
    this.plugins = opts.plugins ?? [];
    for (const p of this.plugins) p.attach({ clock: this.clock, router: this.router, actions: this.actions, emit: out });
  }

  dispatch(utterance: Utterance): void {
    // While a timer rings, "stop", "ok", "thanks" silence it without the wake word, whatever frame
    // is open (a cook across the room will not say "computer" first).
    if (this.timers.ringing && stopsRinging(said(utterance.text).words)) {
      this.timers.stopRinging('voice');
      return;
    }
    // The answer to hark's own "Which timer?" needs no wake word either (as a yes to a question).
    if (this.timers.asking) {
      const pick = parseTimerAnswer(said(utterance.text).words, this.area ? { area: this.area } : {});
      if (pick && this.timers.answer(pick)) return;
    }
    this.router.dispatch(utterance);
  }

  /**
   * A button tap: a ringing timer takes it first (true), before the top frame or "stop speaking".
   * The daemon and simulate call this before their own meaning of the tap.
   */
  tapStopsRinging(): boolean {
    return this.timers.stopRinging('button');
  }

  /** The person cut hark off by talking over it (barge-in): their next command is a new request (cooldowns restart). */
  interrupted(): void {
    this.actions.interrupted();
  }

  /** Resolves when nothing is in flight: queued utterances, async handlers, deliveries. */
  async idle(): Promise<void> {
    for (;;) {
      await this.router.idle();
      await this.actions.idle();
      if (this.deliveries.size) await Promise.all([...this.deliveries]);
      for (const p of this.plugins) await p.idle();
      if (!this.busy) return;
    }
  }

  /** True while an utterance, an async handler or a delivery is still in flight. */
  get busy(): boolean {
    return this.router.busy || this.deliveries.size > 0 || this.plugins.some((p) => p.busy);
  }

  /** Each target as a person would want to read it ("file /var/lib/hark/submissions.jsonl"). */
  describeTargets(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, t] of this.targets) out[name] = t.describe();
    return out;
  }

  dispose(): void {
    this.router.dispose();
    this.actions.dispose();
    this.timers.dispose();
    for (const p of this.plugins) p.dispose();
  }

  private out(e: Effect): void {
    if (e.type === 'speak') this.lastSpoken = e.text;
    this.onEffect(e);
  }

  private fromRouter(e: Effect): void {
    if (e.type === 'action') {
      this.actions.submit({ name: e.name, args: e.args });
      return;
    }
    this.out(e);
    if (e.type === 'submit') {
      const d: Delivery = { kind: 'submit', atMs: this.clock.now(), frame: e.frame, text: e.text, utteranceIds: e.utteranceIds, ...(e.items ? { items: e.items } : {}) };
      this.deliver(e.target, d);
    }
  }

  private fromActions(e: Effect): void {
    this.out(e);
    if (e.type === 'action') {
      for (const t of this.forward[e.name] ?? []) this.deliver(t, { kind: 'action', atMs: this.clock.now(), action: e.name, args: e.args });
    }
  }

  private deliver(name: string, d: Delivery): void {
    const target = this.targets.get(name);
    if (!target) {
      this.out({ type: 'delivery-failed', target: name, kind: d.kind, error: `no target named "${name}"`, attempts: 0 });
      return;
    }
    const p: Promise<void> = target
      .deliver(d)
      .then(
        (detail) => this.out({ type: 'delivered', target: name, kind: d.kind, ...(detail ? { detail } : {}) }),
        (err: unknown) => {
          const attempts = err instanceof DeliveryError ? err.attempts : 1;
          this.log.error('delivery failed', { target: name, error: err });
          this.out({ type: 'delivery-failed', target: name, kind: d.kind, error: errorMessage(err), attempts });
        },
      )
      .finally(() => this.deliveries.delete(p));
    this.deliveries.add(p);
  }
}
