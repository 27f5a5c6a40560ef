/**
 * The Wyoming protocol's framing (rhasspy/wyoming), as a pure parser and an encoder.
 *
 * An event on the wire is one JSON header line — `{"type": ..., "data"?: {...}, "data_length"?: n,
 * "payload_length"?: n, "version"?: ...}` ending in "\n" — then `data_length` bytes of JSON that
 * are merged over the header's `data`, then `payload_length` bytes of payload (audio). Readers must
 * accept data inline (newer servers) and as separate bytes (older ones): both forms parse the same.
 *
 * No npm library speaks Wyoming, hence this module. Memory is bounded by construction: a header line,
 * a data block and a payload each have a cap, checked before anything is buffered, so a server that
 * sends garbage or announces a 4 GB payload costs an error, not the Pi's RAM.
 *
 * Pure: no I/O, no clock.
 */

/** Every event type the Wyoming protocol defines (wyoming 1.x): anything else on the wire is a fault. */
export const WYOMING_EVENT_TYPES: ReadonlySet<string> = new Set([
  // info
  'describe',
  'info',
  // audio
  'audio-start',
  'audio-chunk',
  'audio-stop',
  // speech to text
  'transcribe',
  'transcript',
  'transcript-start',
  'transcript-chunk',
  'transcript-stop',
  // text to speech
  'synthesize',
  'synthesize-start',
  'synthesize-chunk',
  'synthesize-stop',
  'synthesize-stopped',
  // wake, vad, intent, handle, satellite, timers: other services a server may also be
  'detect',
  'detection',
  'not-detected',
  'voice-started',
  'voice-stopped',
  'recognize',
  'intent',
  'not-recognized',
  'handled',
  'not-handled',
  'handled-start',
  'handled-chunk',
  'handled-stop',
  'run-pipeline',
  'run-satellite',
  'pause-satellite',
  'satellite-connected',
  'satellite-disconnected',
  'streaming-started',
  'streaming-stopped',
  'played',
  'timer-started',
  'timer-updated',
  'timer-cancelled',
  'timer-finished',
  'ping',
  'pong',
  'error',
]);

export interface WyomingEvent {
  type: string;
  data: Record<string, unknown>;
  payload: Buffer | null;
}

export interface FrameLimits {
  /** Longest header line, newline excluded. */
  maxHeaderBytes: number;
  /** Largest separate data block (data_length). */
  maxDataBytes: number;
  /** Largest payload (payload_length): an audio chunk. */
  maxPayloadBytes: number;
}

/** Generous for real traffic (an info with a hundred voices is ~50 kB; Piper sends 2 kB chunks), small for a Pi. */
export const DEFAULT_LIMITS: FrameLimits = { maxHeaderBytes: 64 * 1024, maxDataBytes: 1024 * 1024, maxPayloadBytes: 4 * 1024 * 1024 };

/** What was wrong with the bytes, in words; the client adds which server sent them. */
export class WyomingFrameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WyomingFrameError';
  }
}

type State =
  | { at: 'header' }
  | { at: 'data'; type: string; data: Record<string, unknown>; dataLength: number; payloadLength: number }
  | { at: 'payload'; type: string; data: Record<string, unknown>; payloadLength: number };

/**
 * Incremental parser: feed it bytes as they come off the socket, in any split, and it returns the
 * events completed so far. After an error it stays broken (the stream has lost its framing; the
 * only way on is a new connection).
 */
export class WyomingParser {
  private readonly limits: FrameLimits;
  private chunks: Buffer[] = [];
  private buffered = 0;
  private state: State = { at: 'header' };
  private failed: WyomingFrameError | null = null;

  constructor(limits: Partial<FrameLimits> = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Bytes held waiting for the rest of an event (never more than the caps plus one read). */
  get pending(): number {
    return this.buffered;
  }

  /** True between events: a connection that ends here ended cleanly. */
  get atBoundary(): boolean {
    return this.state.at === 'header' && this.buffered === 0;
  }

  /** Why the stream broke, once it has. */
  get error(): WyomingFrameError | null {
    return this.failed;
  }

  /**
   * The events completed by these bytes. Bad bytes throw — unless good events came before them in
   * the same read: those are returned (a streamed transcript-chunk is still heard) and `error` is
   * set, so the caller must check it; the next feed throws.
   */
  feed(bytes: Uint8Array): WyomingEvent[] {
    if (this.failed) throw this.failed;
    const out: WyomingEvent[] = [];
    try {
      this.parse(bytes, out);
      return out;
    } catch (err) {
      this.failed = err instanceof WyomingFrameError ? err : new WyomingFrameError(String(err));
      this.chunks = [];
      this.buffered = 0;
      if (out.length > 0) return out;
      throw this.failed;
    }
  }

  private parse(bytes: Uint8Array, out: WyomingEvent[]): void {
    if (bytes.length > 0) {
      this.chunks.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      this.buffered += bytes.length;
    }
    for (;;) {
      const s = this.state;
      if (s.at === 'header') {
        const nl = this.indexOfNewline();
        if (nl < 0) {
          if (this.buffered > this.limits.maxHeaderBytes)
            throw new WyomingFrameError(`header line longer than ${this.limits.maxHeaderBytes} bytes without an end (not a Wyoming server?)`);
          return;
        }
        if (nl > this.limits.maxHeaderBytes) throw new WyomingFrameError(`header line of ${nl} bytes is over the ${this.limits.maxHeaderBytes}-byte limit`);
        const line = this.take(nl + 1).subarray(0, nl);
        const h = parseHeader(line, this.limits);
        if (h.dataLength > 0) this.state = { at: 'data', type: h.type, data: h.data, dataLength: h.dataLength, payloadLength: h.payloadLength };
        else if (h.payloadLength > 0) this.state = { at: 'payload', type: h.type, data: h.data, payloadLength: h.payloadLength };
        else out.push({ type: h.type, data: h.data, payload: null });
      } else if (s.at === 'data') {
        if (this.buffered < s.dataLength) return;
        const extra = parseJsonObject(this.take(s.dataLength), `data of "${s.type}"`);
        const data = { ...s.data, ...extra };
        if (s.payloadLength > 0) this.state = { at: 'payload', type: s.type, data, payloadLength: s.payloadLength };
        else {
          this.state = { at: 'header' };
          out.push({ type: s.type, data, payload: null });
        }
      } else {
        if (this.buffered < s.payloadLength) return;
        const payload = Buffer.from(this.take(s.payloadLength)); // a copy: the socket's buffers are not ours to keep
        this.state = { at: 'header' };
        out.push({ type: s.type, data: s.data, payload });
      }
    }
  }

  private indexOfNewline(): number {
    let offset = 0;
    for (const c of this.chunks) {
      const i = c.indexOf(10);
      if (i >= 0) return offset + i;
      offset += c.length;
      // No newline within the cap: stop looking, the caller reports it.
      if (offset > this.limits.maxHeaderBytes) return -1;
    }
    return -1;
  }

  /** Remove and return the first n buffered bytes. */
  private take(n: number): Buffer {
    const first = this.chunks[0];
    let out: Buffer;
    if (first && first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
    } else {
      out = Buffer.allocUnsafe(n);
      let filled = 0;
      while (filled < n) {
        const c = this.chunks[0]!;
        const want = Math.min(n - filled, c.length);
        c.copy(out, filled, 0, want);
        filled += want;
        if (want === c.length) this.chunks.shift();
        else this.chunks[0] = c.subarray(want);
      }
    }
    this.buffered -= n;
    return out;
  }
}

interface Header {
  type: string;
  data: Record<string, unknown>;
  dataLength: number;
  payloadLength: number;
}

function parseHeader(line: Buffer, limits: FrameLimits): Header {
  const h = parseJsonObject(line, 'header line');
  const type = h.type;
  if (typeof type !== 'string' || type === '') throw new WyomingFrameError(`header without an event type: ${preview(line)}`);
  if (!WYOMING_EVENT_TYPES.has(type)) throw new WyomingFrameError(`unknown event type "${clip(type)}"`);
  const data = h.data === undefined || h.data === null ? {} : h.data;
  if (typeof data !== 'object' || Array.isArray(data)) throw new WyomingFrameError(`"${type}" has data that is not an object`);
  const dataLength = length(h.data_length, 'data_length', type, limits.maxDataBytes);
  const payloadLength = length(h.payload_length, 'payload_length', type, limits.maxPayloadBytes);
  return { type, data: data as Record<string, unknown>, dataLength, payloadLength };
}

function length(v: unknown, name: string, type: string, max: number): number {
  if (v === undefined || v === null) return 0;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new WyomingFrameError(`"${type}" has ${name} ${clip(JSON.stringify(v))}, not a byte count`);
  if (v > max) throw new WyomingFrameError(`"${type}" announces ${name} ${v}, over the ${max}-byte limit`);
  return v;
}

function parseJsonObject(bytes: Buffer, what: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new WyomingFrameError(`${what} is not JSON: ${preview(bytes)}`);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new WyomingFrameError(`${what} is not a JSON object: ${preview(bytes)}`);
  return v as Record<string, unknown>;
}

function preview(bytes: Buffer): string {
  const s = bytes
    .subarray(0, 60)
    .toString('utf8')
    .replace(/[^\x20-\x7e]/g, '?');
  return JSON.stringify(bytes.length > 60 ? `${s}...` : s);
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}...` : s;
}

/** The protocol version hark writes in its headers. */
export const WYOMING_VERSION = '1.5.2';

/**
 * One event as bytes. `separateData` writes data as a data block after the header (the older form,
 * which every reader accepts); otherwise inline in the header.
 */
export function encodeEvent(
  type: string,
  data: Record<string, unknown> = {},
  payload: Uint8Array | null = null,
  opts: { separateData?: boolean } = {},
): Buffer {
  const header: Record<string, unknown> = { type, version: WYOMING_VERSION };
  let dataBytes: Buffer | null = null;
  const hasData = Object.keys(data).length > 0;
  if (hasData && opts.separateData) {
    dataBytes = Buffer.from(JSON.stringify(data), 'utf8');
    header.data_length = dataBytes.length;
  } else if (hasData) header.data = data;
  if (payload && payload.length > 0) header.payload_length = payload.length;
  const line = Buffer.from(JSON.stringify(header) + '\n', 'utf8');
  const parts: Uint8Array[] = [line];
  if (dataBytes) parts.push(dataBytes);
  if (payload && payload.length > 0) parts.push(payload);
  return parts.length === 1 ? line : Buffer.concat(parts);
}
