import type { RouterConfig } from '../config/sections/router.js';
import { said } from './text.js';
import { rulePhrases } from './vocabulary.js';

/**
 * Is this text, as it stands, a whole command of the top frame — one of its `exact` phrases, or a
 * `near` phrase said exactly ("yes", "no", "stop", "repeat", "end dictation")? Then nothing the person might still add can make it a
 * different command, and hark can act on a transcript of the words so far without waiting out the
 * rest of the VAD hangover. Prefix and pattern rules are not complete: "computer set a timer" may go
 * on with "for five minutes". Pure.
 */
export function completeCommand(frames: RouterConfig['frames'], top: string | undefined, text: string): boolean {
  const norm = said(text).norm;
  if (!norm || top === undefined) return false;
  // An exact phrase, or a tolerant (near) one said exactly.
  const frame = (frames as Record<string, unknown>)[top];
  return rulePhrases(frame, ['exact', 'near']).some((p) => said(p).norm === norm);
}
