/**
 * An error meant for a person: its message already says what was wrong and, where it can, what to do.
 * The CLI prints it as one line (no stack trace) and exits with `exitCode`.
 */
export class HarkError extends Error {
  readonly exitCode: number;
  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'HarkError';
    this.exitCode = options.exitCode ?? 1;
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
