import type { AplayStreamOptions } from '../../src/speech/playback.js';
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { VirtualClock } from '../../src/core/clock.js';
import { AplayStream } from '../../src/speech/aplay-stream.js';

/**
 * The long-lived aplay's timing on a virtual clock, with a double for the process that records what
 * is written and when (process behaviour against real aplay and the room's fake: aplay-steady.test.ts).
 */
export class FakeAplay extends EventEmitter {
  static made: FakeAplay[] = [];
  readonly pid = 1000 + FakeAplay.made.length;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  /** Each write: the clock time and the samples. */
  readonly writes: Array<{ at: number; pcm: Int16Array }> = [];
  ended = false;
  accept = true;
  readonly stderr = new EventEmitter() as EventEmitter & { setEncoding(): void };
  readonly stdin: EventEmitter & { write(b: Buffer): boolean; end(): void; destroy(): void; destroyed: boolean };
  constructor(private readonly clock: VirtualClock) {
    super();
    FakeAplay.made.push(this);
    this.stderr.setEncoding = () => {};
    const self = this;
    this.stdin = Object.assign(new EventEmitter(), {
      destroyed: false,
      write(b: Buffer) {
        self.writes.push({ at: clock.now(), pcm: new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) });
        return self.accept;
      },
      end() {
        self.ended = true;
      },
      destroy() {
        this.destroyed = true;
      },
    });
    queueMicrotask(() => this.emit('spawn'));
  }
  kill(signal: NodeJS.Signals): boolean {
    this.exit(null, signal);
    return true;
  }
  exit(code: number | null, signal: NodeJS.Signals | null = null, stderr = ''): void {
    if (stderr) this.stderr.emit('data', stderr);
    this.exitCode = code;
    this.signalCode = signal;
    this.emit('close', code, signal);
  }
  /** Everything written, in order. */
  get stream(): Int16Array {
    const n = this.writes.reduce((s, w) => s + w.pcm.length, 0);
    const out = new Int16Array(n);
    let k = 0;
    for (const w of this.writes) {
      out.set(w.pcm, k);
      k += w.pcm.length;
    }
    return out;
  }
}

export function setup(over: Partial<AplayStreamOptions> = {}) {
  FakeAplay.made = [];
  const virtual = new VirtualClock(1000);
  // The player's clock: the virtual one, plus a skew that stands for the event loop stalling (time
  // passes, no timer runs).
  let skew = 0;
  const clock = Object.assign(Object.create(virtual) as VirtualClock, { now: () => virtual.now() + skew });
  const stall = (ms: number) => (skew += ms);
  const taps: Array<{ pcm: Int16Array; atMs: number; stream: number }> = [];
  const player = new AplayStream({
    device: 'plughw:CARD=Device,DEV=0',
    sampleRate: 16000,
    leadMs: 120,
    tickMs: 20,
    idleCloseMs: 5000,
    stallMs: 3000,
    backoffMs: 250,
    backoffMaxMs: 5000,
    bin: 'aplay',
    clock,
    reference: { streamed: (pcm, atMs, stream) => taps.push({ pcm: pcm.slice(), atMs, stream }) },
    spawnAplay: () => new FakeAplay(clock) as unknown as ChildProcess,
    ...over,
  });
  /** Let the spawn event through, then run the clock in 5 ms steps. */
  const run = async (ms: number) => {
    await Promise.resolve();
    const end = clock.now() + ms;
    while (clock.now() < end) {
      virtual.advanceTo(Math.min(end, clock.now() + 5) - skew);
      await Promise.resolve();
    }
  };
  return { clock, player, taps, run, stall };
}
