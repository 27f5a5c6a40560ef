import { parseTimerCommand } from './timer-language.js';

/**
 * The duration and name of a timer to start, from the words of a request ("a ten minute pasta
 * timer", "timer for an hour and a half for the roast", "ten minutes"): the start case of the
 * timer language (timer-language.ts), for the intent pass, which reads a model's free-text object.
 */
export interface TimerRequest {
  seconds: number;
  label?: string;
}

/** Null when no duration can be found in the words. */
export function parseTimerRequest(words: readonly string[]): TimerRequest | null {
  const asked = words.includes('timer') ? words : [...words, 'timer'];
  // Always a start here: the words are what a timer should be set for, never a cancel or a status.
  const c = parseTimerCommand(['set', ...asked]);
  if (!c || c.op !== 'start' || c.seconds === null) return null;
  return c.name ? { seconds: c.seconds, label: c.name } : { seconds: c.seconds };
}
