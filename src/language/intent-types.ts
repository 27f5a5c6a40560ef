/**
 * The intent taxonomy. `name` is the most specific label ("stop", "definition"); `kind`
 * is its family. Rules match on either (an `intent: [question]` rule matches every question).
 */
export type IntentKind = 'question' | 'imperative' | 'statement' | 'other';

export const IMPERATIVES = ['stop', 'repeat', 'continue', 'start-over', 'generate'] as const;
export const QUESTION_TYPES = ['definition', 'how-to', 'compare', 'troubleshoot'] as const;

export type ImperativeName = (typeof IMPERATIVES)[number];
export type QuestionName = (typeof QUESTION_TYPES)[number];
export type IntentName = ImperativeName | QuestionName | 'question' | 'statement' | 'other';

/** Every name a rule may ask for: the specific names and the kinds. */
export const INTENT_NAMES: readonly string[] = [...IMPERATIVES, ...QUESTION_TYPES, 'question', 'imperative', 'statement', 'other'];

export interface IntentSlots {
  /** "lock statement" from "what is a lock statement". */
  topic?: string;
  /** 20 from "generate 20 questions". */
  count?: number;
  /** "number 3", "last", "previous" from "repeat number 3". */
  reference?: string;
}

export interface Intent {
  kind: IntentKind;
  name: IntentName;
  slots: IntentSlots;
}
