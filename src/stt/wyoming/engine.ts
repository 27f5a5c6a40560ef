import type { Clock, TimerHandle } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { LiveStream, SttEngine } from '../engine.js';
import { cleanText } from '../clean-text.js';
import { EngineFailure, type AsrEvent, type EngineFailureKind, type SegmentAudio, type Transcript } from '../types.js';
import { describeServer, WyomingConnection, WyomingError } from '../../wyoming/connection.js';
import type { FrameLimits } from '../../wyoming/framing.js';
import type { WyomingInfo } from '../../wyoming/info.js';
import type { WyomingServer } from '../../wyoming/server-url.js';

export interface WyomingSttOptions {
  server: WyomingServer;
  /** Sent with each transcribe; '' sends none (the server detects the language). */
  language: string;
  /** A model name for `transcribe{name}`; '' lets the server use its own. */
  model: string;
  connectTimeoutMs: number;
  /** Fails over when the transcript takes longer than deadlineBaseMs + deadlinePerSecondMs × segment seconds after audio-stop. */
  deadlineBaseMs: number;
  deadlinePerSecondMs: number;
  /** Samples per audio-chunk event. */
  chunkSamples: number;
  limits?: Partial<FrameLimits>;
  logger: Logger;
  clock: Clock;
}

const RATE = 16_000;
const FORMAT = { rate: RATE, width: 2, channels: 1 };

/**
 * Speech-to-text on a Wyoming server (wyoming-faster-whisper and friends). One TCP connection per
 * segment, as the reference server expects (it closes after the transcript): transcribe, audio-start,
 * the audio as audio-chunks (pre-roll first), audio-stop, then the transcript. A segment streams to
 * the server while it is still open (openLive), so at the close only audio-stop is left to send.
 *
 * A server that streams transcripts (info: supports_transcript_streaming) sends transcript-chunks;
 * they feed the live hearing as finals. Whatever fails — refused, too slow, an `error` event, the
 * connection lost part-way, bytes that are not Wyoming — rejects with an EngineFailure, and the
 * transcriber gives the whole segment to the next engine; what the chunks had said is only recorded.
 */
export class WyomingSttEngine implements SttEngine {
  readonly id = 'wyoming';
  readonly remote = true;
  /** A remote Whisper (usually a bigger one than the Pi's) is the better ear: its blank is believed. */
  readonly trustBlank = true;
  private info: WyomingInfo | null = null;
  private infoError: string | null = null;
  private readonly sessions = new Set<WyomingSession>();

  constructor(readonly o: WyomingSttOptions) {}

  /** What the server said it offers at start (null when it could not be asked). */
  get serverInfo(): WyomingInfo | null {
    return this.info;
  }

  /** Why the server could not be described at start, if it could not. */
  get describeError(): string | null {
    return this.infoError;
  }

  /** Ask the server what it offers; a server that is away now is not fatal (it may be back for the first segment). */
  async describe(timeoutMs = 3000): Promise<WyomingInfo | null> {
    try {
      this.info = await describeServer(this.o.server, { connectTimeoutMs: this.o.connectTimeoutMs, timeoutMs });
      this.infoError = null;
      if (this.info.asrPrograms.length === 0) this.o.logger.warn('the Wyoming server offers no speech-to-text program', { server: this.o.server.url });
    } catch (err) {
      this.infoError = errorMessage(err);
      this.o.logger.warn('cannot describe the Wyoming speech-to-text server; it will be tried per segment', { error: this.infoError });
    }
    return this.info;
  }

  openLive(segmentId: string, onEvent: (e: AsrEvent) => void): LiveStream {
    return this.session(segmentId, onEvent);
  }

  async transcribe(audio: SegmentAudio, onEvent?: (e: AsrEvent) => void): Promise<Transcript> {
    const s = this.session(String(audio.id), onEvent ?? (() => {}));
    s.write(audio.pcm);
    return s.finish();
  }

  async close(): Promise<void> {
    for (const s of this.sessions) s.cancel();
  }

  private session(segmentId: string, onEvent: (e: AsrEvent) => void): WyomingSession {
    const s = new WyomingSession(this.o, segmentId, this.info?.streamsTranscripts ?? false, onEvent, () => this.sessions.delete(s));
    this.sessions.add(s);
    return s;
  }
}

/**
 * One segment's exchange. The segment's close (endAudio, or finish() if nobody called it) sends
 * audio-stop and starts the deadline: a server then works on every closed segment at once, each on its
 * own connection as wyoming-faster-whisper handles them, while hark takes their transcripts one at a
 * time — a slow first segment does not hold back the second's audio-stop nor eat its deadline.
 */
class WyomingSession implements LiveStream {
  private conn: WyomingConnection | null = null;
  /** Reads the server from the moment the connection is up: a streaming server's chunks come while audio still flows. */
  private transcript: Promise<string> | null = null;
  private connectError: WyomingError | null = null;
  private readonly connecting: Promise<void>;
  /** Audio written before the connection was up (the pre-roll, usually). */
  private pending: Int16Array[] = [];
  private samples = 0;
  private cancelled = false;
  private sentSamples = 0;
  /** Clock time of the segment's close; null while it is open. */
  private closedAt: number | null = null;
  /** From the close: the transcript, or why not (the deadline among the reasons). */
  private answer: Promise<string> | null = null;
  private deadline: TimerHandle | null = null;
  private gotText = false;
  /** The language the server's transcript named (wyoming asr.py Transcript.language), if any. */
  private heard: string | undefined;

  constructor(
    private readonly o: WyomingSttOptions,
    private readonly segmentId: string,
    private readonly streams: boolean,
    private readonly onEvent: (e: AsrEvent) => void,
    private readonly onDone: () => void,
  ) {
    this.connecting = WyomingConnection.open(o.server, { connectTimeoutMs: o.connectTimeoutMs, ...(o.limits ? { limits: o.limits } : {}) }).then(
      (conn) => {
        if (this.cancelled) return conn.close();
        this.conn = conn;
        this.transcript = this.readTranscript(conn);
        // Read now, awaited at the close: a failure before then must not be an unhandled rejection.
        this.transcript.catch(() => {});
        // Several languages on the device: none is sent, and the server detects which was spoken.
        const transcribe: Record<string, unknown> = o.language ? { language: o.language } : {};
        if (o.model) transcribe.name = o.model;
        conn.send('transcribe', transcribe);
        conn.send('audio-start', { ...FORMAT, timestamp: 0 });
        for (const p of this.pending) this.sendAudio(p);
        this.pending = [];
      },
      (err: unknown) => {
        this.connectError = err instanceof WyomingError ? err : new WyomingError('connect', o.server.url, errorMessage(err));
      },
    );
  }

  get answered(): boolean {
    return this.gotText;
  }

  write(pcm: Int16Array): void {
    if (this.cancelled || this.closedAt !== null || pcm.length === 0) return;
    this.samples += pcm.length;
    if (this.conn) this.sendAudio(pcm);
    // A copy: the caller may reuse its frame buffer before the connection is up.
    else if (!this.connectError) this.pending.push(pcm.slice());
  }

  /** The segment closed: audio-stop as soon as the connection is up, and the deadline from now. */
  endAudio(): void {
    if (this.cancelled || this.closedAt !== null) return;
    this.closedAt = this.o.clock.now();
    const url = this.o.server.url;
    const deadlineMs = Math.round(this.o.deadlineBaseMs + (this.o.deadlinePerSecondMs * this.samples) / RATE);
    this.answer = new Promise<string>((resolve, reject) => {
      this.deadline = this.o.clock.setTimer(deadlineMs, () => {
        this.deadline = null;
        const late = new WyomingError('timeout', url, `no transcript within ${deadlineMs} ms of audio-stop`);
        reject(late);
        this.conn?.close(late);
      });
      const settle = (f: () => void) => {
        this.o.clock.clearTimer(this.deadline);
        this.deadline = null;
        f();
      };
      this.connecting
        .then(() => {
          if (this.connectError) throw this.connectError;
          const conn = this.conn;
          if (!conn || this.cancelled) throw new WyomingError('closed', url, 'the segment was cancelled');
          conn.send('audio-stop', { timestamp: this.ms(this.sentSamples) });
          return this.transcript!;
        })
        .then(
          (text) => settle(() => ((this.gotText = true), resolve(text))),
          (err: unknown) => settle(() => reject(err)),
        );
    });
    this.answer.catch(() => {});
  }

  async finish(): Promise<Transcript> {
    try {
      this.endAudio();
      if (!this.answer) throw new WyomingError('closed', this.o.server.url, 'the segment was cancelled');
      const text = await this.answer;
      // The engine's time on the segment: from its close (a live segment was streamed while it was open).
      const ms = Math.round(this.o.clock.now() - this.closedAt!);
      return { engine: 'wyoming', rawText: text, text: cleanText(text), ...(this.heard ? { language: this.heard } : {}), ms };
    } catch (err) {
      throw toFailure(err);
    } finally {
      this.conn?.close();
      this.onDone();
    }
  }

  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.pending = [];
    this.o.clock.clearTimer(this.deadline);
    this.deadline = null;
    this.conn?.close();
    this.onDone();
  }

  private sendAudio(pcm: Int16Array): void {
    const conn = this.conn!;
    const step = this.o.chunkSamples;
    for (let i = 0; i < pcm.length; i += step) {
      const part = pcm.subarray(i, Math.min(pcm.length, i + step));
      conn.send('audio-chunk', { ...FORMAT, timestamp: this.ms(this.sentSamples) }, new Uint8Array(part.buffer, part.byteOffset, part.byteLength));
      this.sentSamples += part.length;
    }
  }

  private ms(samples: number): number {
    return Math.round((samples * 1000) / RATE);
  }

  /** Events until the transcript; transcript-chunks of a streaming server go to the live hearing. */
  private async readTranscript(conn: WyomingConnection): Promise<string> {
    const chunks: string[] = [];
    let stopped = false;
    for (;;) {
      let e;
      try {
        e = await conn.next();
      } catch (err) {
        // A server that streamed its whole transcript and then closed without the final event: take the chunks.
        if (stopped && err instanceof WyomingError && err.kind === 'closed') return chunks.join('');
        throw err;
      }
      switch (e.type) {
        case 'transcript':
          if (typeof e.data.language === 'string' && e.data.language) this.heard = e.data.language.toLowerCase();
          return typeof e.data.text === 'string' ? e.data.text : '';
        case 'transcript-chunk': {
          const text = typeof e.data.text === 'string' ? e.data.text : '';
          chunks.push(text);
          if (this.streams && text.trim()) this.emitChunk(text);
          break;
        }
        case 'transcript-stop':
          stopped = true;
          break;
        default:
          // transcript-start, and events of other services a combined server may interleave.
          break;
      }
    }
  }

  private emitChunk(text: string): void {
    try {
      this.onEvent({
        kind: 'final',
        text: text.trim(),
        words: [],
        confidence: 1,
        start: 0,
        duration: 0,
        speechFinal: false,
        fromFinalize: false,
        receivedAt: this.o.clock.now(),
      });
    } catch (err) {
      this.o.logger.error('live hearing listener failed', { segment: this.segmentId, error: errorMessage(err) });
    }
  }
}

const KINDS: Record<WyomingError['kind'], EngineFailureKind> = {
  connect: 'connect',
  timeout: 'deadline',
  closed: 'closed',
  protocol: 'error',
  server: 'error',
};

function toFailure(err: unknown): EngineFailure {
  if (err instanceof EngineFailure) return err;
  if (err instanceof WyomingError) return new EngineFailure('wyoming', KINDS[err.kind], err.message, { cause: err });
  return new EngineFailure('wyoming', 'error', errorMessage(err), { cause: err });
}
