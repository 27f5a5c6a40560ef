import type { Secrets } from '../core/secrets.js';
import type { ConversationConfig } from './config.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import type { Effect } from '../core/effects.js';
import type { Speech } from '../speech/create.js';
import type { Store } from '../store/store.js';
import { ResponseCascade } from '../turn/cascade.js';
import type { FilterDecision, InterruptionFilter } from '../turn/interruption.js';
import { addressedToHark, takesEveryWord, type RouterView } from '../turn/addressed.js';
import type { Turn, TurnCascade, Worked } from '../turn/turns.js';
import { cascadeToBus, createBargeIn } from '../turn/wiring.js';
import { ignoreLists } from '../turn/ignore-list.js';
import { buildCommandParts, type CommandSandbox, type CommandParts } from './command-parts.js';
import { applySpeechEffect } from './speech-effects.js';
import { turnSteps } from './turn-steps.js';

export interface ConversationDeps {
  config: ConversationConfig;
  secrets?: Secrets;
  bus: Bus;
  clock: Clock;
  log: Logger;
  /** Where lists and timers are kept (the appliance); null keeps them in memory (simulate, replay). */
  store: Store | null;
  /** hark's voice: the speaker on the appliance, playback modelled on the clock in simulate and replay; null: mute. */
  speech: Speech | null;
  voices?: readonly { id: string; say?: string[] }[];
  /** simulate and replay: no side effect outside a scratch directory, and the model only where asked. */
  sandbox?: CommandSandbox;
  /** No response cascade: answers are said at once (a benchmark's baseline). */
  noCascade?: boolean;
}

/**
 * The command side of hark, built once the same way for `hark run`, `hark simulate` and `hark replay`
 * (docs/decisions.md#one-command-side-for-run-simulate-and-replay): the command core (router, frames, actions, timers, lists, the intent pass and Home
 * Assistant's agent), the response cascade (an answer or a proposal prepared 0.5 s after the
 * person stopped and spoken at 2 s), the interruption filter and hark's voice following the
 * core's effects. The daemon's segment path, simulate's stdin and replay's stored segments all feed
 * utterances into dispatch(); what a technician simulates is what the device runs.
 */
export class Conversation {
  readonly commands: CommandParts;
  readonly cascade: TurnCascade | null;
  readonly barge: InterruptionFilter | null;
  private readonly d: ConversationDeps;
  private top: string | undefined = 'base';
  /** When the person stopped speaking, for the utterance being dispatched (the cascade counts from it). */
  private speechEndAt: number | undefined;
  private readonly listeners: ((e: Effect, atMs: number) => void)[] = [];
  /**
   * Where the cascade's hand-over of an open request waits its turn (the segment path's line, behind
   * every segment closed before it); run at once when unset.
   */
  lineUp: ((run: () => Promise<void>, frame: string) => Promise<void>) | null = null;

  constructor(d: ConversationDeps) {
    this.d = d;
    const { config, clock, bus, speech } = d;
    this.commands = buildCommandParts({
      config,
      ...(d.secrets ? { secrets: d.secrets } : {}),
      clock,
      log: d.log,
      bus,
      store: d.store,
      ...(d.voices ? { voices: d.voices } : {}),
      ...(d.sandbox ? { sandbox: d.sandbox } : {}),
      onEffect: (e) => this.effect(e),
    });
    this.cascade =
      speech && !d.noCascade
        ? new ResponseCascade<Turn, Worked, Int16Array | null>({
            clock,
            timings: config.cascade,
            onEvent: cascadeToBus(bus),
            // Model step is real for an open request the intent pass will answer.
            steps: turnSteps({
              speech,
              prepare: () => {
                const pass = this.commands.intent?.pass;
                return pass ? (text, signal, frame) => pass.prepare(text, signal, this.commands.core.router.held(frame)?.lang) : null;
              },
              submitHeld: (frame, signal) => (this.lineUp ? this.lineUp(() => this.submitHeld(frame, signal), frame) : this.submitHeld(frame, signal)),
            }),
          })
        : null;
    this.barge = speech
      ? createBargeIn({
          // Words said over hark are read with the ignore list of the language they were heard in.
          settings: {
            ...config.interruption,
            languages: ignoreLists(
              config.interruption.ignoreList,
              this.commands.core.language.each().map((k) => ({ code: k.lang.code, backchannels: k.lang.pack.words.backchannels })),
            ),
          },
          clock,
          bus,
          targets: {
            isSpeaking: () => speech.queue.isSpeaking,
            stopSpeaking: (r) => speech.queue.stop(r),
            interruptCascade: (r) => this.cascade?.interrupt(r),
            interrupted: () => this.commands.core.interrupted(),
          },
        })
      : null;
  }

  get core(): CommandParts['core'] {
    return this.commands.core;
  }

  /** The frame on top of the router's stack. */
  get topFrame(): string | undefined {
    return this.top;
  }

  /** Every effect, after hark's voice has acted on it (the segment's record, simulate's printout, replay's outcome). */
  listen(fn: (e: Effect, atMs: number) => void): void {
    this.listeners.push(fn);
  }

  /**
   * An utterance meant for the router: dispatched, and once the router has taken it, an open request
   * the model will answer is prepared by the cascade rather than left to the frame's silence timer.
   * `speechEndAt`: when the person stopped (clock ms); now, when not known.
   */
  async dispatch(u: Utterance, speechEndAt?: number): Promise<void> {
    this.speechEndAt = speechEndAt;
    try {
      this.commands.core.dispatch(u);
      // The router, not its deliveries: a model call or a slow webhook must not hold up the next
      // utterance — "stop" has to act while Ollama is still thinking.
      await this.commands.core.router.idle();
      this.prepareHeld(speechEndAt ?? this.d.clock.now());
    } finally {
      this.speechEndAt = undefined;
    }
  }

  /**
   * The interruption filter on words said while hark speaks: command words stop it at once, a backchannel lets it
   * talk on. Not while hark waits for a yes or no, nor while a timer rings: "ok" or "thanks" over the
   * ring is how a cook stops it. Null when no filter runs (no voice) or it failed (the person gets through).
   */
  interruption(id: string, text: string, final: boolean, speaking: boolean, language?: string): FilterDecision | null {
    if (!this.barge) return null;
    const during = !this.waitingForAnswer() && (speaking || (this.d.speech?.queue.isSpeaking ?? false));
    try {
      // In wake-word mode, talk between cooks ("behind you") is not said to hark.
      const addressed = !during || addressedToHark(text, this.routerView(), language);
      return this.barge.transcript({ id, text, final, addressed, ...(language ? { language } : {}) }, during);
    } catch (err) {
      // An error in the filter falls back to letting the person through.
      this.d.log.error('interruption filter failed; allowing', { error: errorMessage(err) });
      return null;
    }
  }

  /** Every engine failed on words said over hark: they get the floor. */
  interruptionFailed(id: string, reason: string): void {
    if (!this.barge) return;
    try {
      this.barge.failed(id, reason, !this.waitingForAnswer());
    } catch (err) {
      this.d.log.error('interruption filter failed', { error: errorMessage(err) });
    }
  }

  /** Forget a decision still waiting for its final words (the segment came to nothing). */
  forgetInterruption(id: string): void {
    this.barge?.forget(id);
  }

  /** A filtered backchannel is still content for a frame that takes every word (dictation, inventory). */
  takesEveryWord(): boolean {
    return takesEveryWord(this.routerView());
  }

  routerView(): RouterView {
    const core = this.commands.core;
    return { frames: this.frames(), mode: core.router.mode, stack: core.router.stack, hears: (text, language) => core.hears(text, language) };
  }

  /** Words take the floor from an answer being prepared. */
  interruptAnswer(reason: string): void {
    this.cascade?.interrupt(reason);
  }

  /** A segment opened: an answer being prepared waits until it is known to be words (a cough gives it back). */
  hold(): boolean {
    if (!this.cascade) return false;
    this.cascade.hold();
    return true;
  }

  release(): void {
    this.cascade?.release();
  }

  /** Hand the open request over now, as its silence timer would; the person spoke meanwhile: nothing. */
  async submitHeld(frame: string, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return;
    if (this.commands.core.router.submitNow(frame)) await this.commands.core.router.idle();
  }

  /** The model or the voice is working on an answer (simulate lets virtual time follow real time meanwhile). */
  get working(): boolean {
    return this.cascade?.working ?? false;
  }

  /**
   * simulate and replay, on a virtual clock: resolve once nothing is in flight. While the router waits
   * on a classifier, or the model or the voice works on an answer, virtual time follows real time, so
   * a model's 400 ms and a timeout mean what they would on the device.
   */
  async settle(clock: { advanceBy(ms: number): void }): Promise<void> {
    const core = this.commands.core;
    const sleep = (ms: number) => new Promise<false>((r) => setTimeout(() => r(false), ms));
    let realLast = performance.now();
    for (;;) {
      const idle = await Promise.race([core.idle().then(() => true), sleep(5)]);
      if (idle && !this.working) return;
      // Only the model or the voice is working: wait for it in real time, not in a tight loop.
      if (idle) await sleep(5);
      if (core.router.busy || this.working) {
        const now = performance.now();
        clock.advanceBy(Math.max(1, Math.round(now - realLast)));
        realLast = now;
      }
    }
  }

  dispose(): void {
    this.cascade?.interrupt('shutdown');
    this.commands.core.dispose();
  }

  private waitingForAnswer(): boolean {
    return this.top === 'confirm' || this.commands.core.timers.ringing;
  }

  /** The frames the router runs (the intent pass and Home Assistant may add their hand-over rules). */
  private frames(): RouterView['frames'] {
    return this.commands.frames;
  }

  /**
   * The response cascade for the intent pass: words just went into an open request that the model
   * will answer (wake-word mode, a frame in intent.frames). Rather than wait for the frame's silence
   * timer (4 s), the cascade asks the model 0.5 s after the person stopped, renders the question at
   * 1.5 s and hands the request over at 2 s; if they go on speaking, all of it is thrown away.
   */
  private prepareHeld(endOfSpeechAt: number): void {
    const cascade = this.cascade;
    // An answer this utterance asked for (a read-back) is already on its way: that is the reply.
    if (!cascade || cascade.busy || !this.commands.intent) return;
    const router = this.commands.core.router;
    const top = this.top;
    if (router.mode !== 'wake-word' || top === undefined || !this.d.config.intent.frames.includes(top)) return;
    const text = router.held(top)?.text;
    if (text) cascade.start({ kind: 'proposal', frame: top, text }, { endOfSpeechAt });
  }

  private effect(e: Effect): void {
    const atMs = this.d.clock.now();
    if (e.type === 'stack') this.top = e.frames[e.frames.length - 1];
    this.d.bus.emit('router.effect', { ...e, atMs });
    try {
      applySpeechEffect(e, this.d.speech, this.cascade, this.top, this.speechEndAt);
    } catch (err) {
      this.d.log.error('speaking failed', { error: errorMessage(err) });
    }
    for (const fn of this.listeners) fn(e, atMs);
  }
}
