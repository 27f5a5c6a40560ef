import type { Socket } from 'node:net';
import { WyomingPeer, writePeerEvent, type PeerConnection, type PeerEvent } from './wyoming-peer.js';

/**
 * A speech-to-text server as rhasspy/wyoming-faster-whisper serves one
 * (`wyoming_faster_whisper/dispatch_handler.py`, `DispatchEventHandler.handle_event`), on
 * rhasspy/wyoming's framing (wyoming-peer.ts):
 *
 * - `describe` → its `info`; `transcribe{language?, name?}` sets the language (returns True).
 * - `audio-chunk`s are converted to 16 kHz/16-bit/mono (AudioChunkConverter) and kept; nothing is
 *   answered while audio comes.
 * - `audio-stop`: with no audio before it, `transcript{text: ""}`; otherwise the audio is transcribed
 *   (in a thread: `transcribeMs`, or until the test releases it) and `transcript{text}` is written.
 *   Either way handle_event returns False: **the connection closes after each transcript**.
 * - Each connection is handled on its own (server.py: a task per connection), so a second segment's
 *   connection is transcribed while the first one's is still at work.
 * - Anything else is ignored.
 */
/** Per connection, in order: answer as usual, or the server dies (restarted, crashed) after this many of its audio-chunks. */
export type WhisperFault = { kind: 'none' } | { kind: 'die'; afterChunks: number };

export interface WhisperOptions {
  models?: string[];
  /** Ms each transcription takes. */
  transcribeMs?: number;
}

export interface WhisperRequest {
  conn: PeerConnection;
  language: string | null;
  audio: Buffer;
  chunks: number;
  fault: WhisperFault;
  /** performance.now() when its audio-stop came, and when its transcript went out (null: never). */
  audioStopAt: number | null;
  transcriptAt: number | null;
  text: string | null;
}

export class WhisperPeer extends WyomingPeer {
  readonly requests: WhisperRequest[] = [];
  /** Transcripts in the order the audio-stops come (then `defaultText`). */
  script: string[] = [];
  defaultText = 'hello';
  /** Faults for the next connections that send audio, in order. */
  faults: WhisperFault[] = [];
  readonly o: Required<WhisperOptions>;
  private holding = false;
  private readonly held = new Map<WhisperRequest, () => void>();

  private constructor(o: WhisperOptions) {
    super();
    this.o = { models: ['small-int8'], transcribeMs: 0, ...o };
  }

  static start(o: WhisperOptions = {}): Promise<WhisperPeer> {
    return new WhisperPeer(o).listen();
  }

  /** From now on each transcription waits until release() (a server busy for as long as the test says). */
  hold(): void {
    this.holding = true;
  }

  /** Let the held transcriptions finish — those `which` picks, or all of them and stop holding. */
  release(which?: (r: WhisperRequest) => boolean): void {
    if (!which) this.holding = false;
    for (const [r, go] of [...this.held]) {
      if (which && !which(r)) continue;
      this.held.delete(r);
      go();
    }
  }

  info(): Record<string, unknown> {
    const attribution = { name: 'Systran', url: 'https://github.com/SYSTRAN/faster-whisper' };
    return {
      asr: [
        {
          name: 'faster-whisper',
          description: 'Faster Whisper transcription with CTranslate2',
          attribution,
          installed: true,
          version: '3.0.0',
          models: this.o.models.map((name) => ({ name, description: name, attribution, installed: true, version: null, languages: ['en'] })),
        },
      ],
    };
  }

  private request(conn: PeerConnection): WhisperRequest {
    let r = this.requests.find((x) => x.conn === conn);
    if (!r) {
      r = {
        conn,
        language: null,
        audio: Buffer.alloc(0),
        chunks: 0,
        fault: this.faults.shift() ?? { kind: 'none' },
        audioStopAt: null,
        transcriptAt: null,
        text: null,
      };
      this.requests.push(r);
    }
    return r;
  }

  protected async handle(e: PeerEvent, socket: Socket, conn: PeerConnection): Promise<boolean> {
    switch (e.type) {
      case 'describe':
        await writePeerEvent(socket, 'info', this.info());
        return true;
      case 'transcribe':
        this.request(conn).language = typeof e.data.language === 'string' ? e.data.language : null;
        return true;
      case 'audio-chunk': {
        const r = this.request(conn);
        if (e.payload) r.audio = Buffer.concat([r.audio, e.payload]);
        r.chunks++;
        if (r.fault.kind === 'die' && r.chunks >= r.fault.afterChunks) {
          socket.destroy();
          return false;
        }
        return true;
      }
      case 'audio-stop': {
        const r = this.request(conn);
        r.audioStopAt = performance.now();
        if (r.audio.length === 0) {
          await this.answer(socket, r, '');
          return false;
        }
        const text = this.script.shift() ?? this.defaultText;
        if (this.holding) await new Promise<void>((resolve) => this.held.set(r, resolve));
        else if (this.o.transcribeMs > 0) await new Promise((resolve) => setTimeout(resolve, this.o.transcribeMs));
        await this.answer(socket, r, text);
        return false;
      }
      default:
        return true;
    }
  }

  private async answer(socket: Socket, r: WhisperRequest, text: string): Promise<void> {
    if (socket.destroyed) return;
    await writePeerEvent(socket, 'transcript', { text });
    r.text = text;
    r.transcriptAt = performance.now();
  }
}
