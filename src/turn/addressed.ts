import type { Mode } from '../core/effects.js';
import type { FramesSpec } from '../command/spec.js';
import { said } from '../language/text.js';

/** Where the router stands when something is said over hark's voice. */
export interface RouterView {
  frames: FramesSpec;
  mode: Mode;
  /** Frame names, bottom to top. */
  stack: readonly string[];
  /**
   * Would hark take these words now (CommandCore.hears)? The command core's own answer: the rules
   * of the open frames read by the kitchen language, the follow-up window, a ring, "Which timer?".
   */
  hears: (text: string, language?: string) => boolean;
}

/** Frames whose every word is content: dictation and inventory. */
const CONTENT_KINDS = new Set(['dictation', 'inventory']);

/** The top frame takes every word as content: the backchannel filter may let hark talk on, but never drops the words. */
export function takesEveryWord(view: Pick<RouterView, 'frames' | 'stack'>): boolean {
  const top = view.stack[view.stack.length - 1];
  const kind = top === undefined ? undefined : view.frames[top]?.kind;
  return kind !== undefined && CONTENT_KINDS.has(kind);
}

/**
 * Is this said to hark, or between two cooks? The interruption filter assumes one listener; a kitchen has
 * many (docs/decisions.md#is-it-said-to-hark-or-between-two-cooks). In wake-word mode the answer is
 * the command core's: words are said to hark when hark would act on
 * them now — the wake phrase, a command of the open frames, one of the imperatives that is
 * the whole of what was said ("stop", "alright, carry on"), a follow-up inside the window. So a line
 * between cooks that only starts with a command word ("repeat order for table two") does not cut
 * hark off, and what does cut it off is what the router then acts on: one idea of a command, not
 * two. Always-listen mode takes everything. Words heard in a language named
 * are read in it first, as the router will read them. Pure, given `hears`.
 */
export function addressedToHark(text: string, view: RouterView, language?: string): boolean {
  if (view.mode !== 'wake-word') return true;
  if (!said(text).norm) return true;
  return view.hears(text, language);
}
