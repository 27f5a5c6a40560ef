import type { MessageArgs } from '../language/pack/message.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { Utterance } from '../core/utterance.js';
import type { CompiledRule, MatchInput, Slots } from './compile.js';
import type { Effect } from '../core/effects.js';
import type { FrameSpec, VoiceSpec } from './spec.js';
import type { Said } from '../language/text.js';

/** A question the confirm frame asks; the pending action lives here until yes, no or timeout. */
export interface ConfirmRequest {
  prompt: string;
  onYes: () => void;
  onNo?: () => void;
  /** No answer in time (the frame says so and does nothing; the asker may want to forget too). */
  onTimeout?: () => void;
  /** The language the question is asked in (the asking frame's); the device's first if absent. */
  lang?: string;
}

/** How a frame's line is said: `answer`, `rate` (effects.ts), and `lang`, the language it is said in (the device's first if absent). */
export interface SayOptions {
  answer?: true;
  rate?: number;
  lang?: string;
}

/** What a frame may ask of the router that holds it. */
export interface FrameHost {
  readonly clock: Clock;
  emit(effect: Effect): void;
  /** `answer`: this is the answer to a question (a read-back), not a notice; `rate`: words a minute for this line. See effects.ts. */
  speak(text: string, opts?: SayOptions): void;
  /** Say one of the pack's replies (packs/<lang>/replies.yaml), in `opts.lang` (the device's first language if absent or not the device's). */
  say(key: string, args?: MessageArgs, opts?: SayOptions): void;
  /** A reply's text in that language (the device's first if absent), for a question another frame asks. */
  reply(key: string, args?: MessageArgs, lang?: string): string;
  /** Pop this frame and everything above it (no-op if it is already gone). */
  pop(frame: Frame): void;
  confirm(request: ConfirmRequest): void;
  voices(): readonly VoiceSpec[];
  /** What to say when words were handed to this target, or null (a target that answers for itself); in `lang`, as say(). */
  noted(target: string, lang?: string): string | null;
  /** `{lang}` when it is one of the device's languages other than the first, else `{}`: what a submission carries. */
  languageTag(lang?: string): { lang?: string };
}

export interface VerbContext {
  said: Said;
  slots: Slots;
  utterance: Utterance;
  /** What the rules read of the words (absent for a button press). */
  input?: MatchInput;
  /** The language of the rule that took the words (CompiledRule.lang), when it names one. */
  lang?: string;
}

/**
 * One level of the stack: an ordered rule list and the state of one mode. State lives in the
 * instance, so popping a frame forgets it; nothing outside needs cleaning up.
 *
 * Lifecycle: enter (pushed) → cover/uncover (another frame above it comes and goes) → exit
 * (popped). Timers run only while a frame is on top: a query covered by the voice picker must not
 * submit behind the picker's back.
 */
export abstract class Frame {
  private timer: TimerHandle | undefined;
  protected covered = false;
  /** Opened by the wake phrase: someone spoke to hark on purpose, and a reply is due. */
  woken = false;
  /**
   * The language of the words that opened it (a pack code; undefined: the base frame, which
   * answers in the language of each utterance). Set before the frame is pushed; what it says is
   * said in it.
   */
  lang: string | undefined;

  constructor(
    readonly name: string,
    readonly spec: FrameSpec,
    readonly rules: readonly CompiledRule[],
    protected readonly host: FrameHost,
  ) {}

  /** Why this frame cannot open now (said aloud instead), or null. */
  refusal(): string | null {
    return null;
  }
  enter(): void {}
  exit(): void {
    this.disarm();
  }
  cover(): void {
    this.covered = true;
    this.disarm();
  }
  uncover(): void {
    this.covered = false;
  }
  /** An utterance reached this frame's rules. */
  activity(): void {}
  /** True while the frame holds words (or items) not yet handed to a target. */
  holds(): boolean {
    return false;
  }

  op(op: string, _ctx: VerbContext): void {
    // Validation at config load only allows a kind's own verbs, so this is a bug, not bad input.
    throw new Error(`frame ${this.name} (${this.spec.kind}) has no verb "${op}"`);
  }

  /** Say one of the pack's replies in this frame's language. */
  protected say(key: string, args?: MessageArgs, opts?: { answer?: true; rate?: number }): void {
    this.host.say(key, args, this.in(opts));
  }
  /** Say these words (already in this frame's language, or the person's own): the voice is the frame's language's. */
  protected speak(text: string, opts?: { answer?: true; rate?: number }): void {
    this.host.speak(text, this.in(opts));
  }
  protected reply(key: string, args?: MessageArgs): string {
    return this.host.reply(key, args, this.lang);
  }
  private in(opts: { answer?: true; rate?: number } = {}): SayOptions {
    return this.lang !== undefined ? { ...opts, lang: this.lang } : opts;
  }

  protected arm(ms: number, fn: () => void): void {
    this.disarm();
    this.timer = this.host.clock.setTimer(ms, () => {
      this.timer = undefined;
      fn();
    });
  }
  protected disarm(): void {
    if (this.timer) this.host.clock.clearTimer(this.timer);
    this.timer = undefined;
  }
  protected get armed(): boolean {
    return this.timer !== undefined;
  }
}

/**
 * A frame that closes itself after a quiet spell (a query's silence, the voice picker nobody
 * answers): the timer starts on entry, restarts whenever an utterance reaches the frame, and is
 * paused while another frame covers it, then starts afresh when it is uncovered.
 */
export abstract class IdleFrame extends Frame {
  /** How long a quiet spell lasts. */
  protected abstract idleMs(): number;
  /** What to do when it has lasted that long. */
  protected abstract idle(): void;

  override enter(): void {
    this.restartIdle();
  }
  override uncover(): void {
    super.uncover();
    this.restartIdle();
  }
  override activity(): void {
    if (!this.covered) this.restartIdle();
  }
  private restartIdle(): void {
    this.arm(this.idleMs(), () => this.idle());
  }
}

/** The bottom frame: no state of its own (the mode belongs to the router). */
export class BaseFrame extends Frame {}

export function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}
