import { Backoff } from '../../core/backoff.js';
import { DeepgramClient } from '@deepgram/sdk';
import { SAMPLE_RATE, int16ToBuffer } from '../../audio/pcm.js';
import { SystemClock, type Clock, type TimerHandle } from '../../core/clock.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import { AsrEventSource } from '../asr-event-source.js';
import type { LiveStream, SttEngine } from '../engine.js';
import { EngineFailure, type AsrEvent, type SegmentAudio, type Transcript } from '../types.js';
import { listenParams, type DeepgramListenOptions } from './options.js';
import { DeepgramStream, type StreamHost } from './stream.js';

export interface DeepgramEngineOptions extends DeepgramListenOptions {
  apiKey: string;
  /** Deepgram's base URL: wss://api.deepgram.com, or ws://127.0.0.1:PORT for a local double. */
  url: string;
  connectTimeoutMs: number;
  finalizeTimeoutMs: number;
  keepAliveMs: number;
  idleCloseMs: number;
  reconnectInitialMs: number;
  reconnectMaxMs: number;
  logger: Logger;
  clock?: Clock;
}

export interface DeepgramStats {
  connects: number;
  keepAlives: number;
  /** Messages the AsrEventSource could not use. */
  skipped: number;
}

type Socket = Awaited<ReturnType<DeepgramClient['listen']['v1']['connect']>>;

interface Conn {
  socket: Socket | null;
  state: 'connecting' | 'open' | 'closed';
  /** Samples queued on this socket so far: the next stream's offset on its timeline. */
  samples: number;
  /** Sent once open, in order: audio and Finalize markers queued while connecting. */
  outbox: ({ audio: Int16Array } | { finalize: DeepgramStream })[];
  lastError: string | null;
  connectTimer: TimerHandle | null;
  keepAlive: TimerHandle | null;
  /** We closed it (idle, shutdown): its close is not news. */
  closing: boolean;
}

/** Audio goes out in ~256 ms frames: the size Deepgram handles best is 20-250 ms. */
const SEND_CHUNK = 4096;

/**
 * Deepgram live streaming over @deepgram/sdk v5 (listen.v1). One socket, opened when a segment
 * needs it and kept while segments keep coming: KeepAlive every keepAliveMs while it idles (Deepgram
 * drops a socket after ~10 s without audio — NET-0001, close 1011), CloseStream after idleCloseMs.
 *
 * The SDK's own reconnect loop is switched off (reconnectAttempts 0): it would retry a rejected key
 * 30 times. Reconnection is ours — lazily, on the next segment, after an exponential backoff when
 * connecting failed — and the service's circuit breaker decides whether to try at all.
 */
export class DeepgramEngine implements StreamHost, SttEngine {
  readonly id = 'deepgram';
  readonly remote = true;
  readonly trustBlank = true;
  readonly clock: Clock;
  readonly finalizeTimeoutMs: number;
  readonly stats: DeepgramStats = { connects: 0, keepAlives: 0, skipped: 0 };
  private conn: Conn | null = null;
  private streams: DeepgramStream[] = [];
  private readonly backoff: Backoff;
  private nextAttemptAt = 0;
  private idleTimer: TimerHandle | null = null;
  private closed = false;
  private readonly log: Logger;

  constructor(private readonly opts: DeepgramEngineOptions) {
    this.clock = opts.clock ?? new SystemClock();
    this.finalizeTimeoutMs = opts.finalizeTimeoutMs;
    this.log = opts.logger;
    this.backoff = new Backoff(opts.reconnectInitialMs, opts.reconnectMaxMs);
  }

  /** The socket is open right now (for status pages and tests). */
  get connected(): boolean {
    return this.conn?.state === 'open';
  }

  /**
   * Start streaming a segment. Results for it go to `onEvent` (times relative to the segment) as
   * they arrive; `finish()` on the returned stream flushes it and resolves with its transcript. If
   * the socket cannot be had, the stream is returned already failed (finish() rejects at once).
   */
  openStream(segmentId: number | string, onEvent: (e: AsrEvent) => void = () => {}): DeepgramStream {
    this.clock.clearTimer(this.idleTimer);
    this.idleTimer = null;
    let conn: Conn | null = null;
    let failure: EngineFailure | null = null;
    if (this.closed) failure = new EngineFailure('deepgram', 'unavailable', 'the engine is shut down');
    else {
      try {
        conn = this.connection();
      } catch (err) {
        failure = err instanceof EngineFailure ? err : new EngineFailure('deepgram', 'error', errorMessage(err));
      }
    }
    const stream = new DeepgramStream(this, segmentId, conn?.samples ?? 0, onEvent);
    if (failure) stream.fail(failure);
    else this.streams.push(stream);
    return stream;
  }

  /** SttEngine: stream a segment while it is open. */
  openLive(segmentId: string, onEvent: (e: AsrEvent) => void): LiveStream {
    return this.openStream(segmentId, onEvent);
  }

  /** A whole segment in one go (the fallback path, `hark transcribe`): stream it, then finish. */
  transcribe(audio: SegmentAudio, onEvent?: (e: AsrEvent) => void): Promise<Transcript> {
    const stream = this.openStream(audio.id, onEvent);
    stream.write(audio.pcm);
    return stream.finish();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.clock.clearTimer(this.idleTimer);
    for (const s of [...this.streams]) s.fail(new EngineFailure('deepgram', 'closed', 'shutting down'));
    if (this.conn) this.shut(this.conn, 'shutdown');
  }

  // ---- StreamHost ----

  sendAudio(stream: DeepgramStream, pcm: Int16Array): void {
    const conn = this.conn;
    if (!conn || !this.streams.includes(stream)) return;
    conn.samples += pcm.length;
    for (let i = 0; i < pcm.length; i += SEND_CHUNK) {
      // Copy: the caller may reuse its buffer, and a queued frame must keep its samples.
      const chunk = pcm.slice(i, i + SEND_CHUNK);
      if (conn.state === 'open') this.transmit(conn, chunk);
      else conn.outbox.push({ audio: chunk });
    }
  }

  sendFinalize(stream: DeepgramStream): void {
    const conn = this.conn;
    if (!conn || !this.streams.includes(stream)) return;
    if (conn.state === 'open') this.finalize(conn, stream);
    else conn.outbox.push({ finalize: stream });
  }

  streamDone(stream: DeepgramStream): void {
    this.streams = this.streams.filter((s) => s !== stream);
    this.armIdle();
  }

  /** With no segment on it, an open socket is closed after idleCloseMs (KeepAlive holds it until then). */
  private armIdle(): void {
    if (this.streams.length === 0 && this.conn?.state === 'open' && !this.closed) {
      this.clock.clearTimer(this.idleTimer);
      this.idleTimer = this.clock.setTimer(this.opts.idleCloseMs, () => {
        this.idleTimer = null;
        if (this.conn && this.streams.length === 0) {
          this.log.info('deepgram socket idle: closing', { idleMs: this.opts.idleCloseMs });
          this.shut(this.conn, 'idle');
        }
      });
    }
  }

  warn(msg: string, fields: Record<string, unknown>): void {
    this.log.warn(msg, fields);
  }

  // ---- the socket ----

  private connection(): Conn {
    if (this.conn && this.conn.state !== 'closed') return this.conn;
    const now = this.clock.now();
    if (now < this.nextAttemptAt) {
      throw new EngineFailure('deepgram', 'unavailable', `reconnect backoff: next attempt in ${Math.ceil(this.nextAttemptAt - now)} ms`);
    }
    return this.connect();
  }

  private connect(): Conn {
    const conn: Conn = { socket: null, state: 'connecting', samples: 0, outbox: [], lastError: null, connectTimer: null, keepAlive: null, closing: false };
    this.conn = conn;
    this.stats.connects++;
    conn.connectTimer = this.clock.setTimer(this.opts.connectTimeoutMs, () => {
      if (conn.state === 'connecting') this.lost(conn, new EngineFailure('deepgram', 'connect', `socket not open within ${this.opts.connectTimeoutMs} ms`));
    });
    void this.dial(conn).catch((err: unknown) => {
      if (conn.state === 'connecting') this.lost(conn, new EngineFailure('deepgram', 'connect', errorMessage(err)));
    });
    return conn;
  }

  private async dial(conn: Conn): Promise<void> {
    const client = new DeepgramClient({ apiKey: this.opts.apiKey, baseUrl: this.opts.url });
    const socket = await client.listen.v1.connect({
      ...listenParams(this.opts),
      reconnectAttempts: 0,
      // Our own timer is the one that counts; the SDK's only has to outlast it.
      connectionTimeoutInSeconds: this.opts.connectTimeoutMs / 1000 + 1,
    } as Parameters<DeepgramClient['listen']['v1']['connect']>[0]);
    if (conn.state !== 'connecting') {
      socket.close();
      return;
    }
    conn.socket = socket;
    const source = new AsrEventSource(
      () => this.clock.now(),
      this.log,
      (e) => this.route(conn, e),
    );
    socket.on('open', () => this.opened(conn));
    socket.on('message', (m: unknown) => {
      const before = source.skipped;
      source.handle(m);
      this.stats.skipped += source.skipped - before;
    });
    // The SDK reports a failed handshake as close (code 1000) immediately followed, in the same call,
    // by error ("Unexpected server response: 401"): note errors, and decide on the next microtask.
    socket.on('error', (e: Error) => {
      conn.lastError = e?.message ?? String(e);
    });
    socket.on('close', (ev: { code?: number; reason?: string }) => {
      queueMicrotask(() => this.closedBy(conn, ev?.code ?? 1006, ev?.reason ?? ''));
    });
    socket.connect();
  }

  private opened(conn: Conn): void {
    if (conn.state !== 'connecting') return;
    conn.state = 'open';
    this.clock.clearTimer(conn.connectTimer);
    this.backoff.reset();
    this.nextAttemptAt = 0;
    this.log.debug('deepgram socket open', { url: this.opts.url });
    const queued = conn.outbox;
    conn.outbox = [];
    for (const item of queued) {
      if ('audio' in item) this.transmit(conn, item.audio);
      else this.finalize(conn, item.finalize);
    }
    this.armKeepAlive(conn);
    this.armIdle();
  }

  private closedBy(conn: Conn, code: number, reason: string): void {
    if (conn.state === 'closed') return;
    if (conn.closing) {
      this.drop(conn);
      return;
    }
    const err = conn.lastError;
    if (conn.state === 'connecting') {
      const auth = err !== null && /\b(401|403)\b/.test(err);
      const f = auth
        ? new EngineFailure('deepgram', 'auth', `Deepgram rejected the API key (${err}); check DEEPGRAM_API_KEY`)
        : new EngineFailure('deepgram', 'connect', err ?? `socket closed while connecting (code ${code})`);
      this.lost(conn, f);
      return;
    }
    const what =
      code === 1011
        ? `Deepgram closed the socket (1011 ${reason || 'NET-0001: no audio or KeepAlive for 10 s'})`
        : `socket closed (code ${code}${reason ? `: ${reason}` : ''}${err ? `; ${err}` : ''})`;
    this.log.warn('deepgram socket closed', { code, reason, error: err, streams: this.streams.length });
    this.lost(conn, new EngineFailure('deepgram', 'closed', what));
  }

  /** The socket is gone: fail what was riding on it; a failed connect starts the backoff. */
  private lost(conn: Conn, f: EngineFailure): void {
    const wasConnecting = conn.state === 'connecting';
    this.drop(conn);
    if (wasConnecting) {
      const backoff = this.backoff.fail();
      this.nextAttemptAt = this.clock.now() + backoff;
      if (f.kind === 'auth') this.log.error('deepgram: API key rejected', { error: f.message });
      else this.log.warn('deepgram connect failed', { error: f.message, retryInMs: backoff });
    }
    for (const s of [...this.streams]) s.fail(f);
    this.streams = [];
    try {
      conn.socket?.close();
    } catch {
      // already closed
    }
  }

  private drop(conn: Conn): void {
    conn.state = 'closed';
    this.clock.clearTimer(conn.connectTimer);
    this.clock.clearTimer(conn.keepAlive);
    if (this.conn === conn) this.conn = null;
  }

  private shut(conn: Conn, why: string): void {
    conn.closing = true;
    const socket = conn.socket;
    if (conn.state === 'open' && socket) {
      try {
        socket.sendCloseStream({ type: 'CloseStream' });
      } catch {
        // closing anyway
      }
    }
    this.drop(conn);
    this.log.debug('deepgram socket closed by hark', { why });
    try {
      socket?.close();
    } catch {
      // already closed
    }
  }

  private transmit(conn: Conn, chunk: Int16Array): void {
    try {
      conn.socket!.sendMedia(int16ToBuffer(chunk));
    } catch (err) {
      this.lost(conn, new EngineFailure('deepgram', 'closed', `send failed: ${errorMessage(err)}`));
      return;
    }
    this.armKeepAlive(conn);
  }

  private finalize(conn: Conn, stream: DeepgramStream): void {
    if (!stream.active) return;
    try {
      conn.socket!.sendFinalize({ type: 'Finalize' });
    } catch (err) {
      this.lost(conn, new EngineFailure('deepgram', 'closed', `send failed: ${errorMessage(err)}`));
      return;
    }
    stream.finalizeWent();
  }

  /** KeepAlive only when nothing else went out for keepAliveMs: audio keeps the socket alive by itself. */
  private armKeepAlive(conn: Conn): void {
    this.clock.clearTimer(conn.keepAlive);
    conn.keepAlive = this.clock.setTimer(this.opts.keepAliveMs, () => {
      if (conn.state !== 'open' || !conn.socket) return;
      try {
        conn.socket.sendKeepAlive({ type: 'KeepAlive' });
        this.stats.keepAlives++;
      } catch (err) {
        this.lost(conn, new EngineFailure('deepgram', 'closed', `KeepAlive failed: ${errorMessage(err)}`));
        return;
      }
      this.armKeepAlive(conn);
    });
  }

  /** Which segment a message belongs to: Finalize replies to the oldest finalising one, the rest by time. */
  private route(conn: Conn, e: AsrEvent): void {
    if (e.kind === 'metadata') {
      this.log.debug('deepgram metadata', { requestId: e.requestId });
      return;
    }
    if (conn !== this.conn) return;
    const live = this.streams;
    if (live.length === 0) {
      this.log.debug('deepgram message with no segment open', { kind: e.kind });
      return;
    }
    let target: DeepgramStream | undefined;
    if ((e.kind === 'final' || e.kind === 'partial') && e.fromFinalize) target = live.find((s) => s.finalizeSent);
    if (!target) {
      const at = e.kind === 'utterance-end' ? e.lastWordEnd : e.kind === 'speech-started' ? e.timestamp : e.start;
      target = [...live].reverse().find((s) => s.offsetSamples / SAMPLE_RATE <= at + 0.01) ?? live[0]!;
    }
    target.deliver(e);
  }
}
