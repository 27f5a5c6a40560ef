import type { Clock } from '../core/clock.js';
import { createLogger, type Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import { ActionRouter, type ActionPolicy } from './actions/action-router.js';
import { registerBuiltInHandlers } from './actions/handlers.js';
import { KitchenTimers } from './actions/timers.js';
import { MemoryListBook, type ListBook } from './lists.js';
import type { Delivery, Target } from './actions/targets/target.js';
import { Deliveries } from './actions/deliveries.js';
import type { Effect, EffectSink } from '../core/effects.js';
import { CommandRouter } from './router.js';
import { framesFor } from './defaults.js';
import { said, type Said } from '../language/text.js';
import { readTimerAnswer, stopsRinging } from '../language/answers.js';
import type { KitchenLanguage } from '../language/kitchen.js';
import { kitchenLanguage, ownRepliesIn } from '../language/config.js';
import type { Situation } from '../language/situation.js';
import { readRequest } from '../language/understand.js';
import { FollowUpWindow, type WindowTake } from './follow-window.js';
import { rulePhrases } from './vocabulary.js';

/** Actions whose output is a re-saying of earlier speech: what they say is not "the last thing said". */
const RESAYING = new Set(['repeat', 'continue', 'start-over']);
/** Fired actions that do not open the follow-up window: not a command just carried out. */
const NO_FOLLOW_UP = new Set(['timer.done', 'stop']);

export type { CommandCoreOptions, CoreHost, CorePlugin } from './core-io.js';
import type { CommandCoreOptions, CorePlugin } from './core-io.js';

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
  /** The kitchen language (built-in sentences and the config's): the one reading of what is said. */
  readonly language: KitchenLanguage;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly onEffect: EffectSink;
  private readonly targets: ReadonlyMap<string, Target>;
  private readonly forward: Record<string, string[]>;
  private readonly deliveries: Deliveries;
  private readonly plugins: readonly CorePlugin[];
  private lastSpoken: string | undefined;
  /** The last spoken answer (a read-back, a list): "start over" says it again. */
  private lastAnswer: string | undefined;
  /** What was being said when "stop" cut hark off: "continue" resumes it. */
  private stopped: string | undefined;
  /** The action firing now (its speech is attributed to it). */
  private firing: string | undefined;
  private readonly area: string | undefined;
  private readonly window: FollowUpWindow;
  private readonly wakePhrases: string[];
  private readonly frameKinds: ReadonlyMap<string, string>;
  private readonly unknownLanguages = new Set<string>();
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
    this.deliveries = new Deliveries(this.targets, this.log, out, (k, a) => this.language.lang.reply(k, a));
    // actions.immediate is still accepted in config but no longer means anything: every action fires at once.
    const policy: ActionPolicy = {
      cooldownsMs: opts.actions.cooldownsMs,
      conflictWindowMs: opts.actions.conflictWindowMs,
      lastWins: opts.actions.lastWins,
    };
    this.actions = new ActionRouter({ clock: this.clock, log: this.log, policy, emit: (e) => this.fromActions(e) });
    this.language = kitchenLanguage(opts.language);
    const speaking = (code?: string) => this.language.speaking(code);
    this.timers = new KitchenTimers({
      language: speaking,
      clock: this.clock,
      emit: out,
      settings: { ringIntervalMs: opts.actions.timers.ringEveryMs, giveUpMs: opts.actions.timers.giveUpMs },
      ...(opts.timerKeeper ? { keeper: opts.timerKeeper } : {}),
      ...(opts.area ? { deviceArea: opts.area.toLowerCase() } : {}),
      onDone: (t, lateMs) => {
        const late = lateMs >= 60_000 ? { lateSeconds: Math.round(lateMs / 1000) } : {};
        this.actions.submit({
          name: 'timer.done',
          args: { ...(t.label ? { label: t.label } : {}), seconds: t.seconds, ...late, ...(t.lang ? { lang: t.lang } : {}) },
        });
      },
      // A delayed command's words, handled now as if just heard.
      onCommand: (t) => this.router.command({ id: `timer-${t.id}`, text: t.command!, rawText: t.command!, engine: 'text', atMs: this.clock.now() }),
      onGiveUp: (t) => this.log.warn('timer rang unanswered; gave up', { timer: t.label ?? `${t.seconds} s`, giveUpMs: opts.actions.timers.giveUpMs }),
    });
    this.lists = opts.lists ?? new MemoryListBook();
    const replies = ownRepliesIn(opts.language);
    registerBuiltInHandlers(this.actions, { timers: this.timers, lists: this.lists, emit: out, lastSpoken: () => this.lastSpoken, language: speaking });
    // The default frames' words (wake phrases, yes and no, dictation's) in every language of the device.
    const frames = framesFor(
      opts.router.frames,
      this.language.each().map((k) => k.lang),
    );
    this.router = new CommandRouter({
      clock: this.clock,
      emit: (e) => this.fromRouter(e),
      frames,
      voices: opts.voices ?? opts.router.voices,
      mode: opts.router.mode,
      fillers: opts.router.fillers,
      classifiers: opts.classifiers ?? {},
      log: this.log,
      ...(opts.area ? { area: opts.area } : {}),
      hearing: {
        language: this.language,
        situation: () => this.situation(),
        plainTarget: (t) => this.deliveries.plain(t),
        replies,
      },
    });
    this.registerAnswerHandlers();
    this.window = new FollowUpWindow({ clock: this.clock, ms: opts.router.followUpMs ?? 6000, emit: (e) => this.onEffect(e) });
    this.wakePhrases = rulePhrases(frames.base, ['prefix']).map((p) => said(p).norm);
    this.frameKinds = new Map(Object.entries(frames).map(([name, f]) => [name, f.kind]));
    this.plugins = opts.plugins ?? [];
    const pluginOut: EffectSink = (e) => {
      this.firing = undefined;
      out(e);
    };
    for (const p of this.plugins) p.attach({ clock: this.clock, router: this.router, actions: this.actions, emit: pluginOut });
  }

  /**
   * True while the follow-up window is open (router.followUpMs after hark acted on a command):
   * words without the wake word may go on from what was just done. For the audio side,
   * which treats a segment said now as meant for hark.
   */
  followUpOpen(): boolean {
    return this.window.open;
  }

  /** True while hark waits for an answer: a frame above base is open, or "Which timer?" was asked. */
  awaitingAnswer(): boolean {
    return this.router.stack.length > 1 || this.timers.asking;
  }

  /**
   * Words said now are likely meant for hark without the wake word: the follow-up window is open or
   * hark waits for an answer. One question for the audio side (transcribe a segment whole).
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
    return this.windowTake(said(text)) !== null;
  }

  /**
   * Is this said to hark? What hark would act on now, asked without acting: a ring's "stop" or
   * "thanks", the answer to "Which timer?", a follow-up inside the window, or anything a rule of
   * the open frames would take (the wake phrase, a command, an imperative that is the whole of what
   * was said; in always-listen mode, everything). The interruption filter asks this while hark
   * speaks (turn/addressed.ts), so what cuts hark off is what the router then acts on.
   */
  hears(text: string, language?: string): boolean {
    const s = said(text, language);
    if (this.timers.ringing && this.stopsRinging(s.words)) return true;
    if (this.timers.asking && readTimerAnswer(s.words, this.situation()) !== null) return true;
    if (this.windowTake(s)) return true;
    return this.router.wouldTake(text, language) !== null;
  }

  /** Words that silence a ring in any of the device's languages ("stop", "vale, gracias", "ok danke"). */
  private stopsRinging(words: readonly string[]): boolean {
    return this.language.each().some((k) => stopsRinging(words, k.lang));
  }

  /** What hark owns now, for the language to read words against. `last` only inside the follow-up window. */
  situation(): Situation {
    const lists = this.lists;
    let known: Situation['lists'] | undefined;
    return {
      timers: this.timers.list().map((t) => ({ ...(t.label ? { label: t.label } : {}), seconds: t.seconds, state: t.state })),
      // Read only when a sentence needs it (a store query on the appliance).
      get lists() {
        return (known ??= lists.names().map((name) => ({ name, items: lists.lines(name).map((l) => l.item) })));
      },
      ringing: this.timers.ringing,
      ...(this.area ? { area: this.area } : {}),
      last: this.window.last,
    };
  }

  dispatch(utterance: Utterance): void {
    this.checkLanguage(utterance.language);
    // While a timer rings, "stop", "ok", "thanks" silence it without the wake word, whatever frame
    // is open (a cook across the room will not say "computer" first).
    if (this.timers.ringing && this.stopsRinging(said(utterance.text).words)) {
      this.timers.stopRinging('voice');
      return;
    }
    // The answer to hark's own "Which timer?" needs no wake word either (as a yes to a question).
    if (this.timers.asking) {
      const pick = readTimerAnswer(said(utterance.text).words, this.situation());
      if (pick && this.timers.answer(pick)) return;
    }
    this.inDispatch = true;
    try {
      const take = this.windowTake(said(utterance.text, utterance.language));
      if (take) this.followUp(take, utterance);
      else this.router.dispatch(utterance);
    } finally {
      this.inDispatch = false;
    }
  }

  /**
   * A language speech-to-text named that the device does not hear (a multilingual engine that
   * heard French on an [en, es] device) is no hint: the words are read in every configured language
   * alike. Said once per language, so a log is not a stream of it.
   */
  private checkLanguage(code: string | undefined): void {
    if (!code || this.language.in(code) || this.unknownLanguages.has(code)) return;
    this.unknownLanguages.add(code);
    this.log.warn('speech-to-text named a language this device does not hear; read in its languages', {
      language: code,
      languages: this.language.each().map((k) => k.lang.code),
    });
  }

  /**
   * The follow-up window's part of "is this said to hark?" (follow-window.ts), for `hears` and
   * `dispatch` alike, so what cuts hark off in the window is what it then carries out.
   */
  private windowTake(s: Said): WindowTake | null {
    const stack = this.router.stack;
    const atBase = stack.length === 1;
    // A query kept open under the request (it held words) must not swallow the follow-up as text.
    const inQuery = !atBase && this.frameKinds.get(stack[stack.length - 1]!) === 'query';
    const woken = this.wakePhrases.some((p) => s.norm === p || s.norm.startsWith(p + ' '));
    return this.window.take(
      { atBase, inQuery, woken },
      () => readRequest(this.language, s, this.situation(), ['follow', 'timer', 'list']),
      (c) => this.language.speaking(c),
    );
  }

  /** What the window took: the follow-up step, or the request as if the wake word came first. */
  private followUp(take: WindowTake, utterance: Utterance): void {
    if (take.kind === 'follow-up') {
      const step = take.step;
      if ('say' in step) this.out({ type: 'speak', text: step.say });
      else {
        this.actions.submit({ name: step.action, args: step.args });
        if (typeof step.length === 'number') this.window.lengthened(step.length);
      }
      return;
    }
    // Inside a query kept open, the query's own kitchen rule takes it.
    if (this.router.stack.length === 1) this.router.command(utterance);
    else this.router.dispatch(utterance);
  }

  /** continue (resume the answer "stop" cut off) and start-over (say the last answer again from its start). */
  private registerAnswerHandlers(): void {
    this.actions.on('continue', () => {
      const text = this.stopped;
      this.stopped = undefined;
      this.out(text ? { type: 'speak', text, answer: true } : { type: 'speak', text: this.language.lang.reply('continue.nothing') });
    });
    this.actions.on('start-over', () => {
      const text = this.lastAnswer;
      this.out(text ? { type: 'speak', text, answer: true } : { type: 'speak', text: this.language.lang.reply('start_over.nothing') });
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
      await this.deliveries.idle();
      for (const p of this.plugins) await p.idle();
      if (!this.busy) return;
    }
  }

  /** True while an utterance, an async handler or a delivery is still in flight. */
  get busy(): boolean {
    return this.router.busy || this.deliveries.busy || this.plugins.some((p) => p.busy);
  }

  /** Each target as a person would want to read it ("file /var/lib/hark/submissions.jsonl"). */
  describeTargets(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, t] of this.targets) out[name] = t.describe();
    return out;
  }

  dispose(): void {
    this.window.dispose();
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
      const d: Delivery = {
        kind: 'submit',
        atMs: this.clock.now(),
        frame: e.frame,
        text: e.text,
        utteranceIds: e.utteranceIds,
        ...(e.items ? { items: e.items } : {}),
        ...(e.lang ? { lang: e.lang } : {}),
      };
      this.deliveries.deliver(e.target, d);
    }
  }

  private fromActions(e: Effect): void {
    if (e.type === 'action') this.firing = e.name;
    this.out(e);
    if (e.type === 'action' && this.inDispatch && !NO_FOLLOW_UP.has(e.name)) this.window.acted(e.name, e.args);
    if (e.type === 'action') {
      for (const t of this.forward[e.name] ?? []) this.deliveries.deliver(t, { kind: 'action', atMs: this.clock.now(), action: e.name, args: e.args });
    }
  }
}
