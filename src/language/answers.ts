import type { TimerPick } from './requests.js';
import type { Situation } from './situation.js';
import { timerRefOf } from './timer-ref.js';

/**
 * Short answers: a kitchen's yes and no (the confirm frame's words), what silences a ringing timer,
 * and the answer to "Which timer?". Pure.
 */

/** Yes as a kitchen says it (normalised: "that's right" is "thats right"). */
export const YES = [
  'yes', 'yes please', 'yeah', 'yep', 'yup', 'yes yes', 'aye', 'sure', 'sure thing', 'okay', 'ok', 'ok then', 'okay then', 'alright', 'all right', 'correct',
  'right', 'thats right', 'thats correct', 'thats it', 'spot on', 'go ahead', 'go on', 'go on then', 'do it', 'do that', 'please do', 'confirm', 'affirmative',
  'absolutely', 'definitely', 'of course', 'sounds good', 'perfect', 'yes do it', 'go for it', 'why not', 'yes chef', 'oui', 'carry on',
];
export const NO = [
  'no', 'no thanks', 'no thank you', 'nope', 'nah', 'dont', 'do not', 'dont do it', 'dont bother', 'cancel', 'cancel that', 'never mind', 'nevermind', 'no way',
  'negative', 'forget it', 'not now', 'stop', 'wrong', 'thats wrong', 'leave it', 'no need', 'no chef', 'scrap that', 'skip it', 'hold off',
];

/** Words that, alone or together, stop a ring: "stop", "ok thanks", "got it", "turn it off". */
const RING_STOP_KEYS = new Set(['stop', 'ok', 'okay', 'thanks', 'thank', 'got', 'alright', 'enough', 'quiet', 'dismiss', 'silence', 'off', 'heard', 'cheers', 'shut', 'stopped']);
const RING_STOP_ALSO = new Set(['you', 'it', 'the', 'that', 'timer', 'timers', 'alarm', 'ringing', 'all', 'right', 'computer', 'hey', 'please', 'i', 'turn', 'up', 'now', 'thats', 'be', 'yes', 'yeah', 'cool', 'great', 'done', 'hark', 'very', 'much', 'ta', 'chef', 'knock', 'kill', 'switch', 'thing']);

/**
 * Said while a timer rings, these words silence it, with no wake word and in any frame: a cook
 * across the room says "ok", "thanks", "stop the alarm", "got it". Anything with another word in
 * it ("ok computer, set a timer ...") is an utterance like any other.
 */
export function stopsRinging(words: readonly string[]): boolean {
  return words.length > 0 && words.length <= 6 && words.some((w) => RING_STOP_KEYS.has(w)) && words.every((w) => RING_STOP_KEYS.has(w) || RING_STOP_ALSO.has(w));
}

const ALL_ANSWERS = ['both', 'both of them', 'all', 'all of them', 'all timers', 'all the timers', 'both timers', 'all three', 'every one', 'all of it'].map((a) => a.split(' '));
const POLITE = new Set(['please', 'uh', 'um', 'er', 'ok', 'okay', 'oh', 'so', 'just', 'thanks']);

/**
 * The answer to "Which timer: the pizza timer or the 5 minute timer?": "the pizza one", "pizza",
 * "the 5 minute timer", "both". Null when the words pick nothing (they are then an utterance like
 * any other).
 */
export function readTimerAnswer(input: readonly string[], situation: Situation): TimerPick | 'all' | null {
  const words = input.filter((w) => !POLITE.has(w));
  if (ALL_ANSWERS.some((a) => a.length === words.length && a.every((w, i) => words[i] === w))) return 'all';
  const ref = timerRefOf(words, situation) ?? (words.includes('timer') || words.includes('one') ? null : timerRefOf([...words, 'timer'], situation));
  if (!ref) return null;
  const p = ref.pick;
  return p.name || p.startSeconds !== undefined || p.latest ? p : null;
}
