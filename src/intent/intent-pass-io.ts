import type { Language } from '../language/pack/language.js';
import type { IntentConfig } from './config.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { IntentInput, RowLink } from '../store/records.js';
import type { IntentSpec } from './intent-spec.js';
import type { ListBook } from '../command/lists.js';
import type { ProposalModel } from './proposal-model.js';
import type { ProposalSlots } from './proposal-slots.js';

export interface IntentRecordStore {
  addIntent(i: IntentInput & RowLink): number | null;
}

export interface IntentPassOptions {
  config: IntentConfig;
  model: ProposalModel;
  clock: Clock;
  lists: ListBook;
  log: Logger;
  /** Where proposal/ambiguous/commit/discard rows go (the SQLite store). */
  store?: IntentRecordStore;
  bus?: Bus;
  /** True when actions.forward sends the action to a target (the manager pager). */
  forwarded?: (action: string) => boolean;
  /**
   * True when the frame's own target takes what the model cannot place among hark's intents (Home
   * Assistant's conversation agent): then the pass hands it over instead of asking to rephrase.
   */
  handOver?: (frame: string | undefined) => boolean;
  /** The device's first language: the confirmation's "Say yes or no." and "Cancelled." in its words (English without). */
  language?: Language;
  /** Every language of the device: a request said in one of them (a submission's `lang`) is confirmed in it. */
  languages?: readonly Language[];
}

export type Judged =
  { status: 'PROPOSED'; intent: IntentSpec; target: string | null; slots: ProposalSlots } | { status: 'AMBIGUOUS'; reason: string; intent?: IntentSpec };

export interface Heard {
  text: string;
  ids: readonly string[];
  /** The language it was said in, when not the device's first. */
  lang?: string;
}

/** What hark will say once the request is submitted, worked out ahead (prepare()). */
export interface PreparedProposal {
  /** The yes/no question or the clarifying question; null when nothing can be said ahead (the model is away). */
  spoken: string | null;
  /** The language it is said in, when not the device's first (the voice that renders it ahead is that language's). */
  lang?: string;
}
