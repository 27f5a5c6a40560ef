import type { ChildProcess } from 'node:child_process';
import type { Clock } from '../core/clock.js';

/** The types the players share: aplay.ts (one process per clip) and the stream player (aplay-stream*.ts) both play through these. */

export interface PlayResult {
  outcome: 'ended' | 'stopped' | 'error';
  /** Why it failed, in words a technician can act on. */
  error?: string;
  playedMs: number;
}

export interface Playback {
  /** The aplay process, once spawned. */
  readonly pid: number | undefined;
  /** Resolves when aplay is running and being fed; rejects never (a failure shows in `done`). */
  readonly started: Promise<void>;
  readonly done: Promise<PlayResult>;
  /** Silence now. Resolves when the aplay process has exited. */
  stop(): Promise<void>;
  /** Ms of audio since playback started (capped at the clip's length). */
  playedMs(): number;
}

/** A playback fed as the audio arrives (a voice server streaming its answer). */
export interface StreamingPlayback extends Playback {
  /** More audio, at the player's rate; played as soon as aplay can take it. */
  push(pcm: Int16Array): void;
  /** No more audio: aplay finishes what it has and exits. */
  end(): void;
}

/** Where the stream player reports what it hands to aplay: the echo canceller's reference. */
export interface StreamReference {
  /** `pcm` (the mix, as written) is due to sound from `atMs` on; `stream` numbers the aplay process. */
  streamed(pcm: Int16Array, atMs: number, stream: number): void;
  /** The stream fell behind and its timeline moved on at `atMs`: the card ran dry and restarts, so the echo's latency may have moved. */
  moved?(atMs: number): void;
}

export interface AplayStreamOptions {
  device: string;
  sampleRate: number;
  /**
   * How far ahead of the clock aplay is fed (ms). This is what a stop cannot take back: see stop().
   * Also how long the event loop may stall before the card runs dry.
   */
  leadMs: number;
  /** How far ahead silence is written while nothing plays (ms; default 80): a new clip starts sounding within it. */
  idleLeadMs?: number;
  /** How often the feeding loop runs (ms). */
  tickMs: number;
  /** aplay is closed after this long with nothing to play, and opened again on the next sound. */
  idleCloseMs: number;
  /** aplay taking no audio for this long (a wedged card) is killed, and the clips playing fail. */
  stallMs: number;
  /** After aplay dies: wait this long before the next one, doubling per failure up to backoffMaxMs. */
  backoffMs: number;
  backoffMaxMs: number;
  bin: string;
  clock: Clock;
  reference: StreamReference | null;
  /** Starts the aplay process (tests hand in a double that records what is written). */
  spawnAplay?: (bin: string, args: string[]) => ChildProcess;
  /** Is the process (or a child of it) waiting on its stdin; null: cannot tell. Default: waitingOnStdin (aplay-stream-ready.ts). */
  readyCheck?: (pid: number) => boolean | null;
  /** Feed anyway if it has not said it is ready by then (ms). */
  readyTimeoutMs?: number;
  /** Told when hark fed aplay later than the lead (the card ran dry; the echo's latency may move). */
  onLate?: (lateMs: number) => void;
}
