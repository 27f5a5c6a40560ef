import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A local stand-in for Deepgram's live transcription endpoint (wss://api.deepgram.com/v1/listen),
 * speaking its protocol over a real WebSocket on 127.0.0.1 so hark's production adapter — the SDK,
 * its socket, our keepalive/finalize/backoff code — runs exactly as on the device.
 *
 * What it does like Deepgram:
 *  - the handshake needs `Authorization: Token <key>` (401 otherwise) and linear16 / 16000 Hz / mono
 *    query parameters (400 otherwise); every query parameter is recorded for assertions;
 *  - binary frames are audio (s16le); its timeline is seconds of audio received on the socket;
 *  - text frames are control messages: KeepAlive (resets the idle clock, no reply), Finalize (flushes:
 *    a final Results with from_finalize: true), CloseStream (Metadata, then close 1000);
 *  - 10 s (idleTimeoutMs) without audio or KeepAlive: close 1011 "NET-0001";
 *  - with interim_results, interim Results as audio arrives; with vad_events, SpeechStarted; with
 *    utterance_end_ms, UtteranceEnd after a final.
 * What it says is scripted (`script`: one utterance per Finalize). It misbehaves on demand.
 */

export interface ScriptedUtterance {
  /** The transcript Deepgram "hears" (words split on spaces; punctuation kept in punctuated_word). */
  text: string;
  confidence?: number;
}

export interface Misbehaviour {
  /** Answer every handshake with 401, whatever the key. */
  rejectAuth?: boolean;
  /** Hold the upgrade this long before answering (connect timeouts). */
  delayUpgradeMs?: number;
  /** Close with this code after the first audio frame of a connection. */
  closeOnAudio?: { code: number; reason: string };
  /** Take audio and control messages, never answer them (no finals, no from_finalize). */
  stall?: boolean;
  /** Send these raw text frames before each real message (malformed JSON, unknown types). */
  junkBeforeEachMessage?: string[];
  /** Never reply to Finalize (results still come from interim/endpointing). */
  ignoreFinalize?: boolean;
}

export interface ConnectionRecord {
  id: number;
  query: Record<string, string>;
  authorization: string | undefined;
  audioBytes: number;
  keepAlives: number;
  finalizes: number;
  closeStreams: number;
  /** Control messages that were not JSON or not a known type. */
  badControl: string[];
  /** Set when the connection ended: who closed it, and how. */
  closed: { by: 'server' | 'client'; code: number; reason: string } | null;
  openedAt: number;
  /** Wall times (ms) at which KeepAlive arrived. */
  keepAliveAt: number[];
}

const BYTES_PER_SECOND = 16000 * 2;

export class DeepgramDouble {
  readonly connections: ConnectionRecord[] = [];
  /** Upgrade requests, accepted or not (a retry storm shows here). */
  handshakes = 0;
  /** performance.now() at which each Finalize reply (a from_finalize final) was written to the socket. */
  readonly finalSentAt: number[] = [];
  /** Utterances to "hear", one per Finalize; an empty queue hears silence. */
  script: ScriptedUtterance[] = [];
  misbehave: Misbehaviour = {};
  /** How long between interim results, in seconds of audio. */
  interimEverySec = 0.25;
  private readonly sockets = new Set<WebSocket>();
  private readonly pendingUpgrades = new Set<Duplex>();

  private constructor(
    private readonly server: Server,
    private readonly wss: WebSocketServer,
    readonly apiKey: string,
    readonly idleTimeoutMs: number,
  ) {}

  static async start(opts: { apiKey?: string; idleTimeoutMs?: number } = {}): Promise<DeepgramDouble> {
    const server = createServer((_req, res) => {
      res.writeHead(426, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ err_code: 'UPGRADE_REQUIRED', err_msg: 'use a WebSocket' }));
    });
    const wss = new WebSocketServer({ noServer: true });
    const d = new DeepgramDouble(server, wss, opts.apiKey ?? 'test-key', opts.idleTimeoutMs ?? 10_000);
    server.on('upgrade', (req, socket, head) => d.upgrade(req, socket, head));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return d;
  }

  /** The base URL to give hark (the SDK appends /v1/listen). */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `ws://127.0.0.1:${port}`;
  }

  get last(): ConnectionRecord | undefined {
    return this.connections[this.connections.length - 1];
  }

  /** Close every socket from the server side with this code (a network drop, a server restart). */
  dropAll(code = 1011, reason = 'server going away'): void {
    for (const ws of this.sockets) ws.close(code, reason);
  }

  async close(): Promise<void> {
    for (const s of this.pendingUpgrades) s.destroy();
    for (const ws of this.sockets) ws.terminate();
    this.wss.close();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.handshakes++;
    const url = new URL(req.url ?? '/', 'http://x');
    const refuse = (status: number, text: string, body: object) => {
      const json = JSON.stringify(body);
      socket.end(`HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\nconnection: close\r\n\r\n${json}`);
    };
    if (url.pathname !== '/v1/listen') return refuse(404, 'Not Found', { err_msg: `no such endpoint ${url.pathname}` });
    const auth = req.headers.authorization;
    if (this.misbehave.rejectAuth || auth !== `Token ${this.apiKey}`) {
      return refuse(401, 'Unauthorized', { err_code: 'INVALID_AUTH', err_msg: 'Invalid credentials.' });
    }
    const query = Object.fromEntries(url.searchParams.entries());
    if (query.encoding !== 'linear16' || query.sample_rate !== '16000' || (query.channels ?? '1') !== '1' || !query.model) {
      return refuse(400, 'Bad Request', { err_code: 'INVALID_QUERY_PARAMETER', err_msg: 'expected model, encoding=linear16, sample_rate=16000, channels=1' });
    }
    const go = () => {
      this.pendingUpgrades.delete(socket);
      if (socket.destroyed) return;
      this.wss.handleUpgrade(req, socket, head, (ws) => this.session(ws, query, auth));
    };
    if (this.misbehave.delayUpgradeMs) {
      this.pendingUpgrades.add(socket);
      setTimeout(go, this.misbehave.delayUpgradeMs);
    } else go();
  }

  private session(ws: WebSocket, query: Record<string, string>, authorization: string | undefined): void {
    const rec: ConnectionRecord = { id: this.connections.length + 1, query, authorization, audioBytes: 0, keepAlives: 0, finalizes: 0, closeStreams: 0, badControl: [], closed: null, openedAt: Date.now(), keepAliveAt: [] };
    this.connections.push(rec);
    this.sockets.add(ws);
    const requestId = randomUUID();
    let segStartBytes = 0;
    let lastInterimAt = 0;
    let spoke = false;
    let idle: NodeJS.Timeout | null = null;
    const interim = query.interim_results === 'true';
    const vadEvents = query.vad_events === 'true';
    const utteranceEnd = query.utterance_end_ms !== undefined && query.utterance_end_ms !== 'false';

    const send = (msg: object) => {
      if (ws.readyState !== ws.OPEN) return;
      for (const junk of this.misbehave.junkBeforeEachMessage ?? []) ws.send(junk);
      ws.send(JSON.stringify(msg));
    };
    const serverClose = (code: number, reason: string) => {
      if (rec.closed) return;
      rec.closed = { by: 'server', code, reason };
      ws.close(code, reason);
    };
    const armIdle = () => {
      if (idle) clearTimeout(idle);
      idle = setTimeout(() => serverClose(1011, 'NET-0001'), this.idleTimeoutMs);
    };
    armIdle();

    const sec = (bytes: number) => bytes / BYTES_PER_SECOND;
    const current = () => this.script[0];
    const words = (upTo: number, startSec: number, endSec: number) => {
      const u = current();
      if (!u) return [];
      const all = u.text.split(/\s+/).filter(Boolean).slice(0, upTo);
      const n = u.text.split(/\s+/).filter(Boolean).length;
      const span = Math.max(0.01, endSec - startSec);
      return all.map((w, i) => ({
        word: w.toLowerCase().replace(/[^\p{L}\p{N}']/gu, ''),
        start: round(startSec + (span * i) / n),
        end: round(startSec + (span * (i + 1)) / n),
        confidence: u.confidence ?? 0.95,
        punctuated_word: w,
      }));
    };
    const results = (isFinal: boolean, fromFinalize: boolean, ws2: ReturnType<typeof words>) => {
      const start = sec(segStartBytes);
      return {
        type: 'Results',
        channel_index: [0, 1],
        duration: round(sec(rec.audioBytes) - start),
        start: round(start),
        is_final: isFinal,
        speech_final: isFinal,
        from_finalize: fromFinalize,
        channel: { alternatives: [{ transcript: ws2.map((w) => w.punctuated_word).join(' '), confidence: ws2.length ? (current()?.confidence ?? 0.95) : 0, words: ws2 }] },
        metadata: { request_id: requestId, model_info: { name: query.model, version: 'double', arch: 'double' }, model_uuid: 'double' },
      };
    };

    ws.on('message', (data, isBinary) => {
      if (rec.closed) return;
      if (isBinary) {
        const bytes = Buffer.isBuffer(data) ? data.length : Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as ArrayBuffer).byteLength;
        rec.audioBytes += bytes;
        armIdle();
        if (this.misbehave.closeOnAudio) return serverClose(this.misbehave.closeOnAudio.code, this.misbehave.closeOnAudio.reason);
        if (this.misbehave.stall) return;
        if (!spoke && vadEvents && current()) {
          spoke = true;
          send({ type: 'SpeechStarted', channel: [0], timestamp: round(sec(segStartBytes)) });
        }
        const segSec = sec(rec.audioBytes - segStartBytes);
        if (interim && current() && segSec - lastInterimAt >= this.interimEverySec) {
          lastInterimAt = segSec;
          const reveal = Math.max(1, Math.floor(segSec / 0.3));
          send(results(false, false, words(reveal, sec(segStartBytes), sec(rec.audioBytes))));
        }
        return;
      }
      let msg: { type?: unknown };
      try {
        msg = JSON.parse(data.toString());
      } catch {
        rec.badControl.push(data.toString().slice(0, 80));
        return;
      }
      switch (msg.type) {
        case 'KeepAlive':
          rec.keepAlives++;
          rec.keepAliveAt.push(Date.now());
          armIdle();
          return;
        case 'Finalize': {
          rec.finalizes++;
          if (this.misbehave.stall || this.misbehave.ignoreFinalize) return;
          const all = words(1000, sec(segStartBytes), sec(rec.audioBytes));
          send(results(true, true, all));
          this.finalSentAt.push(performance.now());
          if (utteranceEnd && all.length > 0) send({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: all[all.length - 1]!.end });
          if (current()) this.script.shift();
          segStartBytes = rec.audioBytes;
          lastInterimAt = 0;
          spoke = false;
          return;
        }
        case 'CloseStream':
          rec.closeStreams++;
          send({ type: 'Metadata', transaction_key: 'deprecated', request_id: requestId, sha256: '0'.repeat(64), created: new Date().toISOString(), duration: round(sec(rec.audioBytes)), channels: 1 });
          return serverClose(1000, '');
        default:
          rec.badControl.push(JSON.stringify(msg).slice(0, 80));
      }
    });
    ws.on('close', (code, reason) => {
      if (idle) clearTimeout(idle);
      this.sockets.delete(ws);
      if (!rec.closed) rec.closed = { by: 'client', code, reason: reason.toString() };
    });
    ws.on('error', () => {});
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
