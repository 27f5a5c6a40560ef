import { HarkError, errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';

/** One started thing the daemon owns (store, server, speech, GPIO, STT, capture...). */
export interface Component {
  readonly name: string;
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

/**
 * Starts components in order and stops them in reverse. A component that fails to start stops the
 * ones already started (in reverse) and the error propagates; a component that fails to stop is
 * logged and the rest still stop, within a deadline, so SIGTERM always ends the process.
 */
export class Lifecycle {
  private readonly started: Component[] = [];
  constructor(private readonly logger: Logger) {}

  async start(components: Component[]): Promise<void> {
    for (const c of components) {
      try {
        await c.start();
        this.started.push(c);
        this.logger.debug('started', { component: c.name });
      } catch (err) {
        // Not logged here: the command prints the error once (it was printed twice). A bug (not a
        // HarkError) keeps the name of the component it came from.
        this.logger.debug('start failed', { component: c.name, error: errorMessage(err) });
        await this.stop(3000);
        if (err instanceof HarkError) throw err;
        throw new Error(`${c.name} failed to start: ${errorMessage(err)}`, { cause: err });
      }
    }
  }

  names(): string[] {
    return this.started.map((c) => c.name);
  }

  async stop(deadlineMs: number): Promise<void> {
    const until = Date.now() + deadlineMs;
    while (this.started.length > 0) {
      const c = this.started.pop()!;
      const left = Math.max(50, until - Date.now());
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve(c.stop()),
          new Promise<void>((_, reject) => {
            timer = setTimeout(() => reject(new Error(`did not stop within ${left} ms`)), left);
          }),
        ]);
        this.logger.debug('stopped', { component: c.name });
      } catch (err) {
        this.logger.error('stop failed', { component: c.name, error: errorMessage(err) });
      } finally {
        clearTimeout(timer);
      }
    }
  }
}
