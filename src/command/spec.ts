import type { Mode } from '../core/effects.js';

/**
 * Frames and rules as they are written in YAML (router.frames), after validation has normalised
 * them: `do` is always a list, `exact`/`prefix`/`intent` always lists. This same shape is what
 * `hark config` prints, so a technician can copy a default frame out, edit it and load it back.
 */
/** What a kitchen rule listens for: timer requests (set, cancel, status, pause, resume, add, take off, in N minutes do X), list requests. */
export type KitchenFamily = 'timer' | 'list';
export const KITCHEN_FAMILIES: readonly KitchenFamily[] = ['timer', 'list'];

export type FrameKind = 'base' | 'query' | 'dictation' | 'voice' | 'confirm' | 'inventory';
export const FRAME_KINDS: readonly FrameKind[] = ['base', 'query', 'dictation', 'voice', 'confirm', 'inventory'];

export type VerbSpec =
  | string
  | { push: string }
  | { mode: Mode }
  | { say: string }
  /** One of the pack's replies (packs/<lang>/replies.yaml, one that takes no arguments), in the language of the frame or of the words. */
  | { reply: string }
  | { earcon: string }
  | { timer: 'set' | 'cancel' | 'status' }
  | { action: string; args?: Record<string, string | number | boolean> };

/** What the daemon's button can hand the router (a hold is mute; a long press is abort()). */
export type ButtonGesture = 'tap';
export const BUTTON_GESTURES: readonly ButtonGesture[] = ['tap'];

interface RuleCommon {
  do: VerbSpec[];
  /** Only in this mode (the base frame's always-listen catch-all). */
  when?: Mode;
  /**
   * The language the rule's words are in (a pack code), when not the device's first: a frame the
   * rule opens, and what it says, answer in it unless speech-to-text named the utterance's language.
   */
  lang?: string;
}

export type RuleSpec =
  | 'check-parent'
  | (RuleCommon & { exact: string[] })
  | (RuleCommon & { prefix: string[] })
  | (RuleCommon & { pattern: string })
  /** `whole`: the whole utterance is imperatives and command words only (language/imperatives.ts), so "next table wants the fish" is not continue. */
  | (RuleCommon & { intent: string[]; whole?: boolean })
  /** The kitchen language (src/language/) reads the utterance as a timer or list request; `do: [kitchen]` carries it out. */
  | (RuleCommon & { kitchen: KitchenFamily[] })
  | (RuleCommon & { 'catch-all': true })
  /**
   * The whole utterance is one of these phrases give or take a few misheard or extra words (see
   * near.ts): a tolerant exit. `maxEdits` defaults to 1, `skip` to DEFAULT_NEAR_SKIP (fillers are
   * always skipped too).
   */
  | (RuleCommon & { near: string[]; maxEdits?: number; skip?: string[] })
  /** Not an utterance: a physical gesture (CommandRouter.button), seen only by the top frame. */
  | (RuleCommon & { button: ButtonGesture })
  | { classifier: string; timeoutMs: number; do?: VerbSpec[]; labels?: Record<string, VerbSpec[]>; when?: Mode };

export interface FrameSpec {
  kind: FrameKind;
  rules: RuleSpec[];
  /** Where submitted text goes (query, dictation, inventory): a name from actions.targets. */
  target?: string;
  /** Query: silence after which the query is submitted (or closed if empty). */
  silenceMs?: number;
  /** Voice picker and confirm: no answer for this long closes the frame. */
  timeoutMs?: number;
}

export type FramesSpec = Record<string, FrameSpec>;

/** A voice the picker offers: the id the speech engine knows, and what a person says. */
export interface VoiceSpec {
  id: string;
  say: string[];
}

/** Verbs any frame may use. */
export const GENERIC_VERBS = ['pop', 'say-mode', 'ignore', 'kitchen', 'imperative'] as const;

/** Verbs that need the words of an utterance, so a button rule cannot use them (set-voice has its own check). */
export const WORD_VERBS: readonly string[] = ['append', 'kitchen', 'imperative'];

/** Verbs that act on a frame's own state, by kind. */
export const KIND_VERBS: Record<FrameKind, readonly string[]> = {
  base: [],
  query: ['append', 'submit', 'read-back'],
  dictation: ['append', 'submit', 'read-back'],
  inventory: ['append', 'undo', 'read-back', 'save', 'discard'],
  voice: ['set-voice'],
  confirm: ['yes', 'no', 'unclear'],
};

/** Settings that only make sense for some kinds. */
export const KIND_FIELDS: Record<FrameKind, readonly string[]> = {
  base: [],
  query: ['target', 'silenceMs'],
  dictation: ['target'],
  inventory: ['target'],
  voice: ['timeoutMs'],
  confirm: ['timeoutMs'],
};

export const VOCABULARIES = ['voices'] as const;
