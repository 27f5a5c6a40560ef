import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PlayResult, Playback, StreamReference, StreamingPlayback } from './playback.js';
import { timelineOrigin, type FromWorker, type ToWorker, type WorkerStreamOptions } from './aplay-stream-protocol.js';

interface Remote {
  resolveStarted: () => void;
  resolveDone: (r: PlayResult) => void;
  playedMs: number;
  finished: boolean;
}

/** The worker's script: beside this file once built; from the sources (tests), the built one in dist/. */
function workerUrl(): URL {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new URL('./aplay-stream-worker.js', here);
  const built = new URL('../../dist/speech/aplay-stream-worker.js', here);
  if (!existsSync(fileURLToPath(built)))
    throw new Error(`${fileURLToPath(built)} is missing: run npm run build (the aplay feeding thread runs the built code)`);
  return built;
}

/**
 * AplayStream (aplay-stream.ts) run on a thread of its own: the same long-lived aplay, the same mix,
 * but spawned and fed from a worker thread, so a stall of hark's main event loop (130-720 ms measured on
 * a loaded machine: speech-to-text, the store, the debug page) no longer runs the card dry. Each time the
 * card ran dry it restarted a few ms off, and the echo canceller took seconds to find the echo again;
 * a longer lead (speech.playerLeadMs) rode the stalls out but made every stop as slow.
 *
 * The main thread hands over the clips (copies, transferred) and stop/push/end; the worker hands back
 * what it mixed, stamped on this thread's clock, for the echo reference, and each clip's start,
 * progress and end. A main-thread stall delays only those messages: the reference learns of a piece late
 * but with the right time on it, and the canceller asks for it later than that (it reads the reference
 * behind the microphone).
 */
export class AplayStreamThread {
  private worker: Worker | null = null;
  private readonly remotes = new Map<number, Remote>();
  private nextId = 1;
  private lastPid: number | undefined;
  private procs = 0;
  private pings = new Map<number, (now: number) => void>();

  constructor(private readonly o: WorkerStreamOptions & { reference: StreamReference | null; onLate?: (lateMs: number) => void }) {}

  get pid(): number | undefined {
    return this.lastPid;
  }

  /** How many aplay processes the worker has started (a new one may sound at another latency). */
  get processes(): number {
    return this.procs;
  }

  play(pcm: Int16Array): Playback {
    return this.add(pcm, true);
  }

  playStream(): StreamingPlayback {
    return this.add(new Int16Array(0), false) as StreamingPlayback;
  }

  /**
   * Start the feeding thread now, not at the first clip: its start-up (150-350 ms measured on a loaded
   * machine) would otherwise delay hark's first reply after it starts. A failure here is left for
   * play() to report, where a clip's result can carry it.
   */
  warm(): void {
    try {
      this.ensure();
    } catch {
      // play() tries again and settles its clip with the error.
    }
  }

  /** Close aplay now (shutdown); clips still playing end as stopped. The thread ends once aplay has gone. */
  close(): void {
    const w = this.worker;
    if (!w) return;
    this.worker = null;
    w.postMessage({ t: 'close' } satisfies ToWorker);
  }

  /** The worker's reading of this thread's clock (tests: the two timelines agree). */
  async workerNow(): Promise<number> {
    const w = this.ensure();
    const n = this.nextId++;
    const p = new Promise<number>((r) => this.pings.set(n, r));
    w.postMessage({ t: 'ping', n } satisfies ToWorker);
    return p;
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const { reference, onLate, ...options } = this.o;
    const w = new Worker(workerUrl(), { workerData: { options, originNs: timelineOrigin(), reference: reference !== null } });
    // hark may exit with the thread idle; close() ends it otherwise.
    w.unref();
    w.on('message', (m: FromWorker) => this.received(m));
    const failed = (why: string) => {
      if (this.worker === w) this.worker = null;
      this.lastPid = undefined;
      for (const [id, r] of this.remotes)
        this.settle(id, r, { outcome: 'error', error: `the thread feeding aplay failed: ${why}`, playedMs: Math.round(r.playedMs) });
    };
    w.on('error', (err) => failed(err.message));
    w.on('exit', (code) => {
      if (this.remotes.size > 0) failed(`it exited (code ${code})`);
      if (this.worker === w) this.worker = null;
    });
    this.worker = w;
    return w;
  }

  private settle(id: number, r: Remote, result: PlayResult): void {
    if (r.finished) return;
    r.finished = true;
    this.remotes.delete(id);
    r.resolveStarted();
    r.resolveDone(result);
  }

  private received(m: FromWorker): void {
    switch (m.t) {
      case 'started':
        this.remotes.get(m.id)?.resolveStarted();
        break;
      case 'done': {
        const r = this.remotes.get(m.id);
        if (r) this.settle(m.id, r, m.result);
        break;
      }
      case 'played': {
        const r = this.remotes.get(m.id);
        if (r) r.playedMs = m.ms;
        break;
      }
      case 'streamed':
        this.o.reference?.streamed(m.pcm, m.atMs, m.stream);
        break;
      case 'moved':
        this.o.reference?.moved?.(m.atMs);
        break;
      case 'late':
        this.o.onLate?.(m.lateMs);
        break;
      case 'pid':
        this.lastPid = m.pid;
        this.procs = m.processes;
        break;
      case 'pong':
        this.pings.get(m.n)?.(m.now);
        this.pings.delete(m.n);
        break;
    }
  }

  private add(pcm: Int16Array, complete: boolean): Playback | StreamingPlayback {
    const w = this.ensure();
    const id = this.nextId++;
    let resolveStarted!: () => void;
    let resolveDone!: (r: PlayResult) => void;
    const started = new Promise<void>((r) => (resolveStarted = r));
    const done = new Promise<PlayResult>((r) => (resolveDone = r));
    const remote: Remote = { resolveStarted, resolveDone, playedMs: 0, finished: false };
    this.remotes.set(id, remote);
    // A copy crosses (transferred, not cloned again): the caller keeps its buffer (a ring reuses its clip).
    const send = (m: ToWorker, data?: Int16Array) => w.postMessage(m, data ? [data.buffer as ArrayBuffer] : []);
    const copy = pcm.slice();
    send({ t: 'play', id, pcm: copy, complete }, copy);
    let ended = complete;
    const self = this;
    return {
      get pid() {
        return self.lastPid;
      },
      started,
      done,
      playedMs: () => remote.playedMs,
      push: (more: Int16Array) => {
        if (ended || remote.finished || more.length === 0) return;
        const c = more.slice();
        send({ t: 'push', id, pcm: c }, c);
      },
      end: () => {
        if (ended) return;
        ended = true;
        send({ t: 'end', id });
      },
      stop: async () => {
        if (!remote.finished) send({ t: 'stop', id });
        await done;
      },
    };
  }
}
