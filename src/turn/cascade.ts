import type { Clock, TimerHandle } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';

export interface CascadeTimings {
  /** From the end of speech to starting the model (its answer is cached, not heard). */
  modelMs: number;
  /** ... to rendering the answer to audio (cached). */
  renderMs: number;
  /** ... to playing it. */
  playMs: number;
}

export const DEFAULT_CASCADE_TIMINGS: CascadeTimings = { modelMs: 500, renderMs: 1500, playMs: 2000 };

/**
 * When, after the end of speech, the cascade plays an answer that was ready `readyAfterMs` after it:
 * at `playMs`, or at once when it was ready later. ResponseCascade's timers come to this, and replay,
 * which has no cascade of its own, times a read-back by it, so the two cannot drift apart.
 */
export function answerPlaysAfterMs(timings: CascadeTimings, readyAfterMs: number): number {
  return Math.max(readyAfterMs, timings.playMs);
}

/** What the cascade drives. Each step gets an AbortSignal that fires when the person cuts in. */
export interface CascadeSteps<I, M, A> {
  /** Work out the answer (the router's text, an LLM reply). */
  model(input: I, signal: AbortSignal): Promise<M>;
  /** Render it to audio (espeak-ng). */
  render(answer: M, signal: AbortSignal): Promise<A>;
  /** Play it; resolves when playback is over, however it ended. */
  play(audio: A, answer: M, signal: AbortSignal): Promise<unknown>;
  /** Silence playback now (the person spoke). */
  stopPlayback(): void;
}

/** waiting: timers running, nothing started; thinking: the model is working or its answer waits; rendering; playing. */
export type CascadeStage = 'idle' | 'waiting' | 'thinking' | 'rendering' | 'playing';

export type CascadeEvent =
  | { type: 'stage'; generation: number; stage: 'thinking' | 'rendering' | 'playing'; atMs: number }
  | { type: 'done'; generation: number; atMs: number }
  | { type: 'cancelled'; generation: number; stage: CascadeStage; reason: string; atMs: number }
  | { type: 'failed'; generation: number; stage: CascadeStage; error: string; atMs: number };

interface Run<M, A> {
  generation: number;
  t0: number;
  timers: TimerHandle[];
  abort: AbortController;
  modelStarted: boolean;
  model: { value: M } | null;
  renderDue: boolean;
  renderStarted: boolean;
  audio: { value: A } | null;
  playDue: boolean;
  playing: boolean;
}

/**
 * The three-timer response cascade (docs/decisions.md#the-response-cascades-three-timers). From the end of the person's speech: start the model at
 * 0.5 s, render its answer at 1.5 s, play at 2.0 s, each result cached for the next step and each
 * step waiting for the one before if it is late. Listening never stops: when the person speaks
 * again, interrupt() clears the timers and the caches and stops playback, and the generation count
 * moves on, so a model or TTS result that arrives later is recognised as stale and never plays.
 * Pure: time comes from the clock, and the model, TTS and player are injected.
 */
export class ResponseCascade<I, M, A> {
  private readonly timings: CascadeTimings;
  private readonly clock: Clock;
  private readonly steps: CascadeSteps<I, M, A>;
  private readonly onEvent: (e: CascadeEvent) => void;
  private generation = 0;
  private run: Run<M, A> | null = null;
  /** Open segments not yet known to be words: playback waits for them (a cough must not cancel the answer). */
  private holds = 0;

  constructor(opts: { timings?: CascadeTimings; clock: Clock; steps: CascadeSteps<I, M, A>; onEvent?: (e: CascadeEvent) => void }) {
    this.timings = opts.timings ?? DEFAULT_CASCADE_TIMINGS;
    const { modelMs, renderMs, playMs } = this.timings;
    if (!(modelMs >= 0 && renderMs >= modelMs && playMs >= renderMs)) {
      throw new RangeError(`cascade timings must satisfy 0 <= modelMs <= renderMs <= playMs, got ${modelMs}, ${renderMs}, ${playMs}`);
    }
    this.clock = opts.clock;
    this.steps = opts.steps;
    this.onEvent = opts.onEvent ?? (() => {});
  }

  /** Something is in the pipeline (timers, model, TTS or playback): speech now is an interruption. */
  get busy(): boolean {
    return this.run !== null;
  }

  /**
   * The model or the renderer is working on the answer now (real work in flight, not a timer):
   * `hark simulate` lets its virtual clock follow real time meanwhile, as it does for a classifier.
   */
  get working(): boolean {
    const r = this.run;
    return r !== null && ((r.modelStarted && !r.model) || (r.renderStarted && !r.audio));
  }

  get stage(): CascadeStage {
    const r = this.run;
    if (!r) return 'idle';
    if (r.playing) return 'playing';
    if (r.renderStarted) return 'rendering';
    if (r.modelStarted) return 'thinking';
    return 'waiting';
  }

  get currentGeneration(): number {
    return this.generation;
  }

  /**
   * The person stopped speaking and an answer is due. `endOfSpeechAt` (clock ms) is when they
   * stopped, which may be a while before the transcript arrived: the timers count from then.
   * A cascade already running is replaced. Returns the new generation.
   */
  start(input: I, opts: { endOfSpeechAt?: number } = {}): number {
    if (this.run) this.interrupt('replaced by a newer turn');
    const now = this.clock.now();
    const t0 = Math.min(now, opts.endOfSpeechAt ?? now);
    const run: Run<M, A> = {
      generation: ++this.generation,
      t0,
      timers: [],
      abort: new AbortController(),
      modelStarted: false,
      model: null,
      renderDue: false,
      renderStarted: false,
      audio: null,
      playDue: false,
      playing: false,
    };
    this.run = run;
    const at = (ms: number, fn: () => void) => run.timers.push(this.clock.setTimer(Math.max(0, t0 + ms - now), () => this.live(run) && fn()));
    at(this.timings.modelMs, () => this.startModel(run, input));
    at(this.timings.renderMs, () => {
      run.renderDue = true;
      this.tryRender(run);
    });
    at(this.timings.playMs, () => {
      run.playDue = true;
      this.tryPlay(run);
    });
    return run.generation;
  }

  /**
   * Something that may be speech began (the VAD opened a segment): hold playback until it is known
   * to be words (then interrupt()) or not (then release()). Timers, model and rendering go on, so a
   * released answer plays at once if its time has come. Every hold() is matched by one release().
   */
  hold(): void {
    this.holds++;
  }

  /** The held segment turned out not to be words (too short, noise, dropped): the answer goes on. */
  release(): void {
    if (this.holds === 0) return;
    this.holds--;
    if (this.holds === 0 && this.run) this.tryPlay(this.run);
  }

  /** Playback is being held for an open segment. */
  get held(): boolean {
    return this.holds > 0;
  }

  /**
   * The person spoke: clear the timers and the cached answer and audio, stop playback, and make
   * every result still in flight stale. Returns false when there was nothing to interrupt.
   */
  interrupt(reason: string): boolean {
    const run = this.run;
    if (!run) return false;
    const stage = this.stage;
    this.run = null;
    this.generation++;
    for (const t of run.timers) this.clock.clearTimer(t);
    run.model = null;
    run.audio = null;
    run.abort.abort(new Error(reason));
    if (run.playing) this.steps.stopPlayback();
    this.emit({ type: 'cancelled', generation: run.generation, stage, reason, atMs: this.since(run) });
    return true;
  }

  private live(run: Run<M, A>): boolean {
    return this.run === run && run.generation === this.generation;
  }

  private startModel(run: Run<M, A>, input: I): void {
    run.modelStarted = true;
    this.emit({ type: 'stage', generation: run.generation, stage: 'thinking', atMs: this.since(run) });
    this.guard(run, () => this.steps.model(input, run.abort.signal)).then((ok) => {
      if (!ok || !this.live(run)) return;
      run.model = { value: ok.value };
      this.tryRender(run);
    });
  }

  private tryRender(run: Run<M, A>): void {
    if (!run.renderDue || !run.model || run.renderStarted) return;
    run.renderStarted = true;
    const answer = run.model.value;
    this.emit({ type: 'stage', generation: run.generation, stage: 'rendering', atMs: this.since(run) });
    this.guard(run, () => this.steps.render(answer, run.abort.signal)).then((ok) => {
      if (!ok || !this.live(run)) return;
      run.audio = { value: ok.value };
      this.tryPlay(run);
    });
  }

  private tryPlay(run: Run<M, A>): void {
    if (!run.playDue || !run.audio || !run.model || run.playing || this.holds > 0) return;
    run.playing = true;
    const audio = run.audio.value;
    const answer = run.model.value;
    this.emit({ type: 'stage', generation: run.generation, stage: 'playing', atMs: this.since(run) });
    this.guard(run, () => this.steps.play(audio, answer, run.abort.signal)).then((ok) => {
      if (!ok || !this.live(run)) return;
      this.run = null;
      this.emit({ type: 'done', generation: run.generation, atMs: this.since(run) });
    });
  }

  /** Run a step; a failure of the live run ends it with a 'failed' event. Resolves null on failure. */
  private async guard<T>(run: Run<M, A>, step: () => Promise<T>): Promise<{ value: T } | null> {
    try {
      return { value: await step() };
    } catch (err) {
      if (this.live(run)) {
        const stage = this.stage;
        this.run = null;
        this.generation++;
        for (const t of run.timers) this.clock.clearTimer(t);
        if (run.playing) this.steps.stopPlayback();
        this.emit({ type: 'failed', generation: run.generation, stage, error: errorMessage(err), atMs: this.since(run) });
      }
      return null;
    }
  }

  private since(run: Run<M, A>): number {
    return this.clock.now() - run.t0;
  }

  private emit(e: CascadeEvent): void {
    try {
      this.onEvent(e);
    } catch {
      // a listener's failure must not break the cascade
    }
  }
}
