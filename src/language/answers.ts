import { english } from './pack/english.js';
import type { Language } from './pack/language.js';
import type { TimerPick } from './requests.js';
import type { Situation } from './situation.js';
import { timerRefOf } from './timer-ref.js';

/**
 * Short answers: a kitchen's yes and no (the confirm frame's words), what silences a ringing timer,
 * and the answer to "Which timer?", in a language's words (packs/<lang>/words.yaml, timers.yaml).
 * Pure.
 */

/**
 * Said while a timer rings, these words silence it, with no wake word and in any frame: a cook
 * across the room says "ok", "thanks", "stop the alarm", "got it". Anything with another word in
 * it ("ok computer, set a timer ...") is an utterance like any other.
 */
export function stopsRinging(words: readonly string[], lang: Language = english()): boolean {
  const keys = lang.list('words', 'ring_stop');
  const also = lang.list('words', 'ring_stop_also');
  return words.length > 0 && words.length <= 6 && words.some((w) => keys.has(w)) && words.every((w) => keys.has(w) || also.has(w));
}

/**
 * Do the words open with what would stop a ring said alone: a run of ring-stop words and the words
 * they come with that holds a ring-stop word ("turn it off, and then …")? The same lists as
 * stopsRinging, so what stops a ring alone also opens a long segment while one rings.
 */
export function opensWithRingStop(words: readonly string[], lang: Language = english()): boolean {
  const keys = lang.list('words', 'ring_stop');
  const also = lang.list('words', 'ring_stop_also');
  for (const w of words) {
    if (keys.has(w)) return true;
    if (!also.has(w)) return false;
  }
  return false;
}

/**
 * The answer to "Which timer: the pizza timer or the 5 minute timer?": "the pizza one", "pizza",
 * "the 5 minute timer", "both". Null when the words pick nothing (they are then an utterance like
 * any other).
 */
export function readTimerAnswer(input: readonly string[], situation: Situation, lang: Language = english()): TimerPick | 'all' | null {
  const polite = lang.list('timers', 'answer_polite');
  const words = input.filter((w) => !polite.has(w));
  if (lang.list('timers', 'answer_all').phrases.some((a) => a.length === words.length && a.every((w, i) => words[i] === w))) return 'all';
  const timerWords = lang.list('timers', 'words');
  const timer = lang.pack.timers.free_text_ends[0]!;
  const ref = timerRefOf(words, situation, lang) ?? (words.some((w) => timerWords.has(w)) ? null : timerRefOf([...words, timer], situation, lang));
  if (!ref) return null;
  const p = ref.pick;
  return p.name || p.startSeconds !== undefined || p.latest ? p : null;
}
