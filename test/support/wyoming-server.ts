import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { encodeEvent, WyomingParser, type WyomingEvent } from '../../src/wyoming/framing.js';

/**
 * A Wyoming server double on 127.0.0.1 that speaks the real framing (rhasspy/wyoming): an ASR
 * program (wyoming-faster-whisper's shape: transcribe, audio-start/chunk/stop → transcript, and
 * transcript-start/chunk/stop when `streaming`) and a TTS program (wyoming-piper's: synthesize →
 * audio-start/chunk/stop at 22050 Hz). Data goes inline or as separate data bytes (`dataForm`). The ASR
 * program closes the connection after each transcript (wyoming-faster-whisper's dispatch_handler.py
 * returns False); the TTS program keeps it open after audio-stop until the client hangs up
 * (wyoming-piper's handler.py returns True). For servers written from the peers' sources, with their
 * pacing, see wyoming-piper.ts and wyoming-whisper.ts; this one is for faults.
 *
 * Faults on demand, one per exchange in order (`faults`), then `fault` for every exchange:
 * slow (answer late), close-mid-stream (close after some audio in, or some audio out), garbage-header,
 * oversized-length, error-event, no-end-header.
 */
export type WyomingFault =
  | { kind: 'none' }
  | { kind: 'slow'; ms: number }
  | { kind: 'close-mid-stream'; afterChunks: number }
  | { kind: 'garbage-header' }
  | { kind: 'oversized-length' }
  | { kind: 'no-end-header'; bytes: number }
  | { kind: 'error-event'; text: string }
  | { kind: 'unknown-event' };

export interface ReceivedExchange {
  kind: 'asr' | 'tts' | 'describe';
  events: { type: string; data: Record<string, unknown>; payloadBytes: number }[];
  /** ASR: the audio received, 16 kHz s16 bytes joined. */
  audio: Buffer;
  /** TTS: what was asked. */
  text?: string;
  voice?: string;
  /** TTS: audio-chunks sent, and whether the last one went out (false: hung up on, or a fault). */
  sentChunks?: number;
  completed?: boolean;
  /** TTS: epoch ms (sub-ms) when the first audio-chunk was written to the socket. */
  firstChunkAt?: number;
  fault: WyomingFault;
}

export interface WyomingDoubleOptions {
  /** Send transcript-start/chunk/stop before the transcript, and say so in the info. */
  streaming?: boolean;
  /** With streaming: send the script's words as transcript-chunks while the audio still comes, one per this many audio-chunks. */
  chunkEveryAudioChunks?: number;
  dataForm?: 'inline' | 'separate' | 'alternate';
  /** The TTS rate (Piper: 22050). */
  ttsRate?: number;
  /** Samples per TTS audio-chunk (Piper: 1024). */
  ttsChunkSamples?: number;
  /** Ms between TTS chunks (0: all at once). */
  ttsChunkGapMs?: number;
  voices?: string[];
  models?: string[];
}

export class WyomingDouble {
  readonly exchanges: ReceivedExchange[] = [];
  /** Transcripts in order, one per ASR exchange (then `defaultText`). */
  script: string[] = [];
  /**
   * The language a multilingual server detects when transcribe names none; the transcript carries
   * it (wyoming asr.py Transcript.language). With transcribe{language} the transcript names that
   * one. Null: the transcript names no language (an older server).
   */
  detects: string | null = null;
  defaultText = 'hello';
  /** Faults for the next exchanges, in order (ASR and TTS alike; describe is never faulted). */
  faults: WyomingFault[] = [];
  fault: WyomingFault = { kind: 'none' };
  /** Only ASR exchanges take faults from `faults` when this is 'asr' (or only TTS when 'tts'). */
  faultsFor: 'any' | 'asr' | 'tts' = 'any';
  readonly opts: Required<WyomingDoubleOptions>;
  private readonly sockets = new Set<Socket>();
  private sent = 0;

  private constructor(
    private readonly server: Server,
    opts: WyomingDoubleOptions,
  ) {
    this.opts = {
      streaming: false,
      dataForm: 'inline',
      ttsRate: 22050,
      ttsChunkSamples: 1024,
      ttsChunkGapMs: 0,
      chunkEveryAudioChunks: 0,
      voices: ['en_US-lessac-medium', 'en_GB-alan-low'],
      models: ['tiny-int8'],
      ...opts,
    };
  }

  static async start(opts: WyomingDoubleOptions = {}, port = 0): Promise<WyomingDouble> {
    let double: WyomingDouble | null = null;
    const server = createServer((socket) => double!.serve(socket));
    double = new WyomingDouble(server, opts);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return double;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  asr(): ReceivedExchange[] {
    return this.exchanges.filter((e) => e.kind === 'asr');
  }

  tts(): ReceivedExchange[] {
    return this.exchanges.filter((e) => e.kind === 'tts');
  }

  /** Stop listening and drop every connection (a server that went away). */
  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  info(): Record<string, unknown> {
    const attribution = { name: 'test', url: 'http://127.0.0.1/' };
    return {
      asr: [
        {
          name: 'faster-whisper',
          description: 'double',
          attribution,
          installed: true,
          version: '2.1.0',
          supports_transcript_streaming: this.opts.streaming,
          models: this.opts.models.map((name) => ({ name, description: name, attribution, installed: true, version: '1', languages: ['en'] })),
        },
      ],
      tts: [
        {
          name: 'piper',
          description: 'double',
          attribution,
          installed: true,
          version: '1.5.0',
          voices: this.opts.voices.map((name) => ({
            name,
            description: name,
            attribution,
            installed: true,
            version: '1',
            languages: [name.slice(0, 5)],
            speakers: null,
          })),
        },
        { name: 'piper-extra', attribution, installed: false, voices: [{ name: 'not-installed', installed: false, languages: ['en'] }] },
      ],
      wake: [],
    };
  }

  private send(socket: Socket, type: string, data: Record<string, unknown> = {}, payload: Uint8Array | null = null): void {
    if (socket.destroyed) return;
    const form = this.opts.dataForm;
    const separate = form === 'separate' || (form === 'alternate' && this.sent % 2 === 1);
    this.sent++;
    socket.write(encodeEvent(type, data, payload, { separateData: separate }));
  }

  private takeFault(kind: 'asr' | 'tts'): WyomingFault {
    if (this.faults.length > 0 && (this.faultsFor === 'any' || this.faultsFor === kind)) return this.faults.shift()!;
    return this.fault;
  }

  private serve(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {});
    const parser = new WyomingParser({ maxPayloadBytes: 1 << 24 });
    let ex: ReceivedExchange | null = null;
    let audioChunks = 0;
    let streamedWords = 0;
    const audio: Buffer[] = [];
    socket.on('data', (d: Buffer) => {
      let events: WyomingEvent[];
      try {
        events = parser.feed(d);
      } catch {
        socket.destroy();
        return;
      }
      for (const e of events) {
        const rec = { type: e.type, data: e.data, payloadBytes: e.payload?.length ?? 0 };
        if (e.type === 'describe') {
          this.exchanges.push({ kind: 'describe', events: [rec], audio: Buffer.alloc(0), fault: { kind: 'none' } });
          this.send(socket, 'info', this.info());
          continue;
        }
        if (e.type === 'transcribe') {
          ex = { kind: 'asr', events: [], audio: Buffer.alloc(0), fault: this.takeFault('asr') };
          this.exchanges.push(ex);
        }
        if (e.type === 'synthesize') {
          const voice = (e.data.voice as { name?: string } | undefined)?.name;
          ex = {
            kind: 'tts',
            events: [rec],
            audio: Buffer.alloc(0),
            text: String(e.data.text ?? ''),
            ...(voice ? { voice } : {}),
            fault: this.takeFault('tts'),
          };
          this.exchanges.push(ex);
          void this.speak(socket, ex);
          continue;
        }
        if (!ex) continue;
        ex.events.push(rec);
        if (e.type === 'audio-chunk' && e.payload) {
          audio.push(e.payload);
          audioChunks++;
          const every = this.opts.chunkEveryAudioChunks;
          if (this.opts.streaming && every > 0 && audioChunks % every === 0) {
            const words = (this.script[0] ?? this.defaultText).split(' ');
            const i = audioChunks / every - 1;
            if (i === 0) this.send(socket, 'transcript-start', {});
            if (i < words.length) this.send(socket, 'transcript-chunk', { text: i === 0 ? words[i] : ` ${words[i]}` });
            streamedWords = i + 1;
          }
          if (ex.fault.kind === 'close-mid-stream' && audioChunks >= ex.fault.afterChunks) {
            ex.audio = Buffer.concat(audio);
            socket.destroy();
            return;
          }
        }
        if (e.type === 'audio-stop') {
          ex.audio = Buffer.concat(audio);
          void this.answer(socket, ex, streamedWords);
        }
      }
    });
  }

  /** Faults that replace an answer; true when one was played. */
  private async playFault(socket: Socket, f: WyomingFault): Promise<boolean> {
    switch (f.kind) {
      case 'slow':
        await sleep(f.ms);
        return false;
      case 'garbage-header':
        socket.write('HTTP/1.1 400 Bad Request\r\n\r\n');
        return true;
      case 'oversized-length':
        socket.write(JSON.stringify({ type: 'audio-chunk', payload_length: 4 * 1024 * 1024 * 1024 }) + '\n');
        return true;
      case 'no-end-header':
        socket.write('{"type": "transcript", "data": {"text": "' + 'a'.repeat(f.bytes));
        return true;
      case 'error-event':
        this.send(socket, 'error', { text: f.text, code: 'test-fault' });
        socket.end();
        return true;
      case 'unknown-event':
        this.send(socket, 'transcript-chunk', { text: 'heard ' });
        socket.write(JSON.stringify({ type: 'made-up-event', data: {} }) + '\n');
        return true;
      default:
        return false;
    }
  }

  private async answer(socket: Socket, ex: ReceivedExchange, alreadyStreamed = 0): Promise<void> {
    const text = this.script.shift() ?? this.defaultText;
    if (await this.playFault(socket, ex.fault)) return;
    if (socket.destroyed) return;
    if (this.opts.streaming) {
      if (alreadyStreamed === 0) this.send(socket, 'transcript-start', {});
      const words = text.split(' ');
      for (const [i, w] of words.entries()) if (i >= alreadyStreamed) this.send(socket, 'transcript-chunk', { text: i === 0 ? w : ` ${w}` });
      this.send(socket, 'transcript-stop', {});
    }
    const asked = ex.events.find((e) => e.type === 'transcribe')?.data.language;
    const language = this.detects === null ? undefined : typeof asked === 'string' ? asked : this.detects;
    this.send(socket, 'transcript', language ? { text, language } : { text });
    socket.end();
  }

  private async speak(socket: Socket, ex: ReceivedExchange): Promise<void> {
    const f = ex.fault;
    if (f.kind !== 'close-mid-stream' && (await this.playFault(socket, f))) return;
    const { ttsRate: rate, ttsChunkSamples, ttsChunkGapMs } = this.opts;
    const pcm = toneFor(ex.text ?? '', rate);
    this.send(socket, 'audio-start', { rate, width: 2, channels: 1, timestamp: 0 });
    let chunks = 0;
    for (let i = 0; i < pcm.length; i += ttsChunkSamples) {
      if (socket.destroyed) return;
      if (f.kind === 'close-mid-stream' && chunks >= f.afterChunks) {
        socket.destroy();
        return;
      }
      const part = pcm.subarray(i, Math.min(pcm.length, i + ttsChunkSamples));
      this.send(
        socket,
        'audio-chunk',
        { rate, width: 2, channels: 1, timestamp: Math.round((i * 1000) / rate) },
        new Uint8Array(part.buffer, part.byteOffset, part.byteLength),
      );
      if (chunks === 0) ex.firstChunkAt = performance.timeOrigin + performance.now();
      chunks++;
      ex.sentChunks = chunks;
      if (ttsChunkGapMs > 0) await sleep(ttsChunkGapMs);
    }
    if (socket.destroyed) return;
    this.send(socket, 'audio-stop', { timestamp: Math.round((pcm.length * 1000) / rate) });
    ex.completed = true;
  }
}

/** The double's "voice": 80 ms of a 440 Hz tone per character (at least 200 ms), at `rate`. */
export function toneFor(text: string, rate: number): Int16Array {
  const n = Math.max(Math.round(rate * 0.2), Math.round(rate * 0.08 * text.length));
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i++) pcm[i] = Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate));
  return pcm;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
