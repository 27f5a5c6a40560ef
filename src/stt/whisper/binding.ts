import { accessSync, constants, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { Binding, TranscribeParams, TranscribeResult } from 'smart-whisper';
import { HarkError } from '../../core/errors.js';
import { addonBuildInfo, addonRefusal } from './addon-elf.js';
import { parseCpuinfo, type CpuInfo } from './cpu-features.js';

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
export type NativeParams = Partial<TranscribeParams<'detail', true>>;
export type NativeResult = TranscribeResult<'detail', true>;

let cached: NativeBinding | null = null;

/** The addon file hark loads (hark doctor reads the same one). */
export function addonFile(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('smart-whisper/package.json')), 'build', 'Release', 'smart-whisper.node');
}

/**
 * /proc/cpuinfo, parsed; HARK_CPUINFO names another file (an emulated check: qemu-user shows the
 * host's x86 cpuinfo to arm64 programs). null when unreadable.
 */
export function readCpuinfo(path = process.env.HARK_CPUINFO || '/proc/cpuinfo'): CpuInfo | null {
  try {
    return parseCpuinfo(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}

/** The one command that rebuilds whisper.cpp: with sudo when this user cannot write the addon (/opt/hark). */
export function rebuildCommand(root: string, addonDir: string): string {
  let writable = true;
  try {
    accessSync(addonDir, constants.W_OK);
  } catch {
    writable = false;
  }
  return `${writable ? '' : 'sudo '}bash ${join(root, 'scripts', 'build-whisper.sh')}`;
}

/** build-whisper.sh's stamp (node_modules/.hark-whisper-stamp) for an addon file: its target line. */
function stampTarget(file: string): string | undefined {
  try {
    const stamp = readFileSync(resolve(dirname(file), '..', '..', '..', '.hark-whisper-stamp'), 'utf8');
    return /^target (.+)$/m.exec(stamp)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Refuse an addon compiled for SIMD this CPU lacks (a card baked for a Pi 5 booted in a Pi 4): the
 * first inference would kill hark with SIGILL, which no handler can catch or explain. Reading the file
 * costs milliseconds once. Anything unreadable is left to the loader.
 */
export function checkAddonFitsCpu(file: string, cpu: CpuInfo | null = readCpuinfo()): void {
  let refusal: string | null;
  try {
    const root = resolve(dirname(file), '..', '..', '..', '..');
    refusal = addonRefusal(cpu, addonBuildInfo(readFileSync(file)), file, rebuildCommand(root, dirname(file)), stampTarget(file));
  } catch {
    return;
  }
  if (refusal) throw new HarkError(refusal, { exitCode: 2 });
}

/**
 * The addon prints whisper.cpp's log to stderr unless NODE_ENV is "production" when it is first
 * loaded (it decides once, in its module init): `quiet` sets it for that moment only.
 */
export function loadBinding(quiet: boolean): NativeBinding {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const file = addonFile();
  checkAddonFitsCpu(file);
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
