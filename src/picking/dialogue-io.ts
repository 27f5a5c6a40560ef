import type { Clock } from '../core/clock.js';
import type { PickLedger } from './ledger.js';
import type { PickWords } from './words.js';

/** Where the picker is. Everything a step needs to say again lives in `prompt`. */
export type Step =
  | { k: 'signed-off' }
  | { k: 'operator' }
  | { k: 'pin'; operator: string }
  | { k: 'idle' }
  | { k: 'break'; back: Step }
  | { k: 'location' }
  | { k: 'quantity' }
  | { k: 'picked' }
  | { k: 'confirm-short'; picked: number };

export type StepName = Step['k'];

/** What the dialogue reports besides speech (simulate prints these; the debug page counts them). */
export type PickEvent =
  | { event: 'signed-on' | 'signed-off' | 'break' | 'resumed'; operator: string }
  | { event: 'confirmed'; assignment: string; pick: string; quantity: number; picked: number; short: boolean; seq: number; utteranceId: string }
  | { event: 'wrong-check' | 'skipped' | 'undone'; assignment: string; pick: string }
  | { event: 'assignment-started' | 'assignment-done'; assignment: string; picks: number }
  | { event: 'rate'; operator: string; wpm: number }
  | { event: 'outbox-over'; pending: number; max: number };

export interface DialogueOutput {
  /** `rate`: the operator's speaking rate, words a minute, on every line; `language`: the pack the line is in (its voice). */
  say(text: string, rate: number, language: string): void;
  event(e: PickEvent): void;
}

export interface DialogueOptions {
  /** The device's first language's words: what hark speaks until a picker speaks another. */
  words: PickWords;
  /** The device's other languages: a picker who speaks one of them is answered in it from then on. */
  others?: readonly PickWords[];
  ledger: PickLedger;
  clock: Clock;
  out: DialogueOutput;
  /** Operators hark knows, with their PIN if they have one; empty: any operator number, no PIN. */
  operators: readonly { id: string; pin?: string | undefined }[];
  /** Speaking rate, words a minute: where it starts, how far "faster"/"slower" go, and the step. */
  rate: { start: number; min: number; max: number; step: number };
}
