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
import { said } from '../language/text.js';
import { parseTimerAnswer, stopsRinging } from '../kitchen/timer-language.js';
import type { VoiceSpec } from './spec.js';
import type { TimerHandle } from '../core/clock.js';
import { readFollowUp, type LastRequest } from './follow-up.js';
import { parseKitchen } from './kitchen-verb.js';
import { rulePhrases } from './vocabulary.js';

/** Actions whose output is a re-saying of earlier speech: what they say is not "the last thing said". */
const RESAYING = new Set(['repeat', 'continue', 'start-over']);
/** Fired actions that do not open the follow-up window: not a command just carried out. */
const NO_FOLLOW_UP = new Set(['timer.done', 'stop']);

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
  /** The last spoken answer (a read-back, a list): "start over" says it again. */
  private lastAnswer: string | undefined;
  /** What was being said when "stop" cut hark off: "continue" resumes it. */
  private stopped: string | undefined;
  /** The action firing now (its speech is attributed to it). */
  private firing: string | undefined;
  private readonly area: string | undefined;
  private readonly followUpMs: number;
  private readonly wakePhrases: string[];
  private readonly frameKinds: ReadonlyMap<string, string>;
  /** The follow-up window: open until `until` (clock ms). */
  private follow: { until: number; timer: TimerHandle } | null = null;
  /** What hark last did on a command, for a follow-up to lean on. */
  private lastRequest: LastRequest | null = null;
  /** True while an utterance is being dispatched: actions fired now were commanded by a person. */
  private inDispatch = false;

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
    this.registerAnswerHandlers();
    this.followUpMs = opts.router.followUpMs ?? 6000;
    this.wakePhrases = rulePhrases(opts.router.frames.base, ['prefix']).map((p) => said(p).norm);
    this.frameKinds = new Map(Object.entries(opts.router.frames).map(([name, f]) => [name, f.kind]));
    this.plugins = opts.plugins ?? [];
    const pluginOut: EffectSink = (e) => {
      this.firing = undefined;
      out(e);
    };
    for (const p of this.plugins) p.attach({ clock: this.clock, router: this.router, actions: this.actions, emit: pluginOut });
  }

  /**
   * True while the follow-up window is open (router.followUpMs after hark acted on a command):
   * words without the wake word may go on from what was just done. For the audio side (issue 21),
   * which treats a segment said now as meant for hark.
   */
  followUpOpen(): boolean {
    return this.follow !== null && this.clock.now() < this.follow.until;
  }

  /** True while hark waits for an answer: a frame above base is open, or "Which timer?" was asked. */
  awaitingAnswer(): boolean {
    return this.router.stack.length > 1 || this.timers.asking;
  }

  /**
   * Words said now are likely meant for hark without the wake word: the follow-up window is open or
   * hark waits for an answer. One question for the audio side (issue 21: transcribe a segment whole).
   */
  expectingWords(): boolean {
    return this.followUpOpen() || this.awaitingAnswer();
  }

  /**
   * Would these words, said now without the wake word, be taken as a follow-up (or a request the
   * rules carry out alone) inside the open window? Acts on nothing: the interruption side asks it
   * so "and two pints of milk" said over hark's "Added eggs…" counts as said to hark.
   */
  takesAsFollowUp(text: string): boolean {
    if (!this.followUpOpen()) return false;
    const s = said(text);
    const last = this.lastRequest;
    return (last !== null && readFollowUp(s.words, last) !== null) || parseKitchen(s.words, this.area) !== null;
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
    this.inDispatch = true;
    try {
      if (this.followUpOpen() && this.followUp(utterance)) return;
      this.router.dispatch(utterance);
    } finally {
      this.inDispatch = false;
    }
  }

  /**
   * Words without the wake word inside the follow-up window, at the base frame: a follow-up on what
   * was just done ("and two pints of milk"), or a request the rules carry out alone (a timer or list
   * request), handled as if the wake word came first. False for anything else (handled as usual:
   * in wake-word mode, ignored).
   */
  private followUp(utterance: Utterance): boolean {
    const stack = this.router.stack;
    const atBase = stack.length === 1;
    // A query kept open under the request (it held words) must not swallow the follow-up as text.
    const inQuery = !atBase && this.frameKinds.get(stack[stack.length - 1]!) === 'query';
    if (!atBase && !inQuery) return false;
    const s = said(utterance.text);
    if (this.wakePhrases.some((p) => s.norm === p || s.norm.startsWith(p + ' '))) return false;
    const last = this.lastRequest;
    const f = last ? readFollowUp(s.words, last) : null;
    if (f && 'text' in f) {
      if (atBase) this.router.command({ ...utterance, text: f.text });
      else this.router.dispatch({ ...utterance, text: f.text });
      return true;
    }
    if (f && 'action' in f) {
      this.actions.submit({ name: f.action, args: f.args });
      if (last?.kind === 'timer' && typeof f.length === 'number') this.lastRequest = { ...last, seconds: f.length };
      return true;
    }
    if (f && 'say' in f) {
      this.out({ type: 'speak', text: f.say });
      return true;
    }
    if (atBase && parseKitchen(s.words, this.area)) {
      this.router.command(utterance);
      return true;
    }
    return false;
  }

  private openFollowUp(): void {
    if (this.followUpMs <= 0) return;
    if (this.follow) this.clock.clearTimer(this.follow.timer);
    const until = this.clock.now() + this.followUpMs;
    this.follow = {
      until,
      timer: this.clock.setTimer(this.followUpMs, () => {
        this.follow = null;
        this.lastRequest = null;
        this.onEffect({ type: 'follow-up', open: false });
      }),
    };
    this.onEffect({ type: 'follow-up', open: true, untilMs: until });
  }

  /** What a fired action leaves for a follow-up to lean on. */
  private remember(name: string, args: Record<string, unknown>): void {
    if (name === 'timer.set' && typeof args.seconds === 'number' && args.command === undefined) {
      this.lastRequest = { kind: 'timer', seconds: args.seconds, ...(typeof args.label === 'string' ? { label: args.label } : {}) };
    } else if ((name === 'list.add' || name === 'list.remove') && typeof args.list === 'string') {
      this.lastRequest = { kind: 'list', op: name === 'list.add' ? 'add' : 'remove', list: args.list };
    } else if (name !== 'timer.add' && name !== 'timer.remove') {
      this.lastRequest = null;
    }
  }

  /** continue (resume the answer "stop" cut off) and start-over (say the last answer again from its start). */
  private registerAnswerHandlers(): void {
    this.actions.on('continue', () => {
      const text = this.stopped;
      this.stopped = undefined;
      this.out(text ? { type: 'speak', text, answer: true } : { type: 'speak', text: 'Nothing to continue.' });
    });
    this.actions.on('start-over', () => {
      const text = this.lastAnswer;
      this.out(text ? { type: 'speak', text, answer: true } : { type: 'speak', text: 'Nothing to start over.' });
    });
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
    if (this.follow) this.clock.clearTimer(this.follow.timer);
    this.follow = null;
    this.router.dispose();
    this.actions.dispose();
    this.timers.dispose();
    for (const p of this.plugins) p.dispose();
  }

  private out(e: Effect): void {
    if (e.type === 'speak' && !(this.firing && RESAYING.has(this.firing))) {
      this.lastSpoken = e.text;
      if (e.answer) this.lastAnswer = e.text;
    }
    if (e.type === 'stop-speaking') this.stopped = this.lastSpoken;
    this.onEffect(e);
  }

  private fromRouter(e: Effect): void {
    this.firing = undefined;
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
    if (e.type === 'action') this.firing = e.name;
    this.out(e);
    if (e.type === 'action' && this.inDispatch && !NO_FOLLOW_UP.has(e.name)) {
      this.remember(e.name, e.args);
      this.openFollowUp();
    }
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
