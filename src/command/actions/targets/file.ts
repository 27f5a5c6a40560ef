import { OneAtATime } from '../../../core/one-at-a-time.js';
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errorMessage } from '../../../core/errors.js';
import { DeliveryError, type Delivery, type Target } from './target.js';

/**
 * Appends one JSON line per delivery. Writes are chained so concurrent deliveries never interleave
 * inside a line; the directory is created on first use.
 */
export class FileTarget implements Target {
  readonly type = 'file';
  /** Appends one at a time, in order: two deliveries never interleave their lines. */
  private readonly line = new OneAtATime();
  constructor(
    readonly name: string,
    readonly path: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  describe(): string {
    return `file ${this.path}`;
  }

  deliver(d: Delivery): Promise<string | undefined> {
    const line = JSON.stringify({ target: this.name, writtenAt: this.now().toISOString(), ...d }) + '\n';
    return this.line.run(async () => {
      try {
        await mkdir(dirname(this.path), { recursive: true });
        await appendFile(this.path, line, 'utf8');
        return this.path;
      } catch (err) {
        throw new DeliveryError(`cannot append to ${this.path}: ${errorMessage(err)}`, 1);
      }
    });
  }
}
