import { SAMPLE_RATE } from '../audio/pcm.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { describeServer, WyomingConnection, WyomingError } from '../wyoming/connection.js';
import type { WyomingInfo } from '../wyoming/info.js';
import type { WyomingServer } from '../wyoming/server-url.js';
import type { EspeakTts } from './espeak.js';
import { StreamResampler } from './wyoming-resampler.js';

export interface WyomingVoiceOptions {
  server: WyomingServer;
  /** The server's voice name; '' for its default. */
  voice: string;
  connectTimeoutMs: number;
  firstChunkTimeoutMs: number;
  chunkGapTimeoutMs: number;
  logger?: Logger;
}

/** A synthesis in progress; `stop()` hangs up (barge-in). */
export interface Synthesis {
  /** Resolves when the server's audio-stop came; rejects with a WyomingError. */
  readonly done: Promise<void>;
  stop(): void;
}

/**
 * A voice on a Wyoming server (wyoming-piper): synthesize{text, voice{name}} → audio-start, audio-chunks,
 * audio-stop at the server's rate, handed on as hark's 16 kHz mono s16 chunk by chunk as they arrive
 * (resampled without seams), so playback can start on the first one. One connection per answer.
 */
export class WyomingVoice {
  private voiceName: string;
  private info: WyomingInfo | null = null;
  private infoError: string | null = null;

  constructor(private readonly o: WyomingVoiceOptions) {
    this.voiceName = o.voice;
  }

  get server(): WyomingServer {
    return this.o.server;
  }

  get voice(): string {
    return this.voiceName;
  }

  setVoice(name: string): void {
    this.voiceName = name;
  }

  /** What the server offered when last asked. */
  get serverInfo(): WyomingInfo | null {
    return this.info;
  }

  /** Why the server could not be described when last asked, if it could not (the debug page says so). */
  get describeError(): string | null {
    return this.infoError;
  }

  async describe(timeoutMs = 3000): Promise<WyomingInfo> {
    try {
      this.info = await describeServer(this.o.server, { connectTimeoutMs: this.o.connectTimeoutMs, timeoutMs });
      this.infoError = null;
    } catch (err) {
      this.infoError = errorMessage(err);
      throw err;
    }
    return this.info;
  }

  /** Speak `text`, handing each piece of 16 kHz audio to `onAudio` as it comes. */
  synthesize(text: string, onAudio: (pcm: Int16Array) => void): Synthesis {
    let conn: WyomingConnection | null = null;
    let stopped = false;
    const url = this.o.server.url;
    const done = (async () => {
      conn = await WyomingConnection.open(this.o.server, { connectTimeoutMs: this.o.connectTimeoutMs });
      if (stopped) return conn.close();
      const data: Record<string, unknown> = { text };
      if (this.voiceName) data.voice = { name: this.voiceName };
      conn.send('synthesize', data);
      let resampler: StreamResampler | null = null;
      let format: { rate: number; width: number; channels: number } | null = null;
      let first = true;
      for (;;) {
        const e = await withTimeout(conn.next(), first ? this.o.firstChunkTimeoutMs : this.o.chunkGapTimeoutMs, () => {
          conn?.close();
          return new WyomingError('timeout', url, first ? `no audio within ${this.o.firstChunkTimeoutMs} ms of synthesize` : `audio stopped coming for ${this.o.chunkGapTimeoutMs} ms`);
        });
        if (e.type === 'audio-start' || (e.type === 'audio-chunk' && !format)) {
          format = audioFormat(e.data, url);
          resampler = new StreamResampler(format.rate, SAMPLE_RATE);
        }
        if (e.type === 'audio-chunk' && e.payload && format && resampler) {
          first = false;
          const out = resampler.push(toMono(e.payload, format, url));
          if (out.length && !stopped) onAudio(out);
        } else if (e.type === 'audio-stop') {
          const rest = resampler?.end();
          if (rest?.length && !stopped) onAudio(rest);
          conn.close();
          if (first && !format) throw new WyomingError('protocol', url, 'audio-stop without any audio');
          return;
        }
        // synthesize-* and other events of a streaming-capable server: not needed here.
      }
    })();
    done.catch(() => {});
    return {
      done: done.then(() => undefined),
      stop: () => {
        stopped = true;
        (conn as WyomingConnection | null)?.close();
      },
    };
  }

  /** The whole answer as one clip (the response cascade renders ahead of playing). */
  async render(text: string): Promise<Int16Array> {
    const parts: Int16Array[] = [];
    await this.synthesize(text, (p) => parts.push(p)).done;
    const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}

function audioFormat(data: Record<string, unknown>, url: string): { rate: number; width: number; channels: number } {
  const rate = data.rate;
  const width = data.width ?? 2;
  const channels = data.channels ?? 1;
  if (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 4000 || rate > 192_000) throw new WyomingError('protocol', url, `audio at rate ${JSON.stringify(rate)}, not a sample rate hark can play`);
  if (width !== 2) throw new WyomingError('protocol', url, `audio ${JSON.stringify(width)} bytes wide; hark plays 16-bit (width 2) only`);
  if (typeof channels !== 'number' || !Number.isInteger(channels) || channels < 1 || channels > 8) throw new WyomingError('protocol', url, `audio with ${JSON.stringify(channels)} channels`);
  return { rate, width, channels };
}

/** s16le bytes (any channel count) → mono, the first channel (Piper is mono; this is only for safety). */
function toMono(payload: Buffer, f: { channels: number }, url: string): Int16Array {
  const frame = 2 * f.channels;
  if (payload.length % frame !== 0) throw new WyomingError('protocol', url, `audio-chunk of ${payload.length} bytes is not whole ${f.channels}-channel 16-bit frames`);
  const copy = new Int16Array(payload.length / 2);
  for (let i = 0; i < copy.length; i++) copy[i] = payload.readInt16LE(i * 2);
  if (f.channels === 1) return copy;
  const mono = new Int16Array(copy.length / f.channels);
  for (let i = 0; i < mono.length; i++) mono[i] = copy[i * f.channels]!;
  return mono;
}

function withTimeout<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (t = setTimeout(() => reject(onTimeout()), ms)))]).finally(() => clearTimeout(t));
}

/**
 * What the rest of hark calls "the tts": the Wyoming voice, and espeak-ng whenever the server is away
 * or fails, so an answer is always said. The voice picker's choice goes to the server's voice.
 */
export class WyomingTts {
  constructor(
    readonly wyoming: WyomingVoice,
    readonly espeak: EspeakTts,
    private readonly logger?: Logger,
  ) {}

  async render(text: string): Promise<Int16Array> {
    if (!text.trim()) return new Int16Array(0);
    try {
      return await this.wyoming.render(text);
    } catch (err) {
      this.logger?.warn('the Wyoming voice could not say it; espeak-ng does', { error: errorMessage(err) });
      return this.espeak.render(text);
    }
  }

  setVoice(name: string): void {
    this.wyoming.setVoice(name);
  }
}
