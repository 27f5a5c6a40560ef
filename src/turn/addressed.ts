import { detectIntent } from '../intent/rules.js';
import { completeCommand } from '../router/complete.js';
import type { Mode } from '../router/effects.js';
import type { FramesSpec } from '../router/spec.js';
import { said } from '../language/text.js';
import { rulePhrases } from '../router/vocabulary.js';

/** Where the router stands when something is said over hark's voice. */
export interface RouterView {
  frames: FramesSpec;
  mode: Mode;
  /** Frame names, bottom to top. */
  stack: readonly string[];
  /** Inside the follow-up window: would these words be taken as a follow-up on what hark just did? */
  followUp?: (text: string) => boolean;
}

/**
 * Words that stop hark wherever they come in what is said ("wait, stop"): stopping it wrongly costs a
 * "repeat"; talking on over a cook who wants quiet costs more.
 */
const STOP_WORDS = new Set(['stop', 'wait', 'quiet', 'enough', 'cancel', 'pause', 'hush', 'shush']);
/** Seed 000's imperatives that are commands to hark's voice (said at the start). */
const VOICE_IMPERATIVES = new Set(['stop', 'repeat', 'continue', 'start-over']);

/** Frames whose every word is content (seed 001): dictation and inventory. */
const CONTENT_KINDS = new Set(['dictation', 'inventory']);

/** The top frame takes every word as content: the backchannel filter may let hark talk on, but never drops the words. */
export function takesEveryWord(view: Pick<RouterView, 'frames' | 'stack'>): boolean {
  const top = view.stack[view.stack.length - 1];
  const kind = top === undefined ? undefined : view.frames[top]?.kind;
  return kind !== undefined && CONTENT_KINDS.has(kind);
}

/**
 * Is this said to hark, or between two cooks? Seed 002 assumes one listener; a kitchen has many. In
 * wake-word mode, while no open frame takes free speech, only the wake phrase, a command of the
 * frames on top (their exact and near phrases, or a prefix), one of seed 000's imperatives to hark's
 * voice ("repeat", "stop", "say that again") or a stop word anywhere is addressed to hark; "behind
 * you" is not, and must not cut hark off. Always-listen mode, and a frame with a catch-all (an open
 * query, dictation, inventory), take everything: seed 002 as written. Pure.
 */
export function addressedToHark(text: string, view: RouterView): boolean {
  if (view.mode !== 'wake-word') return true;
  const s = said(text);
  if (!s.norm) return true;
  if (view.followUp?.(text)) return true;
  for (let i = view.stack.length - 1; i >= 0; i--) {
    const name = view.stack[i]!;
    const frame = view.frames[name];
    if (!frame) return true;
    if (frame.rules.some((r) => typeof r === 'object' && ('catch-all' in r || 'classifier' in r) && (r.when === undefined || r.when === view.mode))) return true;
    if (completeCommand(view.frames, name, text)) return true;
    if (rulePhrases(frame, ['prefix']).some((p) => startsWith(s.norm, said(p).norm))) return true;
    // Below this frame only when it hands on what it does not take.
    if (!frame.rules.includes('check-parent')) break;
  }
  if (VOICE_IMPERATIVES.has(detectIntent(s).name)) return true;
  return s.words.some((w) => STOP_WORDS.has(w));
}

function startsWith(norm: string, phrase: string): boolean {
  return phrase !== '' && (norm === phrase || norm.startsWith(`${phrase} `));
}
