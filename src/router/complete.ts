import type { RouterConfig } from '../config/sections/router.js';
import { said } from './text.js';

/**
 * Is this text, as it stands, a whole command of the top frame — one of its `exact` phrases, or a `near` phrase said exactly ("yes",
 * "no", "stop", "repeat", "end dictation")? Then nothing the person might still add can make it a
 * different command, and hark can act on a transcript of the words so far without waiting out the
 * rest of the VAD hangover. Prefix and pattern rules are not complete: "computer set a timer" may go
 * on with "for five minutes". Pure.
 */
export function completeCommand(frames: RouterConfig['frames'], top: string | undefined, text: string): boolean {
  const norm = said(text).norm;
  if (!norm || top === undefined) return false;
  const frame = (frames as Record<string, { rules?: unknown[] } | undefined>)[top];
  for (const rule of frame?.rules ?? []) {
    // An exact phrase, or a tolerant (near) one said exactly.
    const r = rule as { exact?: unknown; near?: unknown };
    const list = [r.exact, r.near].flatMap((x) => (typeof x === 'string' ? [x] : Array.isArray(x) ? x : []));
    for (const p of list) if (typeof p === 'string' && !p.startsWith('@') && said(p).norm === norm) return true;
  }
  return false;
}
