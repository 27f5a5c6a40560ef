import type { Clock } from '../../src/core/clock.js';
import type { EngineId } from '../../src/core/utterance.js';
import type { LiveStream, SttEngine } from '../../src/stt/engine.js';
import { EngineFailure, type AsrEvent, type EngineFailureKind, type SegmentAudio, type Transcript } from '../../src/stt/types.js';

/**
 * Speech-to-text engines for tests, behind the real SttEngine interface: one that answers each call
 * from a script (words, a failure of a given kind, after a delay on the test's clock), and one that
 * streams (the LiveStream side a cloud engine has) and is driven by the test while the segment is open.
 * Nothing here touches a socket or a model; the real engines have their own tests.
 */

/** What an engine says to one call. */
export type Answer =
  /** Heard these words, as the engine gives them ([BLANK_AUDIO] and other specials stripped from the text). */
  | string
  | {
      /** Raw engine output; the text is it with specials stripped. */
      raw: string;
      /** The text, when it is not the raw output stripped. */
      text?: string;
      language?: string;
      /** The engine's own time; absent: the virtual time the call took (5 ms without a delay). */
      ms?: number;
      /** Virtual ms before it answers (overrides the engine's costMs). */
      delayMs?: number;
      /** Interim results given to the call's listener before the answer. */
      events?: AsrEvent[];
    }
  | {
      /** It fails with an EngineFailure of this kind (what the fallback policy and the breaker act on). */
      fail: EngineFailureKind;
      message?: string;
      delayMs?: number;
      events?: AsrEvent[];
    };

/** Answers in call order (the last repeats), or chosen from the audio and the call's number (from 0). */
export type Script = readonly Answer[] | ((audio: SegmentAudio, call: number) => Answer);

/** Specials ([BLANK_AUDIO], [_TT_42]) stripped and whitespace collapsed, as the engines' text is. */
export const textOf = (raw: string): string =>
  raw
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** A transcript as an engine gives it. */
export function transcriptOf(engine: EngineId, raw: string, ms = 5, extra: Partial<Transcript> = {}): Transcript {
  return { engine, rawText: raw, text: textOf(raw), ms, ...extra };
}

/** One call as the engine was asked it (its audio not kept: a test of what a day leaves behind must not find it here). */
export interface EngineCall {
  id: number | string;
  samples: number;
  /** Only the first words were wanted (the opening check): at most this many tokens. */
  maxTokens?: number;
  /** Clock ms when it was asked. */
  at: number;
  /** Seconds of audio, to a tenth. */
  seconds: number;
}

export interface ScriptedEngineOptions {
  /** Default 'whisper'. */
  id?: EngineId;
  /** Default: every engine but whisper is remote. */
  remote?: boolean;
  /** Default: a remote engine's blank is believed, Whisper's is not. */
  trustBlank?: boolean;
  /** Default: 'heard' is answered to everything. */
  script?: Script;
  /** The test's clock: delays run on it. Needed for costMs and delayMs. */
  clock?: Clock;
  /** Virtual ms each call takes (a number, or from the audio). Default 0: it answers on the next tick. */
  costMs?: number | ((audio: SegmentAudio) => number);
  /** One call at a time, as whisper.cpp runs them: a call waits for the one before it. */
  serial?: boolean;
  /** Each call answers only when the test lets it (go()): a stop can catch it mid-inference. */
  held?: boolean;
}

/** Seconds of 16 kHz audio, to a tenth (what the tests compare). */
export const secondsOf = (audio: SegmentAudio): number => Math.round((audio.pcm.length / 16_000) * 10) / 10;

const callOf = (audio: SegmentAudio, clock: Clock | undefined): EngineCall => ({
  id: audio.id,
  samples: audio.pcm.length,
  ...(audio.maxTokens !== undefined ? { maxTokens: audio.maxTokens } : {}),
  at: clock?.now() ?? 0,
  seconds: secondsOf(audio),
});

/** A whole-segment engine answering from a script. */
export class ScriptedEngine implements SttEngine {
  readonly id: EngineId;
  readonly remote: boolean;
  readonly trustBlank: boolean;
  /** Every call, in order. */
  readonly calls: EngineCall[] = [];
  protected readonly o: ScriptedEngineOptions;
  /** Serial: clock ms when the calls given so far are done. */
  private busyUntil = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(o: ScriptedEngineOptions = {}) {
    this.o = o;
    this.id = o.id ?? 'whisper';
    this.remote = o.remote ?? this.id !== 'whisper';
    this.trustBlank = o.trustBlank ?? this.remote;
  }

  /** An engine that hears `said` in order (the last repeats): the common case. */
  static hearing(...said: string[]): ScriptedEngine {
    return new ScriptedEngine({ script: said });
  }

  /** Samples of each call's audio, in order. */
  /** Seconds of each call's audio, to a tenth, in order. */
  get seconds(): number[] {
    return this.calls.map((c) => c.seconds);
  }

  get heard(): number[] {
    return this.calls.map((c) => c.samples);
  }

  transcribe(audio: SegmentAudio, onEvent?: (e: AsrEvent) => void): Promise<Transcript> {
    const n = this.calls.length;
    this.calls.push(callOf(audio, this.o.clock));
    return this.answer(this.answerFor(audio, n), audio, onEvent);
  }

  async close(): Promise<void> {}

  /** Held calls still waiting for go(). */
  get held(): number {
    return this.waiting.length;
  }

  /** Let the oldest `n` held calls answer (all of them by default). */
  go(n = this.waiting.length): void {
    for (const r of this.waiting.splice(0, n)) r();
  }

  protected answerFor(audio: SegmentAudio, call: number): Answer {
    const s = this.o.script ?? ['heard'];
    if (typeof s === 'function') return s(audio, call);
    if (s.length === 0) throw new Error('an empty script');
    return s[Math.min(call, s.length - 1)]!;
  }

  /** The answer as the engine gives it: after its delay, its interim results first. */
  protected answer(a: Answer, audio: SegmentAudio, onEvent?: (e: AsrEvent) => void): Promise<Transcript> {
    const clock = this.o.clock;
    const cost = typeof this.o.costMs === 'function' ? this.o.costMs(audio) : (this.o.costMs ?? 0);
    const work = typeof a === 'object' && a.delayMs !== undefined ? a.delayMs : cost;
    let delay = work;
    if (this.o.serial && clock) {
      // It starts when the calls before it are done, and takes its own time from there.
      const start = Math.max(clock.now(), this.busyUntil);
      this.busyUntil = start + work;
      delay = this.busyUntil - clock.now();
    }
    const settle = (): Transcript => {
      if (typeof a === 'object') for (const e of a.events ?? []) onEvent?.(e);
      if (typeof a === 'object' && 'fail' in a) throw new EngineFailure(this.id, a.fail, a.message ?? `${a.fail} happened`);
      const took = work > 0 && clock ? work : 5;
      if (typeof a === 'string') return transcriptOf(this.id, a, took);
      return transcriptOf(this.id, a.raw, a.ms ?? took, { ...(a.text !== undefined ? { text: a.text } : {}), ...(a.language ? { language: a.language } : {}) });
    };
    if (this.o.held) return new Promise<void>((r) => this.waiting.push(r)).then(settle);
    if (delay <= 0) return Promise.resolve().then(settle);
    if (!clock) throw new Error('a delay needs the test clock (ScriptedEngineOptions.clock)');
    return new Promise((resolve, reject) =>
      clock.setTimer(delay, () => {
        try {
          resolve(settle());
        } catch (err) {
          reject(err);
        }
      }),
    );
  }
}

/** One segment streaming to a StreamingEngine. */
export interface LiveCall {
  segmentId: string;
  /** Audio written to it, in order. */
  written: Int16Array[];
  /** Hand the call's listener an interim result (a partial, a final chunk), as the cloud would. */
  push(e: AsrEvent): void;
  ended: boolean;
  cancelled: boolean;
}

export interface StreamingEngineOptions extends Omit<ScriptedEngineOptions, 'serial'> {
  /**
   * What finish() does, when the script is not enough (push events from the socket, then fail): it
   * is given the stream, and its result is the stream's. Absent: the script's answer.
   */
  onFinish?: (call: LiveCall, n: number) => Promise<Transcript>;
}

/**
 * A cloud engine that streams the open segment (openLive): the test pushes its interim results
 * while the segment is open, and the script (or onFinish) decides how its close goes. A whole closed
 * segment (transcribe) is one stream opened, written and finished at once.
 */
export class StreamingEngine extends ScriptedEngine {
  /** Every stream opened, in order. */
  readonly streams: LiveCall[] = [];
  onFinish: ((call: LiveCall, n: number) => Promise<Transcript>) | null;

  constructor(o: StreamingEngineOptions = {}) {
    super({ id: 'deepgram', script: [''], ...o });
    this.onFinish = o.onFinish ?? null;
  }

  openLive(segmentId: string, onEvent: (e: AsrEvent) => void): LiveStream {
    const n = this.streams.length;
    const call: LiveCall = { segmentId, written: [], push: onEvent, ended: false, cancelled: false };
    this.streams.push(call);
    return {
      write: (pcm) => void call.written.push(pcm),
      endAudio: () => void (call.ended = true),
      cancel: () => void (call.cancelled = true),
      finish: () => {
        call.ended = true;
        if (this.onFinish) return this.onFinish(call, n);
        const audio: SegmentAudio = { id: segmentId, pcm: concat(call.written) };
        this.calls.push(callOf(audio, this.o.clock));
        return this.answer(this.answerFor(audio, n), audio, onEvent);
      },
    };
  }

  override transcribe(audio: SegmentAudio, onEvent?: (e: AsrEvent) => void): Promise<Transcript> {
    const live = this.openLive(String(audio.id), onEvent ?? (() => {}));
    live.write(audio.pcm);
    return live.finish();
  }
}

function concat(parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}
