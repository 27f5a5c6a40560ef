import { createRequire } from 'node:module';
import { errorMessage } from '../core/errors.js';
import type { NativeCanceller } from './canceller.js';
import type { NativeResampler } from './drift.js';

export interface NativeCancellerOptions {
  frameSize: number;
  filterLength: number;
  sampleRate: number;
  cancel: boolean;
  suppressResidual: boolean;
  denoise: boolean;
  noiseSuppressDb: number;
  echoSuppressDb: number;
  echoSuppressActiveDb: number;
}

/** The addon's canceller: `latency` is the samples its output lags the microphone by, on every frame. */
export type AddonCanceller = NativeCanceller & { readonly latency: number };

type AddonModule = {
  Canceller: new (opts: NativeCancellerOptions) => AddonCanceller;
  /** Absent from a build before the resampler: the reference then stays on the speaker's clock. */
  Resampler?: new (quality: number) => NativeResampler;
  /** glibc's malloc_trim(0): true when pages went back (see src/daemon/heap-trim.ts). */
  trimHeap?: () => boolean;
};

/** How to build hark-aec (speexdsp comes with it; a C/C++ compiler and node-gyp's Python are all it needs), from `dir`. */
export function rebuildAddon(dir?: string): string {
  const rebuild = 'npm rebuild hark-aec';
  return `sudo apt-get install build-essential python3 && ${dir ? `(cd ${dir} && ${rebuild})` : rebuild}`;
}

let cached: { addon: AddonModule } | { error: string } | null = null;

/**
 * Load hark-aec (native/hark-aec: speexdsp, built from its source with the addon by `npm ci`). A
 * missing build is a reason, not a crash: the daemon then keeps the echo gate.
 */
export function loadEchoAddon(): { addon: AddonModule } | { error: string } {
  if (cached) return cached;
  try {
    const require = createRequire(import.meta.url);
    cached = { addon: require('hark-aec') as AddonModule };
  } catch (err) {
    const why = errorMessage(err);
    const hint = `build it: ${rebuildAddon()}`;
    cached = { error: `the echo canceller (hark-aec) did not load: ${why.split('\n')[0]} — ${hint}` };
  }
  return cached;
}

/** A native canceller, or the reason there is none. */
export function createNativeCanceller(opts: NativeCancellerOptions): { canceller: AddonCanceller } | { error: string } {
  const loaded = loadEchoAddon();
  if ('error' in loaded) return loaded;
  try {
    return { canceller: new loaded.addon.Canceller(opts) };
  } catch (err) {
    return { error: `the echo canceller could not start: ${errorMessage(err)}` };
  }
}

/** speexdsp's resampler at `quality` (0-10), or the reason there is none. */
export function createNativeResampler(quality: number): { resampler: NativeResampler } | { error: string } {
  const loaded = loadEchoAddon();
  if ('error' in loaded) return loaded;
  if (!loaded.addon.Resampler) return { error: `hark-aec was built without its resampler — rebuild it: ${rebuildAddon()}` };
  try {
    return { resampler: new loaded.addon.Resampler(quality) };
  } catch (err) {
    return { error: `the echo reference's resampler could not start: ${errorMessage(err)}` };
  }
}

/** hark-aec's heap trim, or null where the addon did not load (or predates it). */
export function nativeHeapTrim(): (() => boolean) | null {
  const loaded = loadEchoAddon();
  return 'addon' in loaded && typeof loaded.addon.trimHeap === 'function' ? loaded.addon.trimHeap : null;
}
