import { HarkError, errorMessage } from '../core/errors.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';

/**
 * Run a command body and turn failures into one clear line on stderr and an exit code.
 * A HarkError is expected (bad input, missing file); anything else is a bug and says so.
 */
export function action<A extends unknown[]>(fn: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (err) {
      if (err instanceof HarkError) {
        process.stderr.write(`hark: ${err.message}\n`);
        process.exitCode = err.exitCode;
      } else {
        process.stderr.write(`hark: unexpected error: ${errorMessage(err)}\n`);
        if (process.env.HARK_DEBUG) process.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
        process.exitCode = 1;
      }
    }
  };
}

export function loadConfigFor(opts: { config?: string }): LoadedConfig {
  return loadConfig({ path: opts.config });
}

/** Write to stdout and resolve once it is flushed (so piping `| head` and exit codes behave). */
export function out(line: string): void {
  process.stdout.write(line + '\n');
}
