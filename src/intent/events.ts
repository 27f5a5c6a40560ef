import type { IntentKind } from '../store/records.js';

/**
 * The intent pass on the bus, for the debug page and anything else that listens. The same records
 * go to the store's intents table when a store is given.
 */
export interface IntentRecord {
  kind: IntentKind;
  intent: string | null;
  target: string | null;
  /** What was heard (the submitted text, or the always-listen batch). */
  text: string;
  /** Why a reply was ambiguous, or why a proposal was discarded. */
  reason: string | null;
  model: string;
  /** The model call's wall time, retries included. */
  latencyMs: number;
  utteranceIds: string[];
  slots?: Record<string, unknown>;
}

declare module '../core/bus.js' {
  interface HarkEvents {
    'intent.record': IntentRecord;
    /** The model became unreachable (once per outage) or answered again. */
    'intent.model': { state: 'down' | 'up'; reason: string };
  }
}
