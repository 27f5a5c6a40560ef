import { Backoff } from '../core/backoff.js';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { AplayStreamOptions, PlayResult, Playback, StreamingPlayback } from './playback.js';
import { mix, plan, type Clip } from './aplay-stream-mix.js';
import { waitingOnStdin } from './aplay-stream-ready.js';

interface Proc {
  child: ChildProcess;
  id: number;
  /** Clock time at which stream position 0 is due to sound (moves on when the card ran dry). */
  anchorMs: number;
  /** Samples written. */
  fed: number;
  spawnedAt: number;
  running: boolean;
  closing: boolean;
  stderr: string;
  error: string | null;
  waitingDrain: boolean;
}

/**
 * One long-lived aplay process for everything hark plays while the echo canceller is in force, fed
 * continuously in step with the clock: the clips' audio summed as the speaker would sum them, silence
 * between them. So every sample reaches the speaker at one latency (the card's buffer plus what was
 * queued when aplay started), which the canceller finds once and keeps, across clips, ring repeats and
 * sentences. With one aplay per clip each clip started sounding after its own process start-up (47-185
 * ms apart on a loaded machine), and the canceller had to find the latency again for every clip.
 *
 * The reference gets exactly the mixed samples written, stamped with the clock time they are
 * due to sound; a clip stopped after some of it was written is in the reference as far as it was
 * written, which is as far as it will sound.
 *
 * Failure: aplay dying (the card unplugged, a bad device) fails the clips playing with a message
 * naming the device and aplay's own words; the next sound starts a new aplay after a backoff
 * (backoffMs doubling to backoffMaxMs). aplay taking no audio for stallMs is killed, likewise.
 */
export class AplayStream {
  private proc: Proc | null = null;
  private readonly clips: Clip[] = [];
  private readonly perMs: number;
  private streams = 0;
  private readonly backoff: Backoff;
  private nextSpawnAt = -Infinity;
  private spawnTimer: TimerHandle | null = null;
  private feedTimer: TimerHandle | null = null;
  private stallTimer: TimerHandle | null = null;
  private lastSoundAt = -Infinity;
  /** A clip arrived while the old aplay was finishing: start a new one once it has gone (one card, one writer). */
  private respawnAfterClose = false;

  constructor(private readonly o: AplayStreamOptions) {
    this.perMs = o.sampleRate / 1000;
    this.backoff = new Backoff(o.backoffMs, o.backoffMaxMs);
  }

  /** The aplay process's pid while one runs. */
  get pid(): number | undefined {
    return this.proc?.child.pid;
  }

  /** How many aplay processes have been started (a new one may sound at another latency). */
  get processes(): number {
    return this.streams;
  }

  play(pcm: Int16Array): Playback {
    return this.add([pcm], true);
  }

  playStream(): StreamingPlayback {
    return this.add([], false) as StreamingPlayback;
  }

  /** Close aplay now (shutdown); clips still playing end as stopped. */
  close(): void {
    for (const c of [...this.clips, ...this.draining]) this.finish(c, 'stopped');
    this.o.clock.clearTimer(this.spawnTimer);
    this.spawnTimer = null;
    this.closeProc();
  }

  private add(pieces: Int16Array[], complete: boolean): Playback | StreamingPlayback {
    let resolveStarted!: () => void;
    let resolveDone!: (r: PlayResult) => void;
    const started = new Promise<void>((r) => (resolveStarted = r));
    const done = new Promise<PlayResult>((r) => (resolveDone = r));
    const clip: Clip = {
      pending: pieces.filter((p) => p.length > 0),
      offset: 0,
      complete,
      fed: 0,
      firstPos: null,
      finished: false,
      resolveStarted,
      resolveDone,
      endTimer: null,
    };
    this.clips.push(clip);
    this.ensure();
    const self = this;
    return {
      get pid() {
        return self.proc?.child.pid;
      },
      started,
      done,
      playedMs: () => this.playedMs(clip),
      push: (pcm: Int16Array) => {
        if (clip.complete || clip.finished || pcm.length === 0) return;
        // Copied: the caller may reuse its buffer.
        clip.pending.push(pcm.slice());
      },
      end: () => {
        if (clip.complete) return;
        clip.complete = true;
        this.checkDrained(clip);
      },
      /**
       * Drop the clip's unplayed samples from the mix. It falls silent once what was already handed to
       * aplay has played: at most leadMs (speech.playerLeadMs, 250 ms by default) plus the card's own
       * buffer (nothing queues while aplay starts: it is not written to until it reads). The process is
       * not killed: a new one would sound at another latency, and the canceller would have to find it
       * again.
       */
      stop: async () => {
        if (!clip.finished) this.finish(clip, 'stopped');
        await done;
      },
    };
  }

  private playedMs(c: Clip): number {
    const p = this.proc;
    if (c.firstPos === null || !p) return c.fed / this.perMs;
    const sounded = this.o.clock.now() - (p.anchorMs + c.firstPos / this.perMs);
    return Math.max(0, Math.min(c.fed / this.perMs, sounded));
  }

  /** A process to play into: start one, or wait out the backoff or the old one's closing. */
  private ensure(): void {
    if (this.proc && !this.proc.closing) {
      // Mixed in now, not at the next tick: it starts sounding after what is already written.
      if (this.proc.running && !this.proc.waitingDrain) {
        this.o.clock.clearTimer(this.feedTimer);
        this.tick();
      }
      return;
    }
    if (this.proc?.closing) {
      this.respawnAfterClose = true;
      return;
    }
    if (this.spawnTimer) return;
    const wait = this.nextSpawnAt - this.o.clock.now();
    if (wait > 0) {
      this.spawnTimer = this.o.clock.setTimer(wait, () => {
        this.spawnTimer = null;
        if (this.clips.length > 0) this.ensure();
      });
      return;
    }
    this.spawnProc();
  }

  private spawnProc(): void {
    const { device, sampleRate, leadMs, bin } = this.o;
    // A small ALSA buffer and an early start: the card starts on the first period we write and holds
    // little more than the lead, so what a stop cannot take back stays small.
    const args = [
      '-q',
      '-t',
      'raw',
      '-f',
      'S16_LE',
      '-r',
      String(sampleRate),
      '-c',
      '1',
      '-D',
      device,
      `--buffer-time=${Math.round(leadMs * 2 * 1000)}`,
      `--period-time=${Math.round((leadMs / 6) * 1000)}`,
      `--start-delay=${Math.round((leadMs / 6) * 1000)}`,
    ];
    const child = (this.o.spawnAplay ?? ((b, a) => spawn(b, a, { stdio: ['pipe', 'ignore', 'pipe'] })))(bin, args);
    const proc: Proc = {
      child,
      id: ++this.streams,
      anchorMs: 0,
      fed: 0,
      spawnedAt: this.o.clock.now(),
      running: false,
      closing: false,
      stderr: '',
      error: null,
      waitingDrain: false,
    };
    this.proc = proc;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (d: string) => {
      if (proc.stderr.length < 4000) proc.stderr += d;
    });
    // EPIPE when aplay dies: its exit says what happened.
    child.stdin?.on('error', () => {});
    child.once('spawn', () => {
      if (this.proc !== proc) return;
      // Nothing is written until aplay is up and reading (its start-up: tens of ms on a Pi, 50-230 ms on
      // a loaded machine). What was written meanwhile would sit queued for the process's whole life:
      // every stop slower by it, and a latency that the stream's timeline does not know about, so the
      // reference would be off by it after the card next ran dry.
      const check = this.o.readyCheck ?? (this.o.spawnAplay ? () => null : waitingOnStdin);
      const giveUpAt = this.o.clock.now() + (this.o.readyTimeoutMs ?? 1000);
      const poll = () => {
        this.feedTimer = null;
        if (this.proc !== proc || proc.closing) return;
        const pid = child.pid;
        const ready = pid === undefined ? null : check(pid);
        if (ready === false && this.o.clock.now() < giveUpAt) {
          this.feedTimer = this.o.clock.setTimer(5, poll);
          return;
        }
        proc.running = true;
        proc.anchorMs = this.o.clock.now();
        this.tick();
      };
      poll();
    });
    child.once('error', (err: NodeJS.ErrnoException) => {
      proc.error = err.code === 'ENOENT' ? `${bin} is not installed (sudo apt-get install alsa-utils)` : `cannot start ${bin}: ${err.message}`;
      // 'close' does not come for a program that could not be started.
      if (!proc.running) this.exited(proc, null, null);
    });
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => this.exited(proc, code, signal));
  }

  private exited(proc: Proc, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.proc !== proc) return;
    this.proc = null;
    this.clearTimers();
    // Closed by us (idle, shutdown): whatever its exit status, nothing failed.
    const expected = proc.closing && !proc.error;
    if (!expected) {
      const why = proc.error ?? proc.stderr.trim().split('\n').filter(Boolean).pop() ?? (signal ? `killed by ${signal}` : `exit code ${code}`);
      const error = `aplay could not play on "${this.o.device}": ${why}`;
      // Those written in full but not yet sounded were cut too.
      for (const c of [...this.clips, ...this.draining]) this.finish(c, 'error', error);
      // A process that played a while before dying is a new failure, not the next in a run.
      const up = this.o.clock.now() - proc.spawnedAt;
      if (up > 10_000) this.backoff.reset();
      this.nextSpawnAt = this.o.clock.now() + this.backoff.fail();
    } else this.backoff.reset();
    if (this.clips.length > 0 || this.respawnAfterClose) {
      this.respawnAfterClose = false;
      if (this.clips.length > 0) this.ensure();
    }
  }

  private clearTimers(): void {
    this.o.clock.clearTimer(this.feedTimer);
    this.o.clock.clearTimer(this.stallTimer);
    this.feedTimer = this.stallTimer = null;
  }

  private closeProc(): void {
    const p = this.proc;
    if (!p || p.closing) return;
    p.closing = true;
    this.clearTimers();
    if (!p.running) {
      p.child.kill('SIGKILL');
      return;
    }
    // aplay plays what it has (silence) and exits.
    p.child.stdin?.end();
  }

  /** The feeding loop: write the mix up to leadMs ahead of the clock. */
  private tick(): void {
    this.feedTimer = null;
    const p = this.proc;
    if (!p || !p.running || p.closing || p.waitingDrain) return;
    const stdin = p.child.stdin;
    if (!stdin || stdin.destroyed) return;
    const now = this.o.clock.now();
    let playhead = (now - p.anchorMs) * this.perMs;
    // Later than the lead (the event loop stalled): the card has run dry and restarts with the next
    // write. Writing the missed stretch now would queue it for good (every later stop slower by it), so
    // the stream's timeline moves on instead: the next sample is due now.
    if (p.fed < playhead) {
      // Before the first write nothing can have run dry: the clock only moved on between the anchor's
      // reading and this one (on the wall clock, always a little).
      if (p.fed > 0) {
        this.o.onLate?.((playhead - p.fed) / this.perMs);
        this.o.reference?.moved?.(now);
      }
      p.anchorMs = now - p.fed / this.perMs;
      playhead = p.fed;
    }
    // Silence needs no lead beyond riding out a short stall: a clip that comes is placed after what is
    // already written, so with little silence queued it starts sounding within idleLeadMs, and the lead
    // grows to leadMs as it plays (how early a sample is written does not change when it sounds). A
    // streamed clip is written only as far as its audio has come (see plan()).
    const { n, sounding } = plan(this.clips, {
      playhead,
      fed: p.fed,
      lead: this.o.leadMs * this.perMs,
      idle: Math.min(this.o.leadMs, this.o.idleLeadMs ?? 80) * this.perMs,
      floor: 2 * this.o.tickMs * this.perMs,
    });
    // A stream is started once aplay is being fed (as with one aplay per clip), before its first audio.
    for (const c of this.clips) if (!c.complete) c.resolveStarted();
    if (n > 0) {
      const { mix: out, any, covered } = mix(sounding, n, p.fed);
      for (const c of sounding) this.checkDrained(c);
      if (any) this.lastSoundAt = now;
      const at = p.anchorMs + p.fed / this.perMs;
      p.fed += n;
      // The reference holds the sound, not the silence after a clip's last sample (its end marks the echo's tail).
      if (any) this.o.reference?.streamed(out.subarray(0, covered), at, p.id);
      const ok = stdin.write(Buffer.from(out.buffer, out.byteOffset, out.byteLength));
      if (!ok) {
        // aplay is not taking audio (a slow or wedged card): wait for it, not pile audio in the pipe.
        p.waitingDrain = true;
        this.stallTimer = this.o.clock.setTimer(this.o.stallMs, () => {
          this.stallTimer = null;
          p.error = `aplay took no audio for ${this.o.stallMs} ms (sound card "${this.o.device}" not taking audio?); killed`;
          p.child.stdin?.destroy();
          p.child.kill('SIGKILL');
        });
        stdin.once('drain', () => {
          this.o.clock.clearTimer(this.stallTimer);
          this.stallTimer = null;
          p.waitingDrain = false;
          if (this.proc === p) this.tick();
        });
        return;
      }
    }
    if (this.clips.length === 0 && now - this.lastSoundAt >= this.o.idleCloseMs) {
      this.closeProc();
      return;
    }
    this.feedTimer = this.o.clock.setTimer(this.o.tickMs, () => this.tick());
  }

  /** A clip with all its audio written ends when its last sample is due to have sounded. */
  private checkDrained(c: Clip): void {
    if (c.finished || !c.complete || c.pending.length > 0 || c.endTimer) return;
    const p = this.proc;
    // Never started (empty): over at once.
    if (c.firstPos === null || !p) {
      c.resolveStarted();
      this.finish(c, 'ended');
      return;
    }
    const dueMs = p.anchorMs + (c.firstPos + c.fed) / this.perMs - this.o.clock.now();
    this.remove(c);
    c.endTimer = this.o.clock.setTimer(Math.max(0, dueMs), () => this.finish(c, 'ended'));
    // Still owed its result if aplay dies before then.
    this.draining.add(c);
  }

  private readonly draining = new Set<Clip>();

  private remove(c: Clip): void {
    const i = this.clips.indexOf(c);
    if (i >= 0) this.clips.splice(i, 1);
  }

  private finish(c: Clip, outcome: PlayResult['outcome'], error?: string): void {
    if (c.finished) return;
    c.finished = true;
    this.o.clock.clearTimer(c.endTimer);
    this.remove(c);
    this.draining.delete(c);
    c.pending = [];
    c.resolveStarted();
    const playedMs = outcome === 'ended' ? Math.round(c.fed / this.perMs) : Math.round(this.playedMs(c));
    c.resolveDone(error ? { outcome, error, playedMs } : { outcome, playedMs });
  }
}
