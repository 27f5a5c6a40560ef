import type { EventEmitter } from 'node:events';

/**
 * Where audio comes from: the supervised ALSA recorder on the appliance, or a WAV file in tests,
 * demos and `hark segment`. Both deliver 16 kHz mono s16 in stream order.
 */
export interface AudioSourceEvents {
  /** A chunk of samples of any length. The array may be reused after the listener returns: copy to keep. */
  data: [chunk: Int16Array];
  /** A file source reached its end (a live source never ends on its own). */
  end: [];
  /** The recorder is delivering audio. */
  up: [info: { device: string }];
  /** The recorder stopped delivering; it will be restarted after `restartInMs` (null: not restarting). */
  down: [info: { device: string; reason: string; restartInMs: number | null }];
}

export interface AudioSource extends EventEmitter<AudioSourceEvents> {
  readonly description: string;
  start(): Promise<void>;
  /** Stops delivering and releases the device or child process. Safe to call twice. */
  stop(): Promise<void>;
}
