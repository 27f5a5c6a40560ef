import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { HARK_BIN } from './paths.js';

export type HarkEvent = { type: string } & Record<string, unknown>;

/** A real `hark run --json` child: its events as they arrive, waiting for one, and its exit. */
export class HarkProcess {
  readonly events: HarkEvent[] = [];
  /** Wall-clock ms at which each event line arrived (same order as `events`). */
  readonly receivedAt: number[] = [];
  readonly stderr: string[] = [];
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private waiters: { pred: (e: HarkEvent) => boolean; resolve: (e: HarkEvent) => void }[] = [];

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [HARK_BIN, 'run', '--json', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      let e: HarkEvent;
      try {
        e = JSON.parse(line) as HarkEvent;
      } catch {
        this.stderr.push(`(stdout, not JSON) ${line}`);
        return;
      }
      this.events.push(e);
      this.receivedAt.push(Date.now());
      this.waiters = this.waiters.filter((w) => (w.pred(e) ? (w.resolve(e), false) : true));
    });
    createInterface({ input: this.child.stderr! }).on('line', (l) => this.stderr.push(l));
    this.exited = new Promise((resolve) => this.child.on('exit', (code, signal) => resolve({ code, signal })));
  }

  /** The first event (already seen or still to come) matching `pred`; rejects after `timeoutMs`. */
  waitFor(pred: (e: HarkEvent) => boolean, timeoutMs: number, what: string): Promise<HarkEvent> {
    const seen = this.events.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const w = { pred, resolve: (e: HarkEvent) => (clearTimeout(t), resolve(e)) };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last stderr:\n${this.stderr.slice(-15).join('\n')}`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  of(type: string): HarkEvent[] {
    return this.events.filter((e) => e.type === type);
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (this.child.exitCode === null) this.child.kill(signal);
  }
}
