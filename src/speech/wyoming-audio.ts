import { StreamResampler } from './wyoming-resampler.js';

/**
 * A voice server's audio-chunks as hark's 16 kHz mono s16, chunk by chunk. Pure: no I/O.
 *
 * Wyoming does not ask a chunk's payload to hold whole samples (rhasspy/wyoming audio.py: a chunk's
 * `samples` is len // (width·channels)), and a relaying proxy that forwards what it reads cuts them
 * anywhere: the bytes of a split frame are carried over to the next chunk, never refused.
 */

/** The server's audio format was not one hark can play (the message says what it was). */
export class AudioFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AudioFormatError';
  }
}

export interface AudioFormat {
  rate: number;
  width: number;
  channels: number;
}

/** audio-start's (or the first audio-chunk's) rate/width/channels, checked. */
export function audioFormat(data: Record<string, unknown>): AudioFormat {
  const rate = data.rate;
  const width = data.width ?? 2;
  const channels = data.channels ?? 1;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 4000 || rate > 192_000)
    throw new AudioFormatError(`audio at rate ${JSON.stringify(rate)}, not a sample rate hark can play`);
  if (width !== 2) throw new AudioFormatError(`audio ${JSON.stringify(width)} bytes wide; hark plays 16-bit (width 2) only`);
  if (typeof channels !== 'number' || !Number.isInteger(channels) || channels < 1 || channels > 8)
    throw new AudioFormatError(`audio with ${JSON.stringify(channels)} channels`);
  return { rate, width, channels };
}

export class WyomingAudioDecoder {
  private readonly frame: number;
  private readonly resampler: StreamResampler;
  /** Bytes of a frame split across chunks, waiting for the rest. */
  private carry: Buffer = Buffer.alloc(0);

  constructor(
    readonly format: AudioFormat,
    toRate: number,
  ) {
    this.frame = format.width * format.channels;
    this.resampler = new StreamResampler(format.rate, toRate);
  }

  /** One chunk's payload: the audio it completes, resampled (possibly empty). */
  push(payload: Uint8Array): Int16Array {
    const bytes = this.carry.length ? Buffer.concat([this.carry, payload]) : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
    const whole = bytes.length - (bytes.length % this.frame);
    this.carry = Buffer.from(bytes.subarray(whole));
    if (whole === 0) return new Int16Array(0);
    return this.resampler.push(firstChannel(bytes.subarray(0, whole), this.format.channels));
  }

  /** audio-stop: the rest. A partial frame left at the very end cannot be played and is dropped. */
  end(): Int16Array {
    this.carry = Buffer.alloc(0);
    return this.resampler.end();
  }

  /** Bytes of a partial frame held (0 at a frame boundary). */
  get pending(): number {
    return this.carry.length;
  }
}

/** s16le frames → mono, the first channel (Piper is mono; this is only for safety). */
function firstChannel(bytes: Buffer, channels: number): Int16Array {
  const out = new Int16Array(bytes.length / 2 / channels);
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(i * 2 * channels);
  return out;
}
