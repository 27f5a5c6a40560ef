import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Bus } from '../core/bus.js';
import { SystemClock, type Clock } from '../core/clock.js';
import { HarkError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/store.js';
import { cleanText } from '../stt/clean-text.js';
import { authorize, checkBind } from './auth.js';
import { readBody } from './body.js';
import { Metrics, type SttLoad } from './metrics.js';
import { validatePostedSegment } from './post-segment.js';
import { presentSegment } from './present.js';
import { parseSegmentQuery } from './segment-query.js';
import { SseHub } from './sse.js';
import { healthReport } from './health.js';
import { bridgeToPage } from './live.js';
import { refuse, sendJson, sendWav, withoutToken } from './respond.js';
import type { KitchenView, SpeechServicesView } from './views.js';
import { PAGE_CSP, readAsset } from './static.js';
import { pickingRoute, type PickingRoutes } from './picking-routes.js';

export const DEFAULT_PORT = 8080;
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** POST bodies read at once; more get a 503 with Retry-After before anything is read. */
export const MAX_CONCURRENT_UPLOADS = 2;

export interface DebugServerOptions {
  store: Store;
  /** Live updates (SSE) and metrics come from here; without one the page still browses the file. */
  bus?: Bus;
  host?: string;
  /** 0 picks a free port (tests). */
  port?: number;
  token?: string;
  logger?: Logger;
  clock?: Clock;
  wallNow?: () => number;
  heartbeatMs?: number;
  maxBodyBytes?: number;
  maxConcurrentUploads?: number;
  maxSseClients?: number;
  /** Shown on the page and in /healthz: the daemon, or `hark viewer` serving a file. */
  mode?: 'daemon' | 'viewer';
  /**
   * `POST /api/button` with {"state":"down"|"up"}: the simulated button (no GPIO on this machine).
   * Throws a TypeError naming what was wrong with the body; absent → 404.
   */
  button?: (body: unknown) => void;
  /** The kitchen now: running timers and the lists (the daemon's command core); absent in `hark viewer`. */
  kitchen?: () => KitchenView | null;
  /** The line in front of speech-to-text (the daemon's segment path); absent in `hark viewer`. */
  sttLoad?: () => SttLoad | null;
  /** The speech services in use: the speech-to-text engines in order and the voice (the daemon's); absent in `hark viewer`. */
  speech?: () => SpeechServicesView | null;
  /** Voice picking: assignments in, the operator's day out; absent or null when picking is off. */
  picking?: () => PickingRoutes | null;
}

/**
 * The debug viewer's HTTP server (node:http, no framework): the page, the segment API, the event
 * stream, health and metrics. Every request is answered on its own; a bad one gets a JSON error
 * naming what was wrong and nothing else is disturbed.
 */
export class DebugServer {
  readonly metrics: Metrics;
  private readonly opts: DebugServerOptions;
  private readonly host: string;
  private readonly server: Server;
  private readonly sse: SseHub;
  private readonly wallNow: () => number;
  private readonly startedAt: number;
  private readonly unsubscribe: (() => void)[] = [];
  private address: AddressInfo | null = null;
  private uploads = 0;

  constructor(opts: DebugServerOptions) {
    this.opts = opts;
    this.host = opts.host ?? '127.0.0.1';
    checkBind(this.host, opts.token);
    this.wallNow = opts.wallNow ?? Date.now;
    this.startedAt = this.wallNow();
    this.metrics = new Metrics(this.wallNow);
    this.sse = new SseHub({ clock: opts.clock ?? new SystemClock(), heartbeatMs: opts.heartbeatMs ?? 15_000, maxClients: opts.maxSseClients ?? 32 });
    this.server = createServer((req, res) => void this.handle(req, res));
    this.server.requestTimeout = 60_000;
    this.server.headersTimeout = 20_000;
    this.server.on('clientError', (_err, socket) => {
      if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
    if (opts.bus) this.bridge(opts.bus);
  }

  /** Start listening; resolves with the base URL. A busy port is a HarkError that says what to do. */
  listen(): Promise<string> {
    const port = this.opts.port ?? DEFAULT_PORT;
    return new Promise((resolve, reject) => {
      const onError = (err: NodeJS.ErrnoException) => {
        const why =
          err.code === 'EADDRINUSE'
            ? `port ${port} on ${this.host} is already in use (is hark already running? pick another port)`
            : err.code === 'EADDRNOTAVAIL'
              ? `${this.host} is not an address of this machine`
              : err.code === 'EACCES'
                ? `not allowed to listen on port ${port} (ports below 1024 need root)`
                : errorMessage(err);
        reject(new HarkError(`debug server: ${why}`, { cause: err }));
      };
      this.server.once('error', onError);
      this.server.listen(port, this.host, () => {
        this.server.off('error', onError);
        this.address = this.server.address() as AddressInfo;
        this.opts.logger?.info('debug server listening', { url: this.url, auth: this.opts.token ? 'token' : 'loopback only' });
        resolve(this.url);
      });
    });
  }

  get url(): string {
    if (!this.address) return '';
    const host = this.address.family === 'IPv6' ? `[${this.address.address}]` : this.address.address;
    return `http://${host}:${this.address.port}/`;
  }

  get sseClients(): number {
    return this.sse.size;
  }

  async close(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    this.sse.closeAll();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  // ---- routing ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Referrer-Policy', 'no-referrer');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const path = url.pathname;
      const method = req.method ?? 'GET';

      if (path === '/healthz') {
        if (this.only(method, ['GET'], res)) this.healthz(res);
        return;
      }

      const auth = authorize(url, req.headers, this.opts.token);
      if (!auth.ok) return sendJson(res, auth.status, { error: auth.message });
      if (auth.setCookie) res.setHeader('Set-Cookie', auth.setCookie);
      // The token leaves the address bar (and history, and Referer) wherever it was given: any GET is
      // sent to the same URL without it, now that the cookie carries it.
      if (auth.redirect && (method === 'GET' || method === 'HEAD')) {
        req.resume();
        res.writeHead(303, { Location: auth.redirect }).end();
        return;
      }

      const segment = /^\/api\/segments\/([^/]+)(?:\/(audio|raw)\.wav)?$/.exec(path);
      if (path === '/api/segments' && method === 'POST') return await this.postSegment(req, res);
      if (path === '/api/button') {
        if (this.only(method, ['POST'], res)) await this.postButton(req, res);
        return;
      }
      if (await pickingRoute(path, method, req, res, this.opts.picking?.() ?? null, (allowed) => this.only(method, allowed, res))) return;
      if (path === '/api/segments') {
        if (this.only(method, ['GET', 'POST'], res)) this.listSegments(url, res);
      } else if (segment) {
        if (this.only(method, ['GET'], res)) this.segment(segment[1]!, (segment[2] as 'audio' | 'raw' | undefined) ?? null, res);
      } else if (path === '/api/kitchen') {
        if (this.only(method, ['GET'], res)) sendJson(res, 200, this.opts.kitchen?.() ?? { timers: [], lists: [] });
      } else if (path === '/api/events') {
        if (this.only(method, ['GET'], res)) this.events(req, res);
      } else if (path === '/metrics') {
        if (this.only(method, ['GET'], res)) this.renderMetrics(res);
      } else if (path === '/' || path === '/index.html' || /^\/[a-z0-9-]+\.(js|css|svg)$/.test(path)) {
        if (this.only(method, ['GET'], res)) await this.asset(path.length > 1 ? path.slice(1) : 'index.html', res);
      } else {
        sendJson(res, 404, { error: `no such page: ${path.slice(0, 200)}` });
      }
    } catch (err) {
      this.opts.logger?.error('debug server request failed', { method: req.method, path: withoutToken(req.url), error: errorMessage(err) });
      if (!res.headersSent) sendJson(res, 500, { error: `internal error: ${errorMessage(err)}` });
      else res.destroy();
    }
  }

  /** 405 unless the method is allowed; returns whether to go on. */
  private only(method: string, allowed: string[], res: ServerResponse): boolean {
    if (allowed.includes(method)) return true;
    res.setHeader('Allow', allowed.join(', '));
    sendJson(res, 405, { error: `method ${method} is not allowed here; use ${allowed.join(' or ')}` });
    return false;
  }

  private async asset(name: string, res: ServerResponse): Promise<void> {
    const file = await readAsset(name);
    if (!file) return sendJson(res, 404, { error: `no such file: ${name}` });
    res.writeHead(200, {
      'Content-Type': file.type,
      'Content-Length': file.body.length,
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': PAGE_CSP,
      'X-Frame-Options': 'DENY',
    });
    res.end(file.body);
  }

  private listSegments(url: URL, res: ServerResponse): void {
    const q = parseSegmentQuery(url.searchParams);
    if (!q.ok) return sendJson(res, 400, { error: `${q.field}: ${q.message}`, field: q.field });
    const page = this.opts.store.listSegments(q.value);
    sendJson(res, 200, { segments: page.segments.map(presentSegment), nextBefore: page.nextBefore });
  }

  private segment(idText: string, track: 'audio' | 'raw' | null, res: ServerResponse): void {
    if (!/^\d{1,15}$/.test(idText))
      return sendJson(res, 400, { error: `id: must be a segment number (got ${JSON.stringify(idText.slice(0, 40))})`, field: 'id' });
    const id = Number(idText);
    if (track === null) {
      const view = this.opts.store.getSegment(id);
      return view ? sendJson(res, 200, presentSegment(view)) : sendJson(res, 404, { error: `no segment ${id} (it may have aged out of the log)` });
    }
    if (track === 'raw') return this.rawTrack(id, res);
    const audio = this.opts.store.getAudio(id);
    if (audio === undefined) return sendJson(res, 404, { error: `no segment ${id} (it may have aged out of the log)` });
    if (audio === null) {
      const why = this.opts.store.getSegment(id)?.audio === 'disk-full' ? 'the disk was full when it was logged' : 'audio storage was off';
      return sendJson(res, 404, { error: `segment ${id} has no audio: ${why}` });
    }
    sendWav(res, audio.pcm, audio.sampleRate, `hark-segment-${id}.wav`);
  }

  /** The raw microphone of a segment heard while hark played (what the canceller was given). */
  private rawTrack(id: number, res: ServerResponse): void {
    const raw = this.opts.store.getRawAudio(id);
    if (raw === undefined) return sendJson(res, 404, { error: `no segment ${id} (it may have aged out of the log)` });
    if ('missing' in raw) return sendJson(res, 404, { error: `segment ${id} has no raw microphone track: ${raw.missing}` });
    sendWav(res, raw.pcm, raw.sampleRate, `hark-segment-${id}-raw.wav`);
  }

  private async postButton(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const press = this.opts.button;
    if (!press) {
      req.resume();
      return sendJson(res, 404, { error: 'no simulated button here: the button is real GPIO (or this is `hark viewer`)' });
    }
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      req.resume();
      return sendJson(res, 415, { error: `Content-Type: must be application/json (got ${JSON.stringify(type || '(none)')})`, field: 'Content-Type' });
    }
    const body = await readBody(req, 1024);
    if (!body.ok) return sendJson(res, body.status, { error: body.message, field: '(body)' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch (err) {
      return sendJson(res, 400, { error: `(body): not valid JSON: ${errorMessage(err)}`, field: '(body)' });
    }
    try {
      press(parsed);
    } catch (err) {
      return sendJson(res, 400, { error: errorMessage(err), field: 'state' });
    }
    sendJson(res, 200, { ok: true });
  }

  private async postSegment(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json') {
      // Also keeps cross-site form posts out: a browser cannot send application/json cross-origin without a preflight we never answer.
      req.resume();
      return sendJson(res, 415, { error: `Content-Type: must be application/json (got ${JSON.stringify(type || '(none)')})`, field: 'Content-Type' });
    }
    const limit = this.opts.maxBodyBytes ?? MAX_BODY_BYTES;
    const declared = Number(req.headers['content-length'] ?? NaN);
    // Refused before a byte is read: a declared size over the limit, or too many uploads at once (each
    // body is held and parsed in memory, so 20 parallel 10 MB posts would take hundreds of MB).
    if (declared > limit) return refuse(res, 413, `request body is larger than the ${Math.round(limit / 1048576)} MB limit (Content-Length ${declared})`);
    if (this.uploads >= (this.opts.maxConcurrentUploads ?? MAX_CONCURRENT_UPLOADS)) {
      res.setHeader('Retry-After', '1');
      return refuse(res, 503, `too many uploads at once (at most ${this.opts.maxConcurrentUploads ?? MAX_CONCURRENT_UPLOADS}); try again`);
    }
    this.uploads++;
    let body: Awaited<ReturnType<typeof readBody>>;
    try {
      body = await readBody(req, limit);
    } finally {
      this.uploads--;
    }
    if (!body.ok) {
      if (body.status === 413) res.setHeader('Connection', 'close');
      return sendJson(res, body.status, { error: body.message, field: '(body)' });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.text);
    } catch (err) {
      return sendJson(res, 400, { error: `(body): not valid JSON: ${errorMessage(err)}`, field: '(body)' });
    }
    const checked = validatePostedSegment(parsed, this.wallNow());
    if (!checked.ok) return sendJson(res, 400, { error: `${checked.field}: ${checked.message}`, field: checked.field });
    const p = checked.value;
    const text = p.text ?? cleanText(p.transcript);
    const stored = this.opts.store.recordSegment({
      segment: { pcm: p.pcm, prerollSamples: p.prerollSamples, sampleRate: p.sampleRate, startedAt: p.startedAt, source: 'post' },
      transcripts: [{ engine: p.engine ?? 'external', rawText: p.transcript, text, droppedReason: p.droppedReason ?? (text === '' ? 'empty' : null) }],
    });
    if (!stored) {
      const last = this.opts.store.health().lastWriteError;
      return sendJson(res, 503, { error: `could not store the segment: ${last?.error ?? 'store write failed'}` });
    }
    res.setHeader('Location', `/api/segments/${stored.id}`);
    sendJson(res, 201, { id: stored.id, audio: stored.audio, url: `/api/segments/${stored.id}`, ...(p.ignored.length ? { ignored: p.ignored } : {}) });
  }

  private events(req: IncomingMessage, res: ServerResponse): void {
    if (!this.sse.add(req, res)) sendJson(res, 503, { error: 'too many viewer pages are connected; close one and reload' });
  }

  private healthz(res: ServerResponse): void {
    const { status, body } = healthReport({
      store: this.opts.store.health(),
      metrics: this.metrics,
      load: this.opts.sttLoad?.() ?? null,
      mode: this.opts.mode ?? 'daemon',
      uptimeS: Math.round((this.wallNow() - this.startedAt) / 1000),
      timers: this.opts.kitchen?.()?.timers ?? [],
      speech: this.opts.speech?.() ?? null,
      sseClients: this.sse.size,
    });
    // Whether the page should ask for the operator's day (GET /api/picking is 404 without picking).
    sendJson(res, status, { ...body, picking: (this.opts.picking?.() ?? null) !== null });
  }

  private renderMetrics(res: ServerResponse): void {
    const body = this.metrics.render(this.opts.store.health(), this.sse.size, this.opts.sttLoad?.() ?? null);
    res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(body);
  }

  /** Bus → metrics and the event stream. */
  private bridge(bus: Bus): void {
    this.unsubscribe.push(this.metrics.attach(bus));
    this.unsubscribe.push(bridgeToPage(bus, { sse: this.sse, metrics: this.metrics, store: this.opts.store, kitchen: this.opts.kitchen }));
  }
}
