import type { Clock } from '../core/clock.js';
import { HarkError } from '../core/errors.js';
import { createLogger, type Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import type { Classifier } from './classifier.js';
import { compileFrame, type CompiledRule, type MatchInput, type Verb } from './compile.js';
import { DEFAULT_FRAMES, DEFAULT_VOICES } from './defaults.js';
import type { Effect, EffectSink, Mode } from '../core/effects.js';
import { Frame, type ConfirmRequest, type FrameHost, type SayOptions, type VerbContext } from './frame.js';
import { ConfirmFrame } from './frames/confirm.js';
import { QueryFrame } from './frames/query.js';
import { FrameStack } from './frame-stack.js';
import { runVerbs, speakEffect, wordsLanguage, type VerbHost, type VerbResult } from './verbs.js';
import type { ButtonGesture, FramesSpec, VoiceSpec } from './spec.js';
import { englishFillers } from '../language/pack/english.js';
import { normalise, said as toSaid, type Said } from '../language/text.js';
import { intentLanguage } from '../language/intent-rules.js';
import { defaultRouterContext, firstTaker, matchInput, type RouterContext } from './router-context.js';
import { Restart, RuleWalk } from './rule-walk.js';

export interface CommandRouterOptions {
  clock: Clock;
  /** Where effects go. Called synchronously, in order, during dispatch and when timers fire. */
  emit: EffectSink;
  /** Frames as validated from config (router.frames); defaults if omitted. */
  frames?: FramesSpec;
  voices?: readonly VoiceSpec[];
  mode?: Mode;
  fillers?: readonly string[];
  /** Classifiers by the name classifier rules use. */
  classifiers?: Record<string, Classifier>;
  log?: Logger;
  /** This device's room (device.area): "the kitchen timer" on a kitchen device is its own. */
  area?: string;
  /** The kitchen language and what hark owns now (the command core's); built-in words and nothing owned if omitted. */
  hearing?: RouterContext;
}

/** A button press waiting behind an utterance being classified, aimed at the frame then on top. */
interface Press {
  gesture: ButtonGesture;
  frame: Frame;
}

/**
 * The frame-stack command router. Owns the stack and the listening mode; an utterance
 * walks the stack from the top, each frame's rules in order, until a rule handles it. A frame
 * without `check-parent` is exclusive; what nobody takes is reported as `ignored`.
 *
 * Pure: no I/O, time only from the Clock, results only through `emit`. `action` effects from here
 * are requests; the ActionRouter decides whether and when they fire.
 * Why: docs/decisions.md#the-command-router-is-a-stack-of-frames-and-check-parent-is-a-rule.
 */
export class CommandRouter {
  private readonly clock: Clock;
  private readonly emitFn: EffectSink;
  private readonly log: Logger;
  private readonly specs: FramesSpec;
  private readonly compiled = new Map<string, CompiledRule[]>();
  private readonly fillers: ReadonlySet<string>;
  private readonly stackOf: FrameStack;
  private readonly verbHost: VerbHost;
  private readonly walker: RuleWalk;
  private currentMode: Mode;
  private voiceList: readonly VoiceSpec[] = [];
  private voiceVocab = new Map<string, string>();
  private readonly host: FrameHost;
  private pending: Promise<void> | null = null;
  private readonly queue: (Utterance | Press)[] = [];
  private presses = 0;
  private readonly hearing: RouterContext;
  /** The rule being carried out is the wake phrase's: a frame it opens was opened on purpose. */
  private waking = false;

  constructor(opts: CommandRouterOptions) {
    this.clock = opts.clock;
    this.emitFn = opts.emit;
    this.log = opts.log ?? createLogger({ level: 'warn' });
    this.specs = opts.frames ?? DEFAULT_FRAMES;
    this.fillers = new Set(opts.fillers ?? englishFillers());
    this.currentMode = opts.mode ?? 'wake-word';
    this.hearing = opts.hearing ?? defaultRouterContext(opts.area?.toLowerCase());
    const classifiers = opts.classifiers ?? {};
    if (this.specs.base?.kind !== 'base') throw new HarkError('router.frames.base: there must be a frame named base of kind base', { exitCode: 2 });
    for (const [name, spec] of Object.entries(this.specs)) this.compiled.set(name, compileFrame(name, spec, classifiers));
    this.setVoices(opts.voices ?? DEFAULT_VOICES);
    const self = this;
    this.host = {
      clock: this.clock,
      emit: (e) => self.emit(e),
      speak: (text, opts) => self.emit(self.line(text, opts)),
      reply: (key, args, lang) => self.hearing.language.speaking(lang).reply(key, args),
      say: (key, args, opts) => self.emit(self.line(self.hearing.language.speaking(opts?.lang).reply(key, args), opts)),
      pop: (frame) => self.popFrom(frame),
      confirm: (req) => self.confirm(req),
      voices: () => self.voiceList,
      noted: (target, lang) => (self.hearing.plainTarget(target) ? self.hearing.replies(self.hearing.language.speaking(lang)).noted : null),
      languageTag: (lang) => (lang !== undefined && lang !== self.hearing.language.lang.code && self.hearing.language.in(lang) ? { lang } : {}),
    };
    this.stackOf = new FrameStack(this.specs, this.compiled, this.host, (e) => self.emit(e));
    this.stackOf.base(this.stackOf.create('base'));
    this.verbHost = {
      emit: (e) => self.emit(e),
      log: this.log,
      hearing: this.hearing,
      mode: () => self.currentMode,
      setMode: (mode, lang) => self.setMode(mode, lang),
      say: (key, lang) => self.emit(self.line(self.hearing.language.speaking(lang).reply(key), { ...(lang ? { lang } : {}) })),
      push: (from, name, ctx) => self.push(from, name, ctx),
      pop: (frame) => self.popFrom(frame),
    };
    this.walker = new RuleWalk({
      clock: this.clock,
      log: this.log,
      fillers: this.fillers,
      frames: () => self.frames,
      mode: () => self.currentMode,
      emit: (e) => self.emit(e),
      matchInput: (said) => self.matchInput(said),
      execute: (frame, verbs, ctx, waking) => {
        self.waking = waking;
        return self.execute(frame, verbs, ctx);
      },
      openAbove: (frame, name) => self.stackOf.openAbove(frame, name),
    });
  }

  private get frames(): Frame[] {
    return this.stackOf.frames;
  }
  private pushFrame(frame: Frame): void {
    this.stackOf.push(frame);
  }
  private popFrom(frame: Frame): void {
    this.stackOf.popFrom(frame);
  }
  private execute(frame: Frame, verbs: readonly Verb[], ctx: VerbContext): VerbResult {
    return runVerbs(this.verbHost, frame, verbs, ctx);
  }

  /** A push verb: open the frame (the wake phrase's push marks it woken), or hand the words to the one already open above. */
  private push(from: Frame, name: string, ctx: VerbContext): VerbResult {
    const rest = ctx.slots.rest ?? '';
    if (this.stackOf.openAbove(from, name)) {
      if (rest === '') {
        this.emit({ type: 'earcon', name: 'listening' });
        return 'handled';
      }
      return rest === ctx.said.original ? 'declined' : { redispatch: rest };
    }
    const frame = this.stackOf.create(name);
    // It answers in the language it was opened in, whatever is said in it later. Words no rule of a
    // language took (the always-listen catch-all's question) are that language the intent rules
    // read them in: "¿qué es un roux?" opens a Spanish query.
    frame.lang = wordsLanguage(ctx, this.hearing.language) ?? intentLanguage(ctx.said, this.hearing.language) ?? this.hearing.language.lang.code;
    const refusal = frame.refusal();
    if (refusal) {
      this.emit(this.line(refusal, { lang: frame.lang }));
      return 'handled';
    }
    frame.woken = this.waking;
    this.pushFrame(frame);
    return rest ? { redispatch: rest } : 'handled';
  }

  get mode(): Mode {
    return this.currentMode;
  }
  /** Frame names, bottom to top. */
  get stack(): string[] {
    return this.stackOf.names;
  }
  /** True while an utterance waits on a classifier (later ones queue behind it). */
  get busy(): boolean {
    return this.pending !== null;
  }
  /** Resolves when every queued utterance has been dispatched. */
  async idle(): Promise<void> {
    while (this.pending) await this.pending;
  }

  /** The voices the picker offers (the speech issue supplies the installed ones). */
  setVoices(voices: readonly VoiceSpec[]): void {
    this.voiceList = voices;
    this.voiceVocab = new Map();
    for (const v of voices) for (const s of v.say) this.voiceVocab.set(normalise(s), v.id);
  }

  /** Ask yes/no before doing something (used by inventory discard; the intent pass will too). */
  confirm(request: ConfirmRequest): void {
    const name = Object.entries(this.specs).find(([, s]) => s.kind === 'confirm')?.[0];
    if (!name) {
      this.log.warn('no confirm frame configured; treating the question as answered no', { prompt: request.prompt });
      request.onNo?.();
      return;
    }
    const frame = new ConfirmFrame(name, this.specs[name]!, this.compiled.get(name)!, this.host, request);
    frame.lang = request.lang ?? this.hearing.language.lang.code;
    this.pushFrame(frame);
  }

  /**
   * Open a frame from outside a rule (the intent pass listens for the answer to its clarifying
   * question). False when there is no such frame, it is a base or confirm frame, it is already
   * open, or it refuses (saying why).
   */
  open(name: string, lang?: string): boolean {
    const spec = this.specs[name];
    if (!spec || spec.kind === 'base' || spec.kind === 'confirm' || this.stack.includes(name)) return false;
    const frame = this.stackOf.create(name);
    frame.lang = (lang !== undefined ? this.hearing.language.in(lang)?.lang.code : undefined) ?? this.hearing.language.lang.code;
    const refusal = frame.refusal();
    if (refusal) {
      this.emit(this.line(refusal, { lang: frame.lang }));
      return false;
    }
    this.pushFrame(frame);
    return true;
  }

  /**
   * Open a frame a plug-in builds itself (voice picking's dialogue), on top, with this router's host:
   * its rules are its own, compiled by the plug-in, so no frame kind of the config's is needed.
   */
  openWith(make: (host: FrameHost) => Frame): Frame {
    const frame = make(this.host);
    this.pushFrame(frame);
    return frame;
  }

  /**
   * What an open query frame has collected so far and the language it was opened in (the cascade
   * asks the model about it, in that language, before the frame submits). Null when no such frame is open or it is not a query.
   */
  held(name: string): { text: string; lang: string | undefined } | null {
    const frame = this.frames.find((f) => f.name === name);
    return frame instanceof QueryFrame ? { text: frame.text, lang: frame.lang } : null;
  }

  /**
   * Send what an open frame holds and close it now, as its silence timer would (the answer
   * is due 2 s after the person stopped, not after the frame's 4 s). False when the frame is not open,
   * or an utterance is still being classified (the frame may yet change).
   */
  submitNow(name: string): boolean {
    const at = this.frames.findIndex((f) => f.name === name);
    if (at <= 0 || this.pending) return false;
    const frame = this.frames[at]!;
    const utterance: Utterance = { id: 'cascade', text: '', rawText: '', engine: 'text', atMs: this.clock.now() };
    frame.op('submit', { said: toSaid(''), slots: {}, utterance });
    this.popFrom(frame);
    return true;
  }

  /** Hard abort (a long button press): back to the base frame, nothing submitted. */
  abort(): void {
    if (this.frames.length > 1) this.popFrom(this.frames[1]!);
  }

  /**
   * Whether the top frame has a rule for this gesture now ({button: tap}). No side effects: the
   * daemon asks at the moment of the tap, to know whether the tap is the frame's (drop the
   * push-to-talk segment it opened) or its own ("stop speaking").
   */
  handlesButton(gesture: ButtonGesture): boolean {
    return this.buttonRule(this.top, gesture) !== undefined;
  }

  /**
   * A physical gesture from the daemon's button. Only the top frame sees it, through its
   * {button: tap} rule, whose verbs are the same as its spoken exit's (dictation: submit, pop;
   * inventory: save, pop), so the effects and the earcon are the same too. Never walks down with
   * check-parent: a tap while a question is asked over inventory must not save behind it.
   *
   * Returns true when consumed, false when the top frame has no rule for it (the caller keeps its
   * own meaning for the tap). While an utterance is being classified the press waits behind it
   * (and behind anything queued), then acts only if the frame it was aimed at is still on top.
   */
  button(gesture: ButtonGesture): boolean {
    const top = this.top;
    if (!this.buttonRule(top, gesture)) return false;
    if (this.pending) this.queue.push({ gesture, frame: top });
    else this.press({ gesture, frame: top });
    return true;
  }

  /** Clear every frame timer (shutdown). */
  dispose(): void {
    for (const f of this.frames) f.exit();
  }

  /**
   * Words to handle as if just said to hark (a delayed command coming due: "in 5 minutes, turn
   * off the oven"). In wake-word mode they are heard inside the query frame, as they were when
   * first said, so they need no wake phrase now.
   */
  command(utterance: Utterance): void {
    if (this.frames.length === 1 && this.currentMode === 'wake-word') {
      const query = Object.entries(this.specs).find(([, s]) => s.kind === 'query')?.[0];
      if (query) this.open(query, utterance.language);
    }
    this.dispatch(utterance);
  }

  dispatch(utterance: Utterance): void {
    if (this.pending) {
      this.queue.push(utterance);
      return;
    }
    this.run(utterance);
  }

  private get top(): Frame {
    return this.stackOf.top;
  }

  private buttonRule(frame: Frame, gesture: ButtonGesture): CompiledRule | undefined {
    return frame.rules.find((r) => r.button === gesture && (r.when === undefined || r.when === this.currentMode));
  }

  private press(p: Press): void {
    const text = `[${p.gesture}]`;
    const rule = this.top === p.frame ? this.buttonRule(p.frame, p.gesture) : undefined;
    if (!rule) {
      this.emit({ type: 'ignored', frame: p.frame.name, text, reason: 'the frame it was for had closed or changed before the press was handled' });
      return;
    }
    // A button rule's verbs need no words (validation refuses append), so the context is empty.
    const utterance: Utterance = { id: `button-${++this.presses}`, text: '', rawText: text, engine: 'text', atMs: this.clock.now() };
    const ctx: VerbContext = { said: toSaid(''), slots: { button: p.gesture }, utterance };
    try {
      p.frame.activity();
      this.emit({ type: 'matched', frame: p.frame.name, rule: rule.index, kind: rule.kind, text });
      this.execute(p.frame, rule.verbs, ctx);
    } catch (err) {
      this.log.error('button press failed', { error: err, gesture: p.gesture, frame: p.frame.name });
    }
  }

  private next(item: Utterance | Press): void {
    if ('gesture' in item) this.press(item);
    else this.run(item);
  }

  private run(utterance: Utterance): void {
    let restart: Restart;
    try {
      const r = this.walker.now(toSaid(utterance.text, utterance.language), utterance, 0);
      if (r === 'handled') return;
      restart = r;
    } catch (err) {
      this.log.error('dispatch failed', { error: err, text: utterance.text });
      return;
    }
    // A classifier rule was reached: run that walk again as a generator that can wait. Nothing
    // had been done for it yet (reaching a classifier means no earlier rule matched), so
    // re-evaluating the rules before it is safe.
    const walk = this.walker.waiting(restart.said, restart.utterance, restart.depth);
    this.pending = (async () => {
      let step = walk.next();
      while (!step.done) step = walk.next(await step.value);
    })()
      .catch((err: unknown) => this.log.error('dispatch failed', { error: err, text: utterance.text }))
      .finally(() => {
        this.pending = null;
        while (!this.pending && this.queue.length) this.next(this.queue.shift()!);
      });
  }

  private emit(e: Effect): void {
    this.emitFn(e);
  }

  private matchInput(said: Said): MatchInput {
    return matchInput(said, this.fillers, this.hearing, this.top, (name) => (name === 'voices' ? this.voiceVocab : EMPTY));
  }

  /**
   * Would a rule take these words now? The same walk as dispatch, acting on nothing: the question
   * "is this said to hark?" that the interruption filter asks while hark speaks, answered by the
   * rules that would then carry it out. The rule kind, or null.
   */
  wouldTake(text: string, language?: string): string | null {
    const said = toSaid(text, language);
    if (!said.norm) return null;
    return firstTaker(this.frames, this.currentMode, this.matchInput(said))?.rule.kind ?? null;
  }

  private setMode(mode: Mode, lang: string | undefined): void {
    this.currentMode = mode;
    this.emit({ type: 'mode', mode });
    this.emit(this.line(this.hearing.language.speaking(lang).reply(mode === 'always-listen' ? 'mode.always' : 'mode.wake'), lang ? { lang } : {}));
  }
  private line(text: string, opts?: SayOptions): Effect {
    return speakEffect(this.hearing.language, text, opts);
  }
}

const EMPTY: ReadonlyMap<string, string> = new Map();
