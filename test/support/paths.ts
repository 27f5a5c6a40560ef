import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** ../shared beside the repo (CI lays it there), or $HARK_SHARED. */
export const SHARED = process.env.HARK_SHARED ? resolve(process.env.HARK_SHARED) : resolve(ROOT, '..', 'shared');
export const JFK_WAV = join(SHARED, 'audio', 'jfk.wav');
export const TINY_MODEL = join(SHARED, 'models', 'for-tests-ggml-tiny.en.bin');
export const POCKETSPHINX_DATA = '/usr/share/pocketsphinx/test/data';
export const HARK_BIN = join(ROOT, 'bin', 'hark.js');

/** A per-suite scratch directory under test-output/ (kept after the run for a look). */
export function outputDir(name: string): string {
  const dir = join(ROOT, 'test-output', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function requireFile(path: string): string {
  if (!existsSync(path)) throw new Error(`test fixture missing: ${path}`);
  return path;
}
