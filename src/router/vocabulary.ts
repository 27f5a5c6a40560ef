import type { RouterConfig } from '../config/sections/router.js';

/**
 * The words the router listens for (its exact, prefix and near rules), as Whisper's initial prompt:
 * vocabulary biasing. The daemon and `hark replay` both use this, so a replay biases as the Pi does.
 */
export function routerVocabulary(frames: RouterConfig['frames']): string[] {
  const words = new Set<string>();
  for (const frame of Object.values(frames ?? {})) {
    for (const rule of (frame as { rules?: unknown[] }).rules ?? []) {
      const r = rule as { exact?: unknown; prefix?: unknown; near?: unknown };
      for (const list of [r.exact, r.prefix, r.near]) if (Array.isArray(list)) for (const w of list) if (typeof w === 'string' && !w.startsWith('@')) words.add(w);
    }
  }
  return [...words];
}
