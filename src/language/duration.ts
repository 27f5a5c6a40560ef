import type { DurationMatch } from './pack/durations.js';
import { english } from './pack/english.js';

/**
 * Spoken durations for timers, for callers that read English with nothing else known: "ten
 * minutes", "an hour and a half", "1:30", read by packs/en's duration words. A language's own
 * reader is its pack's (Language.durations).
 */
export type { DurationMatch };

/** Read a duration starting at words[i]: one or more parts. Null when no duration starts there. */
export function readDuration(words: readonly string[], i = 0): DurationMatch | null {
  return english().durations.read(words, i);
}

/** The whole of `words` as a duration, or null. */
export function parseDuration(words: readonly string[]): number | null {
  const m = readDuration(words, 0);
  return m && m.next === words.length ? m.seconds : null;
}

/** "1 hour 5 minutes", "90 seconds" → how hark says a duration back in English. Digits read well in espeak-ng. */
export function sayDuration(totalSeconds: number): string {
  return english().durations.say(totalSeconds);
}

/** The seconds in an English unit word ("minutes" → 60), or null. */
export function unitSeconds(w: string | undefined): number | null {
  const units = english().pack.durations.units;
  return w !== undefined && Object.hasOwn(units, w) ? units[w]! : null;
}
