import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { rng } from './prng.js';

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
 *
 * Two cadences (`cadence`):
 *  - 'simple' (the default, unchanged): interims of the whole segment so far, and everything final
 *    in one from_finalize Results answering Finalize; replies go out at once.
 *  - 'live': Deepgram's real live cadence, as its documentation describes it —
 *    · developers.deepgram.com/docs/interim-results: "Deepgram will identify a point at which its
 *      transcript has reached maximum accuracy and send a definitive, or final, transcript of all audio
 *      up to that point. It will then continue to process audio." Interims (is_final: false) cover the
 *      span since the last final and grow word by word; words carry start/end (seconds on the socket's
 *      audio timeline), confidence, and punctuated_word when smart_format/punctuate is on.
 *    · docs/understand-endpointing-interim-results: a finalised chunk is `is_final: true,
 *      speech_final: false` while the speaker has not paused; "Long utterances may have multiple
 *      is_final: true responses before speech_final: true" — concatenate the is_final transcripts.
 *      Here a chunk is finalised after `chunkFinalAfterSec` of audio since the last final, or once
 *      `chunkFinalAfterWords` words are heard; with `honourEndpointing`, a pause of `endpointing` ms
 *      after heard words gives `is_final: true, speech_final: true` (Deepgram's endpointing).
 *    · docs/finalize: Finalize makes the server "process all remaining audio data and return the final
 *      results", a Results with `from_finalize: true` (and is_final: true) for the rest. (Whether that
 *      reply has speech_final is not documented; this double sets it true, as the simple cadence does.)
 *    · docs/utterance-end: UtteranceEnd ({type, channel: [0,1], last_word_end}) once there is a gap of
 *      utterance_end_ms after the last finalised word — measured on the audio, not the wall clock.
 *    · docs/speech-started: with vad_events, SpeechStarted ({type, channel, timestamp}) when speech
 *      starts — here when the audio reaches the segment's first scripted word.
 *    Scripted words sit on the audio timeline: per word from `ScriptedUtterance.timing`, or paced from
 *    the segment's first byte (`leadInSec`, then one word every `wordSec`). A word is "heard" once the
 *    audio received covers its end. On Finalize, words the audio never reached are squeezed into the
 *    audio that did arrive, so every word of the utterance is final exactly once.
 *
 * In either cadence, `replyLagMs` / `replyJitterMs` delay each reply (in wall ms, bounded by
 * MAX_REPLY_LAG_MS, order kept): Deepgram answers when it decides, so wall gaps between arriving
 * messages are not silence in the audio. Both default to 0, and then replies go out synchronously.
 */

export type Cadence = 'simple' | 'live';

export interface ScriptedUtterance {
  /** The transcript Deepgram "hears" (words split on spaces; punctuation kept in punctuated_word). */
  text: string;
  confidence?: number;
  /**
   * Live cadence only: where each word is in the audio, [start, end] in seconds from the segment's
   * first audio byte, one pair per word, in order. Without it words are paced by leadInSec / wordSec.
   */
  timing?: Array<[number, number]>;
  /**
   * The language it is spoken in. With the query's language=multi (Nova-3 multilingual) Deepgram
   * names it: `languages` on the alternative and `language` on each word; with a language code it
   * names none.
   */
  language?: string;
}

/** What a replyLagMs function is told about the message it delays. */
export interface ReplyInfo {
  type: string;
  isFinal: boolean;
  fromFinalize: boolean;
  /** 0-based index of this message among those sent on this connection. */
  index: number;
  /** Audio received on the socket (seconds) when the message was decided. */
  audioSec: number;
}

export interface SentMessage {
  /** performance.now() when written to the socket. */
  at: number;
  /** performance.now() when decided (at - decidedAt is the reply lag). */
  decidedAt: number;
  /** Audio received on the socket (seconds) when decided. */
  audioSec: number;
  msg: Record<string, unknown>;
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
  /**
   * Live cadence: right after writing the first is_final chunk (not from_finalize) of a segment, fail
   * the socket — close with `code`/`reason` (default 1011 "mid-segment drop"), or with `terminate`
   * destroy the TCP connection without a close frame (the client sees 1006). Pending replies are
   * lost; the segment's scripted utterance is used up. Fires `times` times (default 1) per object
   * assigned; assign a new object to arm it again. Drops so far: `DeepgramDouble.midSegmentDrops`.
   */
  dropAfterFirstFinal?: { code?: number; reason?: string; terminate?: boolean; times?: number };
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
  /** Every JSON message written to the client, in order (junk frames not included). */
  sent: SentMessage[];
}

/** No reply is held longer than this, whatever replyLagMs + replyJitterMs say. */
export const MAX_REPLY_LAG_MS = 5000;

const BYTES_PER_SECOND = 16000 * 2;

export class DeepgramDouble {
  readonly connections: ConnectionRecord[] = [];
  /** Upgrade requests, accepted or not (a retry storm shows here). */
  handshakes = 0;
  /** performance.now() at which each Finalize reply (a from_finalize final) was written to the socket. */
  readonly finalSentAt: number[] = [];
  /** Utterances to "hear", one per Finalize; an empty queue hears silence. */
  script: ScriptedUtterance[] = [];
  /**
   * Simple cadence: decide what a segment says from its audio at Finalize (a benchmark that knows
   * where its commands are in the recording); null hears silence. Overrides `script` when set.
   */
  hear: ((pcm: Int16Array) => ScriptedUtterance | null) | null = null;
  misbehave: Misbehaviour = {};
  /** How long between interim results, in seconds of audio. */
  interimEverySec = 0.25;
  /** 'simple' (default): today's friendly cadence. 'live': Deepgram's real one (see the top of the file). */
  cadence: Cadence = 'simple';
  /** Live: finalise a chunk (is_final, speech_final: false) once this much audio has passed since the last final and a word was heard. */
  chunkFinalAfterSec = 1.5;
  /** Live: finalise a chunk once this many words are heard since the last final (Infinity: only by time). */
  chunkFinalAfterWords = Number.POSITIVE_INFINITY;
  /** Live: with the query's `endpointing=<ms>`, a pause that long after heard words gives a final with speech_final: true. Off by default. */
  honourEndpointing = false;
  /** Live, unscripted timing: silence before a segment's first word (seconds of audio). */
  leadInSec = 0.2;
  /** Live, unscripted timing: each word's length, back to back (seconds of audio). */
  wordSec = 0.3;
  /** Wall ms each reply is held before it is written (a number, or per message); 0 = at once. */
  replyLagMs: number | ((m: ReplyInfo) => number) = 0;
  /** Up to this many wall ms more per reply, pseudo-random from replyJitterSeed (deterministic). */
  replyJitterMs = 0;
  replyJitterSeed = 1;
  /** How many times misbehave.dropAfterFirstFinal has fired. */
  midSegmentDrops = 0;
  private readonly dropsFired = new WeakMap<object, number>();
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
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(json)}\r\nconnection: close\r\n\r\n${json}`,
      );
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
    const rec: ConnectionRecord = {
      id: this.connections.length + 1,
      query,
      authorization,
      audioBytes: 0,
      keepAlives: 0,
      finalizes: 0,
      closeStreams: 0,
      badControl: [],
      closed: null,
      openedAt: Date.now(),
      keepAliveAt: [],
      sent: [],
    };
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
    const utteranceEndSec = utteranceEnd ? Number(query.utterance_end_ms) / 1000 : Number.NaN;
    const punctuated = query.smart_format === 'true' || query.punctuate === 'true';
    const endpointingSec = query.endpointing !== undefined && query.endpointing !== 'false' ? Number(query.endpointing) / 1000 : Number.NaN;

    // ---- the outbox: replies in order, each held replyLagMs (+ jitter) of wall time ----
    /** after: run once written; afterFlushed: once the frame has left for the kernel (ws.send's callback). */
    type Out = { msg: Record<string, unknown>; due: number; decidedAt: number; audioSec: number; after?: () => void; afterFlushed?: () => void };
    const outbox: Out[] = [];
    let flushTimer: NodeJS.Timeout | null = null;
    let lastDue = 0;
    let index = 0;
    const rand = rng(this.replyJitterSeed * 7919 + rec.id);
    const write = (o: Out) => {
      if (ws.readyState !== ws.OPEN) return;
      for (const junk of this.misbehave.junkBeforeEachMessage ?? []) ws.send(junk);
      ws.send(JSON.stringify(o.msg), o.afterFlushed && (() => o.afterFlushed!()));
      const at = performance.now();
      rec.sent.push({ at, decidedAt: o.decidedAt, audioSec: o.audioSec, msg: o.msg });
      if (o.msg.from_finalize === true) this.finalSentAt.push(at);
      o.after?.();
    };
    const flush = () => {
      flushTimer = null;
      while (outbox.length > 0 && outbox[0]!.due <= performance.now()) write(outbox.shift()!);
      if (outbox.length > 0) flushTimer = setTimeout(flush, Math.max(0, outbox[0]!.due - performance.now()));
    };
    const send = (msg: Record<string, unknown>, after?: () => void, afterFlushed?: () => void) => {
      if (rec.closed || ws.readyState !== ws.OPEN) return;
      const now = performance.now();
      const audioSec = round(sec(rec.audioBytes));
      const info: ReplyInfo = { type: String(msg.type), isFinal: msg.is_final === true, fromFinalize: msg.from_finalize === true, index: index++, audioSec };
      const base = typeof this.replyLagMs === 'function' ? this.replyLagMs(info) : this.replyLagMs;
      const lag = Math.min(MAX_REPLY_LAG_MS, Math.max(0, (Number.isFinite(base) ? base : 0) + (this.replyJitterMs > 0 ? rand() * this.replyJitterMs : 0)));
      const o: Out = { msg, due: Math.max(lastDue, now + lag), decidedAt: now, audioSec, after, afterFlushed };
      lastDue = o.due;
      // No lag and nothing waiting: written at once, as the simple double always did.
      if (outbox.length === 0 && o.due <= now) return write(o);
      outbox.push(o);
      if (!flushTimer) flushTimer = setTimeout(flush, Math.max(0, outbox[0]!.due - now));
    };
    const discardOutbox = () => {
      outbox.length = 0;
      if (flushTimer) clearTimeout(flushTimer);
      flushTimer = null;
    };

    const serverClose = (code: number, reason: string) => {
      if (rec.closed) return;
      rec.closed = { by: 'server', code, reason };
      discardOutbox();
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
        word: bare(w),
        start: round(startSec + (span * i) / n),
        end: round(startSec + (span * (i + 1)) / n),
        confidence: u.confidence ?? 0.95,
        punctuated_word: w,
      }));
    };
    // language=multi: Deepgram names what it heard, on the alternative and on each word.
    const multi = query.language === 'multi';
    const named = (lang: string | undefined, n: number) => (multi && lang && n > 0 ? { languages: [lang] } : {});
    const wordLang = (lang: string | undefined) => (multi && lang ? { language: lang } : {});
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
        channel: {
          alternatives: [
            {
              transcript: ws2.map((w) => w.punctuated_word).join(' '),
              confidence: ws2.length ? (current()?.confidence ?? 0.95) : 0,
              words: ws2.map((w) => ({ ...w, ...wordLang(current()?.language) })),
              ...named(current()?.language, ws2.length),
            },
          ],
        },
        metadata: { request_id: requestId, model_info: { name: query.model, version: 'double', arch: 'double' }, model_uuid: 'double' },
      };
    };

    // ---- the live cadence: one segment (Finalize to Finalize) at a time ----
    type LiveWord = { word: string; punctuated: string; start: number; end: number; confidence: number; language?: string };
    const live = {
      words: null as LiveWord[] | null,
      /** Words already sent in a final. */
      finalised: 0,
      /** Start (socket seconds) of the span since the last final. */
      chunkStart: 0,
      lastInterimAt: 0,
      chunkFinals: 0,
      /** End of the last finalised word (socket seconds), and whether its UtteranceEnd went out. */
      lastFinalWordEnd: Number.NaN,
      utteranceEndSent: true,
    };
    const liveWords = (): LiveWord[] => {
      if (live.words) return live.words;
      const u = current();
      if (!u) return [];
      const base = sec(segStartBytes);
      const texts = u.text.split(/\s+/).filter(Boolean);
      live.words = texts.map((w, i) => {
        const t = u.timing?.[i];
        const start = t ? base + t[0] : base + this.leadInSec + i * this.wordSec;
        const end = t ? base + t[1] : start + this.wordSec;
        return { word: bare(w), punctuated: w, start, end, confidence: u.confidence ?? 0.95, ...(u.language ? { language: u.language } : {}) };
      });
      return live.words;
    };
    const liveResults = (kind: 'interim' | 'chunk' | 'endpoint' | 'finalize', ws2: LiveWord[], endSec: number) => {
      const conf = ws2.length ? ws2.reduce((s, w) => s + w.confidence, 0) / ws2.length : 0;
      return {
        type: 'Results',
        channel_index: [0, 1],
        duration: round(endSec - live.chunkStart),
        start: round(live.chunkStart),
        is_final: kind !== 'interim',
        speech_final: kind === 'endpoint' || kind === 'finalize',
        from_finalize: kind === 'finalize',
        channel: {
          alternatives: [
            {
              transcript: ws2.map((w) => (punctuated ? w.punctuated : w.word)).join(' '),
              confidence: round(conf),
              words: ws2.map((w) => ({
                word: w.word,
                start: round(w.start),
                end: round(w.end),
                confidence: w.confidence,
                ...(punctuated ? { punctuated_word: w.punctuated } : {}),
                ...wordLang(w.language),
              })),
              ...named(ws2[0]?.language, ws2.length),
            },
          ],
        },
        metadata: { request_id: requestId, model_info: { name: query.model, version: 'double', arch: 'double' }, model_uuid: 'double' },
      };
    };
    /**
     * Fail the socket mid-segment (misbehave.dropAfterFirstFinal), right after the first chunk final was
     * written: nothing more is sent or heard on it. A terminate waits for that final to leave (ws.send's
     * callback) so the client surely has it before the TCP connection is destroyed.
     */
    const dropAfter = (d: NonNullable<Misbehaviour['dropAfterFirstFinal']>) => {
      const code = d.code ?? 1011;
      const terminate = d.terminate === true || code === 1006;
      const stop = () => {
        if (rec.closed) return false;
        this.midSegmentDrops++;
        if (current()) this.script.shift();
        live.words = null;
        return true;
      };
      if (!terminate) return { after: () => stop() && serverClose(code, d.reason ?? 'mid-segment drop') };
      return {
        after: () => {
          if (!stop()) return;
          rec.closed = { by: 'server', code: 1006, reason: '' };
          discardOutbox();
        },
        afterFlushed: () => ws.terminate(),
      };
    };
    const liveFinal = (n: number, kind: 'chunk' | 'endpoint', now: number) => {
      const all = liveWords();
      const fin = all.slice(live.finalised, live.finalised + n);
      const next = all[live.finalised + n];
      // The chunk ends where the audio is, or where the next word begins if it is under way.
      const cut = Math.max(fin[fin.length - 1]!.end, next && next.start < now ? next.start : now);
      let drop: { after: () => void; afterFlushed?: () => void } | undefined;
      const d = this.misbehave.dropAfterFirstFinal;
      if (d && live.chunkFinals === 0 && (this.dropsFired.get(d) ?? 0) < (d.times ?? 1)) {
        this.dropsFired.set(d, (this.dropsFired.get(d) ?? 0) + 1);
        drop = dropAfter(d);
      }
      send(liveResults(kind, fin, cut), drop?.after, drop?.afterFlushed);
      live.finalised += n;
      live.chunkFinals++;
      live.chunkStart = cut;
      live.lastInterimAt = now;
      live.lastFinalWordEnd = fin[fin.length - 1]!.end;
      live.utteranceEndSent = false;
    };
    /** UtteranceEnd once the audio holds utterance_end_ms with no word after the last finalised one. */
    const liveUtteranceEnd = (now: number) => {
      if (!utteranceEnd || live.utteranceEndSent || !Number.isFinite(live.lastFinalWordEnd) || !Number.isFinite(utteranceEndSec)) return;
      const gapEnd = live.lastFinalWordEnd + utteranceEndSec;
      if (now + 1e-9 < gapEnd) return;
      const next = live.words?.[live.finalised];
      if (next && next.start < gapEnd) return;
      live.utteranceEndSent = true;
      send({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: round(live.lastFinalWordEnd) });
    };
    const liveAudio = () => {
      const now = sec(rec.audioBytes);
      const all = liveWords();
      if (vadEvents && !spoke && all.length > 0 && now >= all[0]!.start) {
        spoke = true;
        send({ type: 'SpeechStarted', channel: [0], timestamp: round(all[0]!.start) });
      }
      const pending = all.slice(live.finalised);
      let heard = 0;
      while (heard < pending.length && pending[heard]!.end <= now + 1e-9) heard++;
      if (heard > 0) {
        const next = pending[heard];
        const pause = (next ? Math.min(next.start, now) : now) - pending[heard - 1]!.end;
        if (this.honourEndpointing && Number.isFinite(endpointingSec) && pause + 1e-9 >= endpointingSec) liveFinal(heard, 'endpoint', now);
        else if (heard >= this.chunkFinalAfterWords) liveFinal(Math.max(1, Math.floor(this.chunkFinalAfterWords)), 'chunk', now);
        else if (now - live.chunkStart + 1e-9 >= this.chunkFinalAfterSec) liveFinal(heard, 'chunk', now);
        else if (interim && now - live.lastInterimAt + 1e-9 >= this.interimEverySec) {
          live.lastInterimAt = now;
          send(liveResults('interim', pending.slice(0, heard), now));
        }
      }
      liveUtteranceEnd(now);
    };
    const liveFinalize = () => {
      const now = sec(rec.audioBytes);
      const all = liveWords();
      const rest = all.slice(live.finalised);
      // Words the audio never reached are squeezed, in order, into the audio that did arrive.
      const late = rest.findIndex((w) => w.end > now + 1e-9);
      if (late >= 0) {
        const from = Math.min(now, late > 0 ? rest[late - 1]!.end : Math.max(live.chunkStart, Math.min(rest[late]!.start, now)));
        const n = rest.length - late;
        const step = (now - from) / n;
        rest.slice(late).forEach((w, i) => {
          w.start = from + i * step;
          w.end = from + (i + 1) * step;
        });
      }
      send(liveResults('finalize', rest, now));
      live.finalised = all.length;
      if (rest.length > 0) {
        live.lastFinalWordEnd = rest[rest.length - 1]!.end;
        live.utteranceEndSent = false;
      }
      if (current()) this.script.shift();
      // The next segment starts here, on the same socket timeline.
      live.words = null;
      live.finalised = 0;
      live.chunkStart = now;
      live.lastInterimAt = now;
      live.chunkFinals = 0;
      liveUtteranceEnd(now);
    };

    let heard: Buffer[] = [];
    ws.on('message', (data, isBinary) => {
      if (rec.closed) return;
      if (isBinary) {
        const bytes = Buffer.isBuffer(data) ? data.length : Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as ArrayBuffer).byteLength;
        rec.audioBytes += bytes;
        if (this.hear) heard.push(Buffer.isBuffer(data) ? Buffer.from(data) : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
        armIdle();
        if (this.misbehave.closeOnAudio) return serverClose(this.misbehave.closeOnAudio.code, this.misbehave.closeOnAudio.reason);
        if (this.misbehave.stall) return;
        if (this.cadence === 'live') return liveAudio();
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
          if (this.hear) {
            const buf = Buffer.concat(heard);
            heard = [];
            const said = this.hear(new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length - (buf.length % 2))));
            this.script = said ? [said] : [];
          }
          if (this.cadence === 'live') liveFinalize();
          else {
            const all = words(1000, sec(segStartBytes), sec(rec.audioBytes));
            send(results(true, true, all));
            if (utteranceEnd && all.length > 0) send({ type: 'UtteranceEnd', channel: [0, 1], last_word_end: all[all.length - 1]!.end });
            if (current()) this.script.shift();
          }
          segStartBytes = rec.audioBytes;
          lastInterimAt = 0;
          spoke = false;
          return;
        }
        case 'CloseStream':
          rec.closeStreams++;
          // After any replies still held back: Metadata, then close 1000.
          if (ws.readyState !== ws.OPEN) return serverClose(1000, '');
          send(
            {
              type: 'Metadata',
              transaction_key: 'deprecated',
              request_id: requestId,
              sha256: '0'.repeat(64),
              created: new Date().toISOString(),
              duration: round(sec(rec.audioBytes)),
              channels: 1,
            },
            () => serverClose(1000, ''),
          );
          return;
        default:
          rec.badControl.push(JSON.stringify(msg).slice(0, 80));
      }
    });
    ws.on('close', (code, reason) => {
      if (idle) clearTimeout(idle);
      discardOutbox();
      this.sockets.delete(ws);
      if (!rec.closed) rec.closed = { by: 'client', code, reason: reason.toString() };
    });
    ws.on('error', () => {});
  }
}

function bare(w: string): string {
  return w.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
