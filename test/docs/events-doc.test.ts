import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

/**
 * docs/events.md is what a technician reads to make sense of `hark run --json` and the debug page's
 * stream: every event a module declares on the bus, and every effect of the command core, must be
 * there. A new event without a line in the page fails here.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The event names a file adds to HarkEvents (declare module '…/core/bus.js' { interface HarkEvents { … } }). */
function declaredEvents(text: string): string[] {
  const m = /interface HarkEvents \{([\s\S]*?)\n {0,2}\}/.exec(text);
  if (!m) return [];
  const body = m[1]!.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  // Only the interface's own keys, not the fields of a payload written over several lines.
  const names: string[] = [];
  let depth = 0;
  for (const line of body.split('\n')) {
    const key = depth === 0 ? /^\s*'?([a-z][a-z0-9.-]*)'?\s*:/.exec(line) : null;
    if (key) names.push(key[1]!);
    for (const c of line) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
  }
  return names;
}

describe('docs/events.md lists every event', () => {
  const page = readFileSync(join(ROOT, 'docs', 'events.md'), 'utf8');
  const listed = new Set([...page.matchAll(/^\| `([a-z][a-z0-9.-]*)` \|/gm)].map((m) => m[1]!));

  it('every bus event a module declares', () => {
    const missing: string[] = [];
    for (const f of sources(join(ROOT, 'src'))) {
      for (const e of declaredEvents(readFileSync(f, 'utf8'))) if (!listed.has(e)) missing.push(`${e} (${relative(ROOT, f)})`);
    }
    expect(missing).toEqual([]);
  });

  it('every effect of the command core', () => {
    const effects = readFileSync(join(ROOT, 'src', 'core', 'effects.ts'), 'utf8');
    const types = [...effects.matchAll(/\|\s*\{\s*type:\s*'([a-z.-]+)'/g)].map((m) => m[1]!);
    expect(types.length).toBeGreaterThan(10);
    expect(types.filter((t) => !listed.has(t))).toEqual([]);
  });
});
