import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Binding, TranscribeParams, TranscribeResult } from 'smart-whisper';

/**
 * smart-whisper's native addon, loaded directly rather than through the package's index.
 *
 * Why not `import { Whisper } from 'smart-whisper'`:
 *  - its Whisper class frees the model after `offload` seconds idle (default 300) and reloads it on
 *    the next call — the reload-per-command cost hark exists to avoid;
 *  - it keeps every task's promise in an array that is never emptied (a leak in a daemon);
 *  - importing the index creates ~/.smart-whisper/models, which throws for a system user without a
 *    writable home (ProtectHome=, /nonexistent) and would stop the daemon from starting.
 * The addon itself is what keeps a model in memory (WhisperModel) and runs whisper_full() on a libuv
 * worker thread, so inference stays off the event loop.
 */
export type NativeBinding = typeof Binding;
export type NativeModel = InstanceType<typeof Binding.WhisperModel>;
export type NativeParams = Partial<TranscribeParams<'detail', false>>;
export type NativeResult = TranscribeResult<'detail', false>;

let cached: NativeBinding | null = null;

/**
 * The addon prints whisper.cpp's log to stderr unless NODE_ENV is "production" when it is first
 * loaded (it decides once, in its module init): `quiet` sets it for that moment only.
 */
export function loadBinding(quiet: boolean): NativeBinding {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('smart-whisper/package.json')), 'build', 'Release', 'smart-whisper.node');
  const prev = process.env.NODE_ENV;
  if (quiet) process.env.NODE_ENV = 'production';
  try {
    cached = require(file) as NativeBinding;
  } finally {
    if (quiet) {
      if (prev === undefined) delete process.env.NODE_ENV;
      else process.env.NODE_ENV = prev;
    }
  }
  return cached;
}
