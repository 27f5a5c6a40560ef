import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPLIES } from '../../src/language/pack/catalog.js';
import { packLanguage } from '../../src/language/pack/english.js';

/**
 * Every reply hark says by name (a `reply('…')`, `phrase('…')` or a frame's `say('…')` in src/) is
 * one the catalog holds, so each pack is held to it at start, and each of the shipped packs says it.
 */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function keysUsed(): Map<string, string> {
  const used = new Map<string, string>();
  for (const file of sources('src')) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!/\b(reply|phrase|say)\(/.test(line)) continue;
      for (const m of line.matchAll(/'([a-z_]+(?:\.[a-z_]+)+)'/g)) if (!/^\w+\.(ts|js|yaml)$/.test(m[1]!)) used.set(m[1]!, file);
    }
  }
  return used;
}

describe('the replies hark says', () => {
  const used = keysUsed();

  it('finds the replies of timers, lists and the frames in the code', () => {
    for (const k of ['timer.set', 'timer.which', 'timer.choice', 'list.not_caught', 'confirm.cancelled', 'continue.nothing', 'mode.always'])
      expect(used.has(k), k).toBe(true);
  });

  it('are all in the catalog', () => {
    const unknown = [...used].filter(([k]) => !Object.hasOwn(REPLIES, k) && !k.startsWith('join.'));
    expect(unknown).toEqual([]);
  });

  it.each(['en', 'es', 'de'])('are all written in the %s pack', (code) => {
    const lang = packLanguage(code);
    const missing = Object.keys(REPLIES).filter((k) => !lang.pack.messages.has(k));
    expect(missing).toEqual([]);
  });
});
