import { SAMPLE_RATE, concatPcm } from '../audio/pcm.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { describeServer, WyomingConnection, WyomingError } from '../wyoming/connection.js';
import type { WyomingInfo } from '../wyoming/info.js';
import type { WyomingServer } from '../wyoming/server-url.js';
import type { EspeakTts } from './espeak.js';
import { audioFormat, WyomingAudioDecoder, type AudioFormat } from './wyoming-audio.js';

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

  /**
   * Speak `text`, handing each piece of 16 kHz audio to `onAudio` as it comes. The connection is
   * closed on every way out — the answer's end, a barge-in, a timeout, an error event, audio hark
   * cannot play: wyoming-piper keeps it open after audio-stop until the client hangs up, so a path
   * that forgot would leak a socket per answer and keep `hark run --exit-at-end` from exiting.
   */
  synthesize(text: string, onAudio: (pcm: Int16Array) => void, voice?: string): Synthesis {
    let conn: WyomingConnection | null = null;
    let stopped = false;
    const url = this.o.server.url;
    const done = (async () => {
      conn = await WyomingConnection.open(this.o.server, { connectTimeoutMs: this.o.connectTimeoutMs });
      try {
        if (stopped) return;
        const data: Record<string, unknown> = { text };
        const name = voice ?? this.voiceName;
        if (name) data.voice = { name };
        conn.send('synthesize', data);
        let decoder: WyomingAudioDecoder | null = null;
        let first = true;
        for (;;) {
          const e = await conn.next(
            first
              ? { ms: this.o.firstChunkTimeoutMs, why: `no audio within ${this.o.firstChunkTimeoutMs} ms of synthesize` }
              : { ms: this.o.chunkGapTimeoutMs, why: `audio stopped coming for ${this.o.chunkGapTimeoutMs} ms` },
          );
          if (e.type === 'audio-start' || (e.type === 'audio-chunk' && !decoder)) decoder = new WyomingAudioDecoder(formatOf(e.data, url), SAMPLE_RATE);
          if (e.type === 'audio-chunk' && e.payload && decoder) {
            first = false;
            const out = decoder.push(e.payload);
            if (out.length && !stopped) onAudio(out);
          } else if (e.type === 'audio-stop') {
            if (!decoder) throw new WyomingError('protocol', url, 'audio-stop without any audio');
            const rest = decoder.end();
            if (rest.length && !stopped) onAudio(rest);
            return;
          }
          // synthesize-stopped and other events of a streaming-capable server: not needed here.
        }
      } finally {
        conn.close();
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
  async render(text: string, voice?: string): Promise<Int16Array> {
    const parts: Int16Array[] = [];
    await this.synthesize(text, (p) => parts.push(p), voice).done;
    return concatPcm(parts);
  }
}

/** The server's format, or a `protocol` failure naming what hark cannot play. */
function formatOf(data: Record<string, unknown>, url: string): AudioFormat {
  try {
    return audioFormat(data);
  } catch (err) {
    throw new WyomingError('protocol', url, errorMessage(err));
  }
}

/**
 * What the rest of hark calls "the tts": the Wyoming voice, and espeak-ng whenever the server is away
 * or fails, so an answer is always said. The voice picker's choice goes to the server's voice.
 * A reply in another of the device's languages (`lang`) is asked of that language's server voice
 * (`voiceFor`, speech.wyoming.voices); with none, espeak-ng says it in that language's own voice.
 */
export class WyomingTts {
  constructor(
    readonly wyoming: WyomingVoice,
    readonly espeak: EspeakTts,
    private readonly logger?: Logger,
    private readonly voiceFor: (lang: string) => string | undefined = () => undefined,
  ) {}

  async render(text: string, opts?: { lang?: string }): Promise<Int16Array> {
    if (!text.trim()) return new Int16Array(0);
    const espeak = () => this.espeak.render(text, opts?.lang ? { lang: opts.lang } : undefined);
    const name = opts?.lang ? this.voiceFor(opts.lang) : undefined;
    if (opts?.lang && !name) return espeak();
    try {
      return await this.wyoming.render(text, name);
    } catch (err) {
      this.logger?.warn('the Wyoming voice could not say it; espeak-ng does', { error: errorMessage(err), ...(name ? { voice: name } : {}) });
      return espeak();
    }
  }

  setVoice(name: string): void {
    this.wyoming.setVoice(name);
  }
}
