import fvad, { type FvadModule } from '@echogarden/fvad-wasm';
import { FRAME_SAMPLES, SAMPLE_RATE } from '../audio/pcm.js';
import { HarkError, errorMessage } from '../core/errors.js';
import type { Vad } from './vad.js';

/**
 * WebRTC VAD (libfvad compiled to wasm): the light engine, `vad.engine: webrtc`.
 *
 * fvad only takes 10, 20 or 30 ms frames, and hark's 32 ms frame (512 samples) is none of those,
 * so each frame is cut into 10 ms (160-sample) sub-frames. 512 = 3 x 160 + 32: the leftover
 * samples wait in a carry buffer (kept on the wasm heap, so nothing is copied twice) and start
 * the next sub-frame. Each frame therefore completes 3 or 4 sub-frames, and its probability is
 * the fraction of them fvad calls voiced: 0, 1/4, 1/3, 1/2, 2/3, 3/4 or 1. A sub-frame that
 * straddles two frames counts toward the later one (at most 10 ms late). 10 ms sub-frames are
 * used rather than 20 or 30 ms because they give the finest fraction and the least carry delay;
 * fvad's classifier runs on 10 ms blocks internally either way.
 */

const SUB_SAMPLES = SAMPLE_RATE / 100; // 10 ms

let modulePromise: Promise<FvadModule> | null = null;

/** One wasm instance serves every WebRtcVad in the process; each has its own fvad handle. */
function loadFvad(): Promise<FvadModule> {
  modulePromise ??= fvad().catch((err: unknown) => {
    modulePromise = null;
    throw new HarkError(`WebRTC VAD (@echogarden/fvad-wasm) failed to load: ${errorMessage(err)}`, { cause: err });
  });
  return modulePromise;
}

export interface WebRtcOptions {
  /** Aggressiveness 0 (least, most speech kept) to 3 (most, fewest false alarms). */
  mode: number;
}

export class WebRtcVad implements Vad {
  readonly name = 'webrtc' as const;
  readonly mode: number;

  private readonly m: FvadModule;
  private handle: number;
  /** 160 samples on the wasm heap: the sub-frame being filled. */
  private readonly subPtr: number;
  private fill = 0;

  private constructor(m: FvadModule, handle: number, subPtr: number, mode: number) {
    this.m = m;
    this.handle = handle;
    this.subPtr = subPtr;
    this.mode = mode;
    this.configure();
  }

  static async create(options: WebRtcOptions): Promise<WebRtcVad> {
    const { mode } = options;
    if (!Number.isInteger(mode) || mode < 0 || mode > 3) {
      throw new HarkError(`WebRTC VAD mode must be a whole number from 0 to 3, got ${String(mode)}`);
    }
    const m = await loadFvad();
    const handle = m._fvad_new();
    if (handle === 0) throw new HarkError('WebRTC VAD: fvad_new failed (out of wasm memory)');
    const subPtr = m._malloc(SUB_SAMPLES * 2);
    if (subPtr === 0) {
      m._fvad_free(handle);
      throw new HarkError('WebRTC VAD: could not allocate its sample buffer (out of wasm memory)');
    }
    return new WebRtcVad(m, handle, subPtr, mode);
  }

  private configure(): void {
    if (this.m._fvad_set_sample_rate(this.handle, SAMPLE_RATE) !== 0) throw new Error(`WebRTC VAD rejected sample rate ${SAMPLE_RATE}`);
    if (this.m._fvad_set_mode(this.handle, this.mode) !== 0) throw new Error(`WebRTC VAD rejected mode ${this.mode}`);
  }

  process(frame: Int16Array): Promise<number> {
    try {
      return Promise.resolve(this.processSync(frame));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  private processSync(frame: Int16Array): number {
    if (frame.length !== FRAME_SAMPLES) {
      throw new RangeError(`webrtc VAD: a frame must be ${FRAME_SAMPLES} samples (32 ms at 16 kHz), got ${frame.length}`);
    }
    if (this.handle === 0) throw new Error('webrtc VAD: process() after close()');
    const base = this.subPtr >> 1;
    let voiced = 0;
    let done = 0;
    for (let i = 0; i < FRAME_SAMPLES;) {
      const take = Math.min(SUB_SAMPLES - this.fill, FRAME_SAMPLES - i);
      // HEAP16 is read each time: it is a new view whenever the wasm memory grows.
      this.m.HEAP16.set(frame.subarray(i, i + take), base + this.fill);
      this.fill += take;
      i += take;
      if (this.fill === SUB_SAMPLES) {
        const r = this.m._fvad_process(this.handle, this.subPtr, SUB_SAMPLES);
        if (r < 0) throw new Error(`webrtc VAD: fvad_process rejected a ${SUB_SAMPLES}-sample frame`);
        voiced += r;
        done++;
        this.fill = 0;
      }
    }
    // 512 > 2 x 160, so every frame completes at least three sub-frames: `done` is never 0.
    return voiced / done;
  }

  reset(): void {
    if (this.handle === 0) return;
    this.m._fvad_reset(this.handle);
    this.configure(); // fvad_reset also forgets mode and sample rate
    this.fill = 0;
  }

  close(): Promise<void> {
    if (this.handle !== 0) {
      this.m._fvad_free(this.handle);
      this.m._free(this.subPtr);
      this.handle = 0;
    }
    return Promise.resolve();
  }
}
