import type { Socket } from 'node:net';
import { sleep, WyomingPeer, writePeerEvent, type PeerConnection, type PeerEvent } from './wyoming-peer.js';
import { concatPcm } from '../../src/audio/pcm.js';

/**
 * A voice server as rhasspy/wyoming-piper serves one (`wyoming_piper/handler.py`,
 * `PiperEventHandler`), on rhasspy/wyoming's framing (wyoming-peer.ts):
 *
 * - `describe` → its `info` (handle_event, Describe).
 * - `synthesize{text, voice{name}}` outside a stream: the text is cut into sentences
 *   (SentenceBoundaryDetector); each sentence is synthesized whole, then sent: `audio-start{rate,
 *   width, channels}` before the first only, its audio as `audio-chunk`s of `samples_per_chunk`
 *   samples (`--samples-per-chunk`, 1024 by default in __main__.py; the last one shorter), each
 *   carrying rate/width/channels and `timestamp: null` (audio.py AudioChunk.event), and `audio-stop`
 *   after the last sentence (_handle_synthesize's send_start/send_stop).
 * - It returns True: **the connection stays open** after audio-stop until the client hangs up. Only
 *   the client's close (or an error) ends it.
 * - An exception writes `error{text, code: <exception class>}` and raises: the handler's run ends and
 *   the connection closes (server.py). A voice name it has not got is one (`VoiceNotFoundError`); the
 *   `language` of `voice` it does not read (only `name` and `speaker`).
 *
 * How the chunks are paced (`pace`): handler.py writes a sentence's chunks back to back, each write
 * awaiting drain ('burst'). In the field they arrive a little faster than real time with gaps — a
 * Piper on a slow box or behind a relay (`{ speed, gapEvery, gapMs }`: each chunk after its own
 * duration / speed, and gapMs more after every gapEvery chunks).
 *
 * What other servers and relays do that Piper does not, on demand: `relayChunkBytes` (a relaying proxy
 * re-cuts the audio bytes into chunks of that size: with an odd size a sample is split across two
 * audio-chunks, which the protocol allows — audio.py `AudioChunk.samples` is len // (width·channels)),
 * `width: 4` (a server sending 32-bit samples), and per-request faults.
 */
export type PiperPace = 'burst' | { speed: number; gapEvery: number; gapMs: number };

export type PiperFault =
  | { kind: 'none' }
  /** This answer in 32-bit samples (width 4), as a server other than Piper may send. */
  | { kind: 'wide' }
  /** Never answers the synthesize (a voice still loading, a hung model): the connection stays open. */
  | { kind: 'silent' }
  /** Sends this many chunks, then nothing more, the connection left open (a stuck synthesis). */
  | { kind: 'stall'; afterChunks: number }
  /** The handler raises (an unknown voice): error{text, code}, then the connection closes. */
  | { kind: 'error'; text: string; code?: string };

export interface PiperOptions {
  voices?: string[];
  rate?: number;
  samplesPerChunk?: number;
  pace?: PiperPace;
  /** Ms of synthesis before each sentence's audio is sent (the sentence is synthesized whole first). */
  synthMs?: number;
  relayChunkBytes?: number;
  width?: 2 | 4;
}

export interface PiperRequest {
  conn: PeerConnection;
  text: string;
  voice: string | null;
  /** audio-chunks written, and whether audio-stop went out. */
  chunks: number;
  completed: boolean;
  /** performance.now() of the first audio-chunk. */
  firstChunkAt: number | null;
}

export class PiperPeer extends WyomingPeer {
  readonly requests: PiperRequest[] = [];
  /** Faults for the next synthesize requests, in order. */
  faults: PiperFault[] = [];
  readonly o: Required<PiperOptions>;

  private constructor(o: PiperOptions) {
    super();
    this.o = {
      voices: ['en_US-lessac-medium', 'en_GB-alan-low'],
      rate: 22050,
      samplesPerChunk: 1024,
      pace: 'burst',
      synthMs: 0,
      relayChunkBytes: 0,
      width: 2,
      ...o,
    };
  }

  static start(o: PiperOptions = {}): Promise<PiperPeer> {
    return new PiperPeer(o).listen();
  }

  /** The audio this voice says for `text` (16-bit, at its rate): every sentence's, back to back. */
  audioFor(text: string): Int16Array {
    const parts = sentences(text).map((s) => voiceOf(s, this.o.rate));
    return concatPcm(parts);
  }

  info(): Record<string, unknown> {
    const attribution = { name: 'rhasspy', url: 'https://github.com/rhasspy/piper' };
    return {
      tts: [
        {
          name: 'piper',
          description: 'A fast, local, neural text to speech engine',
          attribution,
          installed: true,
          version: '2.1.0',
          supports_synthesize_streaming: true,
          voices: this.o.voices.map((name) => ({
            name,
            description: name,
            attribution,
            installed: true,
            version: null,
            languages: [name.slice(0, 5)],
            speakers: null,
          })),
        },
      ],
    };
  }

  protected async handle(e: PeerEvent, socket: Socket, conn: PeerConnection): Promise<boolean> {
    if (e.type === 'describe') {
      await writePeerEvent(socket, 'info', this.info());
      return true;
    }
    // synthesize-start/-chunk/-stop: hark does not stream text; everything else is ignored (returns True).
    if (e.type !== 'synthesize') return true;
    const voice = (e.data.voice as { name?: unknown } | undefined)?.name;
    const req: PiperRequest = {
      conn,
      text: String(e.data.text ?? ''),
      voice: typeof voice === 'string' ? voice : null,
      chunks: 0,
      completed: false,
      firstChunkAt: null,
    };
    this.requests.push(req);
    const fault = this.faults.shift();
    // A voice it does not have: handler.py's ensure_voice_exists → find_voice raises
    // VoiceNotFoundError(name) (download.py), which handle_event writes as error{text, code} and re-raises.
    if (req.voice !== null && !this.o.voices.includes(req.voice)) {
      await writePeerEvent(socket, 'error', { text: req.voice, code: 'VoiceNotFoundError' });
      throw new Error(`VoiceNotFoundError: ${req.voice}`);
    }
    if (fault?.kind === 'error') {
      await writePeerEvent(socket, 'error', { text: fault.text, code: fault.code ?? 'ValueError' });
      throw new Error(fault.text);
    }
    if (fault?.kind === 'silent') return true;
    await this.speak(socket, req, fault?.kind === 'stall' ? fault.afterChunks : Infinity, fault?.kind === 'wide' ? 4 : this.o.width);
    return true;
  }

  private async speak(socket: Socket, req: PiperRequest, stallAfter: number, width: 2 | 4): Promise<void> {
    const { rate, samplesPerChunk, pace, synthMs, relayChunkBytes } = this.o;
    const fmt = { rate, width, channels: 1 };
    const said = sentences(req.text);
    for (const [i, sentence] of said.entries()) {
      if (synthMs > 0) await sleep(synthMs);
      if (i === 0) await writePeerEvent(socket, 'audio-start', { ...fmt, timestamp: null });
      const bytes = asBytes(voiceOf(sentence, rate), width);
      const step = relayChunkBytes > 0 ? relayChunkBytes : samplesPerChunk * width;
      for (let at = 0; at < bytes.length; at += step) {
        if (socket.destroyed || socket.writableEnded) return;
        if (req.chunks >= stallAfter) return;
        const payload = bytes.subarray(at, Math.min(bytes.length, at + step));
        await writePeerEvent(socket, 'audio-chunk', { ...fmt, timestamp: null }, payload);
        req.firstChunkAt ??= performance.now();
        req.chunks++;
        if (pace !== 'burst') {
          const seconds = payload.length / width / rate;
          await sleep((seconds * 1000) / pace.speed + (req.chunks % pace.gapEvery === 0 ? pace.gapMs : 0));
        } else await new Promise((r) => setImmediate(r)); // Piper runs in its own process: hark's side of this one must get to read meanwhile.
      }
    }
    if (socket.destroyed || socket.writableEnded) return;
    await writePeerEvent(socket, 'audio-stop', { timestamp: null });
    req.completed = true;
  }
}

/** SentenceBoundaryDetector, roughly: a sentence ends at . ! or ? followed by a space. */
export function sentences(text: string): string[] {
  const s = text
    .split(/(?<=[.!?])\s+/)
    .map((x) => x.trim())
    .filter(Boolean);
  return s.length ? s : [text];
}

/**
 * The voice: 70 ms of sound per character (at least 250 ms), never a zero sample, so any silence in
 * what hark plays is hark's. A 220-440 Hz sweep (not a steady tone) so a piece played twice or out of
 * order does not line up with the original.
 */
export function voiceOf(text: string, rate: number): Int16Array {
  const n = Math.max(Math.round(rate * 0.25), Math.round(rate * 0.07 * text.length));
  const pcm = new Int16Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    phase += (2 * Math.PI * (220 + (220 * i) / n)) / rate;
    pcm[i] = Math.round(6000 * Math.sin(phase)) + (Math.sin(phase) >= 0 ? 1500 : -1500);
  }
  return pcm;
}

function asBytes(pcm: Int16Array, width: 2 | 4): Buffer {
  if (width === 2) return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const out = Buffer.alloc(pcm.length * 4);
  for (let i = 0; i < pcm.length; i++) out.writeInt32LE(pcm[i]! * 65536, i * 4);
  return out;
}
