import { availableParallelism } from 'node:os';
import { int16ToFloat32 } from '../../audio/pcm.js';
import { SystemClock, type Clock } from '../../core/clock.js';
import { HarkError, errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { cleanText } from '../clean-text.js';
import type { SttEngine } from '../engine.js';
import { EngineFailure, type SegmentAudio, type SttToken, type Transcript } from '../types.js';
import { loadBinding, type NativeBinding, type NativeModel, type NativeParams, type NativeResult } from './binding.js';
import { checkModelFile, fetchHint, type ModelInfo } from './model-file.js';
import { UninterruptibleLine } from '../uninterruptible-line.js';
import { CallCost } from './call-cost.js';
import { allowedLanguages, heardLanguage, unknownLanguage, type DetectedLanguage } from './language.js';
import { planCall, type WhisperCallOptions, type WhisperCallPlan } from './params.js';

export interface WhisperEngineOptions extends WhisperCallOptions {
  modelPath: string;
  /** What whisper_full is told: a language code, or `auto` (detected in the same pass). */
  language: string;
  /** The device's languages: with `auto`, the ones detection may choose from (language.ts). */
  languages?: readonly string[];
  /** 0: min(4, cores). */
  threads: number;
  temperatureFallback: boolean;
  nativeLog: boolean;
  /**
   * Pad clips under whisper.cpp's 1 s minimum with silence (default). Off only to measure the
   * per-call overhead on the path where whisper.cpp does everything but inference (the benchmark).
   */
  padShortClips?: boolean;
  /** The initial prompt for the next call (vocabulary biasing); '' for none. */
  prompt?: () => string;
  logger: Logger;
  clock?: Clock;
}

export interface WhisperStats {
  /** Times the model was loaded into memory (1 for the engine's whole life). */
  loads: number;
  calls: number;
  /** Calls whose result came after their deadline and was thrown away. */
  late: number;
}

/**
 * Local Whisper: whisper.cpp in-process through smart-whisper's addon. The model is loaded once in
 * load() and kept until close(); each segment is one whisper_full() on a worker thread with the
 * encoder context scaled to the segment. Calls run one at a time (they would only fight for the
 * same cores); a call that passes its deadline fails at once with `deadline` while the native work
 * finishes in the background (whisper.cpp cannot be interrupted) and its result is discarded.
 */
export class WhisperEngine implements SttEngine {
  readonly id = 'whisper';
  readonly remote = false;
  /** Whisper says [BLANK_AUDIO] or invents a subtitle credit when it fails quietly: not believed on clear speech. */
  readonly trustBlank = false;
  readonly info: ModelInfo;
  get stats(): WhisperStats {
    return { loads: 1, calls: this.nativeCalls, late: this.line.late };
  }
  private model: NativeModel | null;
  private readonly line: UninterruptibleLine;
  private nativeCalls = 0;
  private running = 0;
  /** Calls in the line, not yet finished: their audio, and when whisper.cpp started on them. */
  private readonly inLine = new Set<{ samples: number; startedAt: number | null }>();
  private readonly cost = new CallCost();
  private readonly threads: number;
  private readonly clock: Clock;
  /** Detected languages outside the device's already logged (once each). */
  private readonly outside = new Set<string>();
  /** With `auto`: the languages detection may choose from (the device's; empty: any). */
  private readonly allowed: string[];

  private constructor(
    private readonly binding: NativeBinding,
    model: NativeModel,
    info: ModelInfo,
    private readonly opts: WhisperEngineOptions,
  ) {
    this.model = model;
    this.info = info;
    this.threads = opts.threads > 0 ? opts.threads : Math.max(1, Math.min(4, availableParallelism()));
    this.clock = opts.clock ?? new SystemClock();
    this.allowed = allowedLanguages(opts.language, opts.languages ?? []);
    this.line = new UninterruptibleLine('whisper', this.clock, (ms) => opts.logger.debug('whisper result after its deadline discarded', { ms }));
  }

  /**
   * Check the model file, then load it. A missing or broken file is a HarkError naming the path and
   * the fetch command (never a crash inside whisper.cpp).
   */
  static async load(opts: WhisperEngineOptions): Promise<WhisperEngine> {
    const info = checkModelFile(opts.modelPath);
    const binding = loadBinding(!opts.nativeLog);
    // An addon built from an older vendored smart-whisper would ignore `languages` and detect among
    // all of Whisper's languages: refused, with the rebuild named, rather than mislabelled transcripts.
    if (typeof binding.languages !== 'function') {
      throw new HarkError(
        "the whisper addon predates language detection restricted to the device's languages (smart-whisper 0.8.1-hark.2): run `npm ci` in hark's directory, then `bash scripts/build-whisper.sh`",
        { exitCode: 2 },
      );
    }
    const unknown = unknownLanguage(opts.language, opts.languages ?? [], binding.languages());
    if (unknown) throw new HarkError(unknown, { exitCode: 2 });
    let model: NativeModel;
    try {
      model = await binding.WhisperModel.load(opts.modelPath, false);
    } catch (err) {
      throw new HarkError(`whisper could not load ${opts.modelPath}: ${errorMessage(err)}; try \`${fetchHint(opts.modelPath)}\``, { exitCode: 2 });
    }
    if (info.empty) opts.logger.warn('whisper model has no weights (a test model): every transcript will be empty', { model: opts.modelPath });
    opts.logger.info('whisper model loaded', { model: opts.modelPath, size: info.size, precision: info.precision, mb: Math.round(info.bytes / 1e6) });
    return new WhisperEngine(binding, model, info, opts);
  }

  /** True while a call (possibly one past its deadline) is still running in whisper.cpp. */
  get busy(): boolean {
    return this.running > 0;
  }

  plan(samples: number): WhisperCallPlan {
    const plan = planCall(samples, this.opts);
    if (this.opts.padShortClips === false) plan.padSamples = 0;
    return plan;
  }

  /**
   * Calls past their deadline that whisper.cpp is still running (it cannot be interrupted): a call
   * made now waits behind them.
   */
  get abandoned(): number {
    return this.line.abandoned;
  }

  /**
   * A call now would wait behind abandoned work, or — by what the last calls cost on this CPU — the
   * work ahead of it plus its own would end past its deadline, counted from its segment's close
   * (a command said after radio talk waited behind the talk's inference, then ran its own,
   * and was acted on 7 s after it was said). The transcriber sends the segment to a fallback instead.
   */
  unavailableFor(samples: number, waitedMs: number): string | null {
    const busy = this.line.busyReason();
    if (busy) return busy;
    const plan = this.plan(samples);
    const own = this.cost.expect(samples + plan.padSamples);
    if (own === null) return null;
    const now = this.clock.now();
    let ahead = 0;
    for (const c of this.inLine) {
      const whole = this.cost.expect(c.samples) ?? 0;
      ahead += c.startedAt === null ? whole : Math.max(0, whole - (now - c.startedAt));
    }
    if (waitedMs + ahead + own <= plan.deadlineMs) return null;
    return `it would answer past its deadline (waited ${Math.round(waitedMs)} ms, ${Math.round(ahead)} ms of work ahead, ~${own} ms for this segment; ${plan.deadlineMs} ms allowed)`;
  }

  /** Transcribe one segment. Rejects with an EngineFailure (`error` or `deadline`). */
  transcribe(audio: SegmentAudio): Promise<Transcript> {
    const plan = this.plan(audio.pcm.length);
    // The opening check needs its first words only: fewer tokens decoded. Its deadline is the
    // opening's own (planned from the opening's samples), not the whole segment's.
    if (audio.maxTokens !== undefined && (plan.maxTokens === 0 || audio.maxTokens < plan.maxTokens)) plan.maxTokens = audio.maxTokens;
    // ms is this segment's own inference, from when whisper.cpp started on it: the wait
    // behind other calls is the caller's to measure, not Whisper's work.
    const call = { samples: audio.pcm.length + plan.padSamples, startedAt: null as number | null };
    this.inLine.add(call);
    return this.line
      .run(plan.deadlineMs, () => {
        call.startedAt = this.clock.now();
        return this.run(audio, plan).finally(() => this.inLine.delete(call));
      })
      .finally(() => {
        // Given up on before its turn: it never runs (the line skips it).
        if (call.startedAt === null) this.inLine.delete(call);
      });
  }

  async close(): Promise<void> {
    const model = this.model;
    this.model = null;
    await this.line.idle();
    await model?.free();
  }

  private async run(audio: SegmentAudio, plan: WhisperCallPlan): Promise<Transcript> {
    const model = this.model;
    if (!model || model.freed || !model.handle) throw new EngineFailure('whisper', 'error', 'the model has been closed');
    if (audio.pcm.length === 0) return { engine: 'whisper', rawText: '', text: '', tokens: [], ms: 0 };
    const pcm = new Float32Array(audio.pcm.length + plan.padSamples);
    pcm.set(int16ToFloat32(audio.pcm));
    const params = this.params(plan);
    this.nativeCalls++;
    this.running++;
    const started = this.clock.now();
    try {
      const { results, detected } = await new Promise<{ results: NativeResult[] | Error; detected?: DetectedLanguage }>((resolve) => {
        this.binding.transcribe(
          model.handle!,
          pcm,
          params,
          (results, detected) => resolve({ results, detected }),
          () => {},
        );
      });
      // The addon reports a failed whisper_full() by passing an Error where the results go.
      if (!Array.isArray(results))
        throw new EngineFailure('whisper', 'error', results instanceof Error ? results.message : `unexpected result ${String(results)}`);
      const ms = Math.round(this.clock.now() - started);
      this.cost.record(pcm.length, ms);
      return { ...this.withLanguage(toTranscript(results), detected), ms };
    } finally {
      this.running--;
    }
  }

  private withLanguage(t: Transcript, detected: DetectedLanguage | undefined): Transcript {
    if (detected) {
      const top = detected.top.map((l) => `${l.language} ${l.p.toFixed(3)}`).join(', ');
      this.opts.logger.debug('whisper language', { chosen: detected.language, p: Math.round(detected.p * 1e4) / 1e4, top, from: this.allowed });
    }
    const h = heardLanguage(this.opts.language, detected, this.opts.languages ?? []);
    // The addon chooses among the device's languages, so this is a broken addon, not a speaker.
    if (h.outside && !this.outside.has(h.outside)) {
      this.outside.add(h.outside);
      this.opts.logger.warn('whisper decoded a language this device does not hear; the transcript carries none', {
        detected: h.outside,
        languages: this.opts.languages,
      });
    }
    return h.language && t.text ? { ...t, language: h.language } : t;
  }

  private params(plan: WhisperCallPlan): NativeParams {
    const p: NativeParams = {
      language: this.opts.language,
      ...(this.allowed.length ? { languages: this.allowed } : {}),
      format: 'detail',
      strategy: 0, // greedy: beam search costs several times more on a Pi for little gain on commands
      best_of: 1,
      n_threads: this.threads,
      no_context: true,
      no_timestamps: true,
      single_segment: true,
      print_progress: false,
      print_realtime: false,
      print_special: false,
      print_timestamps: false,
      // Token times (whisper.cpp's cheap experimental estimate, no extra decoding): where a wake
      // phrase ends, for the audio an Assist satellite run sends on (ha/satellite/wake-cut.ts).
      token_timestamps: true,
      // Kept false so Whisper can say [BLANK_AUDIO] / (music): suppressing them makes it invent words instead.
      suppress_non_speech_tokens: false,
      temperature: 0,
      temperature_inc: this.opts.temperatureFallback ? 0.2 : 0,
    };
    if (plan.audioCtx > 0) p.audio_ctx = plan.audioCtx;
    if (plan.maxTokens > 0) p.max_tokens = plan.maxTokens;
    const prompt = this.opts.prompt?.() ?? '';
    if (prompt) p.initial_prompt = prompt;
    return p;
  }
}

function toTranscript(results: NativeResult[]): Transcript {
  const rawText = results
    .map((r) => r.text)
    .join('')
    .trim();
  const tokens: SttToken[] = [];
  let pSum = 0;
  let pCount = 0;
  for (const r of results) {
    for (const t of r.tokens ?? []) {
      const tok: SttToken = { text: t.text, id: t.id, p: Math.round(t.p * 1e4) / 1e4 };
      if (Number.isFinite(t.from) && Number.isFinite(t.to)) {
        tok.t0 = t.from;
        tok.t1 = t.to;
      }
      tokens.push(tok);
    }
    if (Number.isFinite(r.confidence)) {
      pSum += r.confidence;
      pCount++;
    }
  }
  const t: Transcript = { engine: 'whisper', rawText, text: cleanText(rawText), tokens, ms: 0 };
  if (pCount > 0) t.confidence = pSum / pCount;
  return t;
}
