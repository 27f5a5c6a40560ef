import { stopsRinging } from './answers.js';
import { defaultLanguage } from './default.js';
import type { TimerCommand } from './requests.js';
import { NOTHING_OWNED } from './situation.js';

/**
 * The timer half of the kitchen language, for callers that read a timer request with nothing else
 * known (the intent pass reading a model's object; older YAML `timer:` verbs). The language itself
 * is in packs/<lang>/ (sentences.yaml: the sentences) and src/language/ (timer-ref.ts: which timer is meant).
 */
export type { TimerCommand, TimerPick } from './requests.js';
export { stopsRinging };

export interface TimerLanguageOptions {
  /** This device's room (config device.area), lower case: "the kitchen timer" is then this device's timer. */
  area?: string;
}

/** Normalised words as a timer command, with no timer known to be running. Null when they are not about timers. */
export function parseTimerCommand(words: readonly string[], opts: TimerLanguageOptions = {}): TimerCommand | null {
  const r = defaultLanguage().read(words, { ...NOTHING_OWNED, ...(opts.area ? { area: opts.area } : {}) }, ['timer']);
  return r?.kind === 'timer' ? r.command : null;
}
