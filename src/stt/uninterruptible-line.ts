import { OneAtATime } from '../core/one-at-a-time.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { EngineId } from '../core/utterance.js';
import { EngineFailure } from './types.js';

/**
 * The calls of an engine that works on one thing at a time and cannot be interrupted (whisper.cpp:
 * whisper_full() runs to its end once started). Each call waits its turn. One that passes its
 * deadline (counted from the call, its wait included) fails at once with `deadline`; its work still
 * runs to its end, and while it does it is `abandoned` — a call made now would wait behind it for a
 * result nobody wants, which the transcriber uses to send the segment to a fallback
 * engine instead. A call given up on before its turn never starts.
 *
 * Pure apart from the injected clock: tests drive it with a virtual one.
 * Why: docs/decisions.md#whispers-deadline-counts-from-the-segments-close.
 */
export class UninterruptibleLine {
  private readonly line = new OneAtATime();
  private abandonedRunning = 0;
  private started = 0;
  /** Calls that failed with `deadline`. */
  late = 0;

  constructor(
    private readonly engine: EngineId,
    private readonly clock: Clock,
    /** A late call's result came in after all (for the log). */
    private readonly onDiscarded: (ms: number) => void = () => {},
  ) {}

  /** Calls past their deadline still running: a call made now waits behind them. */
  get abandoned(): number {
    return this.abandonedRunning;
  }

  /** While calls past their deadline still run: why a call made now would wait behind them; else null. */
  busyReason(): string | null {
    const n = this.abandonedRunning;
    if (n === 0) return null;
    return `busy with ${n === 1 ? 'an inference' : `${n} inferences`} past the deadline (it cannot be stopped)`;
  }

  /** Calls whose work started (given-up ones that never started are not counted). */
  get calls(): number {
    return this.started;
  }

  /** Resolves when every call so far has finished its work. */
  idle(): Promise<void> {
    return this.line.idle();
  }

  /** Run `work` in its turn; rejects with an EngineFailure (`deadline`, or `error` for anything `work` throws that is not one). */
  run<T>(deadlineMs: number, work: () => Promise<T>): Promise<T> {
    const calledAt = this.clock.now();
    const call = { gaveUp: false, running: false, finished: false };
    const done = this.line.run(async () => {
      // Given up on while it waited its turn: nobody wants its result, so it never starts.
      if (call.gaveUp) throw new EngineFailure(this.engine, 'deadline', 'given up before it started');
      call.running = true;
      this.started++;
      try {
        return await work();
      } finally {
        call.finished = true;
        if (call.gaveUp) this.abandonedRunning--;
      }
    });
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const timer = this.clock.setTimer(deadlineMs, () => {
        if (settled) return;
        settled = true;
        call.gaveUp = true;
        if (call.running && !call.finished) this.abandonedRunning++;
        this.late++;
        reject(new EngineFailure(this.engine, 'deadline', `no result within ${deadlineMs} ms`));
      });
      done.then(
        (v) => {
          this.clock.clearTimer(timer);
          if (settled) {
            this.onDiscarded(Math.round(this.clock.now() - calledAt));
            return;
          }
          settled = true;
          resolve(v);
        },
        (err: unknown) => {
          this.clock.clearTimer(timer);
          if (settled) return;
          settled = true;
          reject(err instanceof EngineFailure ? err : new EngineFailure(this.engine, 'error', errorMessage(err), { cause: err }));
        },
      );
    });
  }
}
