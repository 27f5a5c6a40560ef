import type { RouterConfig } from './config.js';

type PhraseKind = 'exact' | 'prefix' | 'near';

/**
 * The literal phrases of a frame's rules of these kinds, in rule order, as the YAML gives them (a
 * phrase or a list of phrases; `@voices`-style vocabulary references left out).
 */
export function rulePhrases(frame: unknown, kinds: readonly PhraseKind[]): string[] {
  const out: string[] = [];
  for (const rule of (frame as { rules?: unknown[] } | undefined)?.rules ?? []) {
    const r = rule as Partial<Record<PhraseKind, unknown>>;
    for (const kind of kinds) {
      const v = r[kind];
      for (const p of typeof v === 'string' ? [v] : Array.isArray(v) ? v : []) if (typeof p === 'string' && !p.startsWith('@')) out.push(p);
    }
  }
  return out;
}

/**
 * The words the router listens for (its exact, prefix and near rules), as Whisper's initial prompt:
 * vocabulary biasing. The daemon and `hark replay` both use this, so a replay biases as the Pi does.
 */
export function routerVocabulary(frames: RouterConfig['frames']): string[] {
  const words = new Set<string>();
  for (const frame of Object.values(frames ?? {})) for (const p of rulePhrases(frame, ['exact', 'prefix', 'near'])) words.add(p);
  return [...words];
}
