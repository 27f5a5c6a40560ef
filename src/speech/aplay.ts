import type { PlayResult, Playback, StreamReference, StreamingPlayback } from './playback.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { SAMPLE_RATE } from '../audio/pcm.js';
import { SystemClock, type Clock, type TimerHandle } from '../core/clock.js';
import type { PlaybackReference } from '../echo/reference.js';
import { AplayStream } from './aplay-stream.js';
import { AplayStreamThread } from './aplay-stream-thread.js';

export interface AplayOptions {
  /** ALSA device (`-D`): `default`, `plughw:CARD=Device,DEV=0`, or `null` to discard (tests). */
  device: string;
  sampleRate?: number;
  /** How far ahead of real time aplay is fed. Enough to ride out a busy event loop, little enough that stop() has nothing queued. */
  leadMs?: number;
  /** aplay is killed if it is still running this long after its clip should have finished. */
  stallMs?: number;
  clock?: Clock;
  /** The program to run (tests point this at a script that fails). */
  bin?: string;
  /**
   * Told of every clip as aplay starts on it, and where it was cut short: the echo canceller's
   * reference. Here, in the one place every played sample passes (speech, earcons, the ring, a
   * streamed voice).
   */
  reference?: PlaybackReference & StreamReference;
  /**
   * One long-lived aplay fed continuously (AplayStream) rather than one per clip. Default: with a reference,
   * i.e. while the echo canceller is in force, which needs every clip at one latency.
   */
  steady?: boolean;
  /** The long-lived aplay closes after this long with nothing to play (steady only). */
  idleCloseMs?: number;
  /** The long-lived aplay was fed late (steady only): see AplayStreamOptions.onLate. */
  onLate?: (lateMs: number) => void;
}

/**
 * Plays 16 kHz mono s16 through `aplay` child processes: one per clip, or, while the echo canceller
 * is in force, one long-lived process for all (AplayStream, aplay-stream.ts), spawned and fed from a
 * worker thread on the wall clock (AplayStreamThread, aplay-stream-thread.ts).
 *
 * Why aplay and not the `speaker` npm package: `speaker` bundles mpg123's output layer, which has no
 * build configuration for 64-bit ARM, so it does not install on 64-bit Raspberry Pi OS. aplay (from
 * alsa-utils) is already on every Pi that records with arecord.
 *
 * Why one process per clip, fed in step with real time: stopping must be immediate. The clip is
 * written a little ahead of the playhead (leadMs), not all at once, so nothing sits in a pipe when
 * we stop, and the process is SIGKILLed: aplay's SIGTERM handler only aborts the PCM and goes back
 * to reading stdin, so with stdin open it lingers (measured: still alive after 2 s), whereas SIGKILL
 * takes 1-15 ms and the kernel drops what the sound card had buffered.
 */
export class AplayPlayer {
  private readonly opts: Required<Omit<AplayOptions, 'clock' | 'reference' | 'steady' | 'idleCloseMs' | 'onLate'>>;
  private readonly clock: Clock;
  private readonly reference: PlaybackReference | null;
  /**
   * With the echo canceller: one aplay for every clip (see AplayStream). Without it, one aplay per
   * clip stays: a stop is then immediate (the process is killed and the kernel drops the card's buffer)
   * where the long-lived one needs up to its lead to fall silent, and no process sits open between
   * sounds; nothing needs a steady latency when nothing cancels echo.
   */
  private readonly stream: AplayStream | AplayStreamThread | null;

  constructor(opts: AplayOptions) {
    const { clock, reference, steady, idleCloseMs, onLate, ...rest } = opts;
    this.opts = { sampleRate: SAMPLE_RATE, leadMs: 400, stallMs: 3000, bin: 'aplay', ...rest };
    this.clock = clock ?? new SystemClock();
    // The reference is on hark's 16 kHz grid; another rate is not hark's own sound.
    const own = reference && this.opts.sampleRate === SAMPLE_RATE ? reference : null;
    this.reference = own;
    const streamOptions = {
      device: this.opts.device,
      sampleRate: this.opts.sampleRate,
      leadMs: rest.leadMs ?? 250,
      tickMs: 20,
      idleCloseMs: idleCloseMs ?? 60_000,
      stallMs: this.opts.stallMs,
      backoffMs: 250,
      backoffMaxMs: 5000,
      bin: this.opts.bin,
      reference: own,
      ...(onLate ? { onLate } : {}),
    };
    // On the wall clock, aplay is fed from a thread of its own (AplayStreamThread): a stall of the main
    // event loop cannot run the card dry. A virtual clock (tests, simulation) keeps it on this thread.
    this.stream =
      (steady ?? reference !== undefined)
        ? this.clock instanceof SystemClock
          ? new AplayStreamThread(streamOptions)
          : new AplayStream({ ...streamOptions, clock: this.clock })
        : null;
  }

  play(pcm: Int16Array): Playback {
    if (this.stream) return this.stream.play(pcm);
    return this.start(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), true);
  }

  /**
   * Start aplay now and feed it audio as it arrives (push), through the same feeding loop as play():
   * every sample hark plays goes out at one place. The clip's length is known at end().
   */
  playStream(): StreamingPlayback {
    if (this.stream) return this.stream.playStream();
    return this.start(Buffer.alloc(0), false) as StreamingPlayback;
  }

  /** Get the long-lived player's feeding thread going before the first clip needs it (hark's start). */
  warm(): void {
    if (this.stream && 'warm' in this.stream) this.stream.warm();
  }

  /** Silence everything and close the long-lived aplay (shutdown). */
  close(): void {
    this.stream?.close();
  }

  private start(initial: Buffer, complete: boolean): Playback | StreamingPlayback {
    const { device, sampleRate, leadMs, stallMs, bin } = this.opts;
    const clock = this.clock;
    const bytesPerMs = (sampleRate * 2) / 1000;
    // A stream grows into a buffer that doubles, so appending stays linear in the answer's length.
    let store = initial;
    let length = initial.length;
    let bytes = store.subarray(0, length);
    let durationMs = length / bytesPerMs;
    let starved = false;

    let child: ChildProcess;
    let startedAt: number | null = null;
    let stopped = false;
    let fed = 0;
    let feedTimer: TimerHandle | null = null;
    let stallTimer: TimerHandle | null = null;
    let stderr = '';
    let spawnError: string | null = null;
    let resolveStarted!: () => void;
    const started = new Promise<void>((r) => (resolveStarted = r));

    const playedMs = () => (startedAt === null ? 0 : Math.min(durationMs, clock.now() - startedAt));
    // The echo reference: each piece of the clip as it is due to sound, on the playhead's timeline.
    const referenced: { stopped(atMs: number): void }[] = [];
    const tapFrom = (offsetBytes: number, piece: Buffer) => {
      if (!this.reference || startedAt === null || piece.length < 2) return;
      const pcm = new Int16Array(piece.buffer.slice(piece.byteOffset, piece.byteOffset + (piece.length & ~1)));
      referenced.push(this.reference.played(pcm, startedAt + offsetBytes / bytesPerMs));
    };
    const untap = () => {
      for (const t of referenced.splice(0)) t.stopped(clock.now());
    };
    const clearTimers = () => {
      clock.clearTimer(feedTimer);
      clock.clearTimer(stallTimer);
      feedTimer = stallTimer = null;
    };

    child = spawn(bin, ['-q', '-t', 'raw', '-f', 'S16_LE', '-r', String(sampleRate), '-c', '1', '-D', device], { stdio: ['pipe', 'ignore', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      if (stderr.length < 4000) stderr += d;
    });
    // EPIPE when aplay dies (bad device) or is killed mid-write: the exit status says what happened.
    child.stdin?.on('error', () => {});

    const feed = () => {
      feedTimer = null;
      if (stopped || !child.stdin || child.stdin.destroyed) return;
      const want = Math.min(bytes.length, Math.floor((playedMs() + leadMs) * bytesPerMs) & ~1);
      if (want > fed) {
        const ok = child.stdin.write(bytes.subarray(fed, want));
        fed = want;
        if (!ok) {
          // aplay is behind (a slow card): wait for it rather than piling audio into the pipe.
          child.stdin.once('drain', feed);
          return;
        }
      }
      if (fed >= bytes.length) {
        if (complete) {
          child.stdin.end();
          return;
        }
        // A stream that has run dry: the playhead waits with it, and push() resumes feeding.
        starved = true;
        if (startedAt !== null) startedAt = Math.max(startedAt, clock.now() - fed / bytesPerMs);
        return;
      }
      feedTimer = clock.setTimer(Math.max(10, leadMs / 4), feed);
    };
    const armStall = () => {
      stallTimer = clock.setTimer(Math.max(0, durationMs - playedMs()) + stallMs, () => {
        stallTimer = null;
        spawnError = `aplay still running ${stallMs} ms after its ${Math.round(durationMs)} ms clip should have ended (sound card "${device}" not taking audio?); killed`;
        child.stdin?.destroy();
        child.kill('SIGKILL');
      });
    };

    let spawned = false;
    child.once('spawn', () => {
      spawned = true;
      startedAt = clock.now();
      tapFrom(0, bytes);
      if (complete) armStall();
      feed();
      resolveStarted();
    });
    const push = (pcm: Int16Array) => {
      if (complete || stopped || pcm.length === 0) return;
      if (length + pcm.byteLength > store.length) {
        const bigger = Buffer.alloc(Math.max(store.length * 2, length + pcm.byteLength, 64 * 1024));
        store.copy(bigger, 0, 0, length);
        store = bigger;
      }
      Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).copy(store, length);
      if (spawned) tapFrom(length, store.subarray(length, length + pcm.byteLength));
      length += pcm.byteLength;
      bytes = store.subarray(0, length);
      durationMs = length / bytesPerMs;
      if (starved && feedTimer === null) {
        starved = false;
        feed();
      }
    };
    const end = () => {
      if (complete) return;
      complete = true;
      if (!spawned || stopped) return;
      armStall();
      if (starved) {
        starved = false;
        feed();
      }
    };
    child.once('error', (err: NodeJS.ErrnoException) => {
      spawnError = err.code === 'ENOENT' ? `${bin} is not installed (sudo apt-get install alsa-utils)` : `cannot start ${bin}: ${err.message}`;
      resolveStarted();
    });

    const done: Promise<PlayResult> = (async () => {
      // 'close' never comes for a program that could not be started.
      const spawnFailed = new Promise<null>((r) => child.once('error', () => r(null)));
      const exit = await Promise.race([exited, spawnFailed]);
      clearTimers();
      // Cut short (stopped, killed, failed): the reference ends where the sound did.
      if (exit?.code !== 0 || stopped) untap();
      const played = Math.round(playedMs());
      if (stopped) return { outcome: 'stopped', playedMs: played };
      if (spawnError) return { outcome: 'error', error: spawnError, playedMs: played };
      if (exit && exit.code === 0) return { outcome: 'ended', playedMs: Math.round(durationMs) };
      const why = stderr.trim().split('\n').filter(Boolean).pop() ?? (exit?.signal ? `killed by ${exit.signal}` : `exit code ${exit?.code}`);
      return { outcome: 'error', error: `aplay could not play on "${device}": ${why}`, playedMs: played };
    })();

    return {
      get pid() {
        return child.pid;
      },
      started,
      done,
      playedMs,
      push,
      end,
      stop: async () => {
        if (!stopped) {
          stopped = true;
          clearTimers();
          untap();
          child.stdin?.destroy();
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        }
        await done;
      },
    };
  }
}
