// The environment systemd/hark.service gives hark (its Environment= lines): benchmarks run hark in it so their figures are the unit's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.js';

/** Environment=K=V lines of the unit (quoted values unquoted), and its MemoryMax. */
export function unitSettings(text: string): { env: Record<string, string>; memoryMax: string | null } {
  const env: Record<string, string> = {};
  for (const m of text.matchAll(/^Environment=(.+)$/gm)) {
    for (const pair of m[1]!.match(/"[^"]*"|\S+/g) ?? []) {
      const kv = pair.replace(/^"|"$/g, '');
      const eq = kv.indexOf('=');
      if (eq > 0) env[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
  }
  return { env, memoryMax: /^MemoryMax=(\S+)$/m.exec(text)?.[1] ?? null };
}

/** unitSettings of the project's own systemd/hark.service. */
export function harkUnit(): ReturnType<typeof unitSettings> {
  return unitSettings(readFileSync(join(ROOT, 'systemd', 'hark.service'), 'utf8'));
}
