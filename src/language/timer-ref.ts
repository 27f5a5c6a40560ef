import { readDuration } from './duration.js';
import type { SlotMatch } from './match.js';
import type { TimerPick } from './requests.js';
import type { Situation } from './situation.js';

/**
 * `{timer}`: the words that point at a timer hark runs — "the pizza timer", "my 5 minute timer",
 * "timer for 1 hour", "the kitchen timer", "timer in the garage", "all my timers", "the last one",
 * and, while a timer of that name runs, the name alone: "the brisket". A name before "timer" may be
 * one hark does not have ("cancel the pasta timer" → "There is no pasta timer."), but never a verb
 * of the sentence: "scrap the rice timer" is never a timer called "scrap rice". Pure.
 */
export interface TimerRef {
  pick: TimerPick;
  /** "all my timers", "the timers", "both timers". */
  all: boolean;
}

/** Rooms a person may name. When device.area is not set, any of these means "here". */
export const ROOMS = ['kitchen', 'living room', 'lounge', 'dining room', 'bedroom', 'bathroom', 'garage', 'office', 'hallway', 'hall', 'basement', 'pantry', 'laundry', 'utility room', 'study', 'den', 'nursery', 'porch', 'patio', 'garden', 'cellar', 'attic'];

const DET = new Set(['the', 'my', 'our', 'your', 'that', 'this', 'those', 'these']);
const ALL = new Set(['all', 'every', 'both', 'each']);
const LATEST = new Set(['last', 'latest', 'newest', 'recent']);
const TIMER_WORDS = new Set(['timer', 'timers', 'countdown', 'countdowns', 'one', 'ones', 'alarm', 'alarms']);
const PLURAL = new Set(['timers', 'countdowns', 'ones', 'alarms']);
const TAIL_NAMED = new Set(['named', 'called', 'labelled', 'labeled']);
/**
 * Words that are never part of a timer's name: the verbs and question words of the sentences
 * around a timer, and the small words that join them. A name made of these is a misreading.
 */
const NAME_NEVER = new Set(
  (
    'for to on off of in at by from with is are was be been it and or please left remaining status how what whats long much time more less again still going running ' +
    'set done ready up down now there yet about a an the my our your all every some any new get got have has do does did will would can could should ' +
    'cancel stop end kill scrap bin ditch delete remove clear dismiss abort reset forget lose drop nix finish knock turn switch shut take cut shave ' +
    'add put stick give throw pop chuck whack bang increase extend lengthen bump push decrease reduce shorten lower pause hold freeze suspend resume ' +
    'unpause continue restart unfreeze carry start create make begin run check tell read show list needs need wants want go goes gone off when why ' +
    'we you i me us they he she that this those these which who whose someone anyone somebody beeping ringing sideways something'
  ).split(' '),
);

function roomAt(words: readonly string[], i: number, rooms: readonly string[]): { room: string; next: number } | null {
  for (const r of rooms) {
    const rs = r.split(' ');
    if (rs.every((w, k) => words[i + k] === w)) return { room: r, next: i + rs.length };
  }
  return null;
}

function known(s: Situation, name: string): boolean {
  return s.timers.some((t) => t.label === name);
}

/** The span words[0..] as a timer reference, or null (the whole span must be used). */
function parseRef(span: readonly string[], s: Situation): { ref: TimerRef; unknownName: boolean } | null {
  const rooms = s.area && !ROOMS.includes(s.area) ? [s.area, ...ROOMS] : ROOMS;
  let i = 0;
  let all = false;
  const pick: TimerPick = {};
  if (ALL.has(span[i]!)) {
    all = true;
    i++;
    if (span[i] === 'of') i++;
  }
  if (DET.has(span[i]!)) i++;
  if (span[i] === 'most' && LATEST.has(span[i + 1]!)) i++;
  if (LATEST.has(span[i]!)) {
    pick.latest = true;
    i++;
  }
  const d = readDuration(span, i);
  if (d && d.seconds > 0) {
    pick.startSeconds = d.seconds;
    i = d.next;
  }
  let j = i;
  while (j < span.length && !TIMER_WORDS.has(span[j]!)) j++;
  let nameWords: readonly string[];
  let place = false;
  if (j < span.length) {
    nameWords = span.slice(i, j);
    // "one" names a timer only after a describing word: "the pizza one", "the 5 minute one", "the last one".
    if ((span[j] === 'one' || span[j] === 'ones') && !nameWords.length && pick.startSeconds === undefined && !pick.latest) return null;
    if (PLURAL.has(span[j]!)) all = true;
    i = j + 1;
    if (TAIL_NAMED.has(span[i]!) && i + 1 < span.length && !nameWords.length) {
      nameWords = span.slice(i + 1);
      i = span.length;
    } else if (span[i] === 'for' && i + 1 < span.length) {
      const fd = readDuration(span, i + 1);
      if (fd && fd.next === span.length && pick.startSeconds === undefined) {
        pick.startSeconds = fd.seconds;
        i = span.length;
      } else if (!nameWords.length) {
        nameWords = span.slice(span[i + 1] === 'the' ? i + 2 : i + 1);
        i = span.length;
      }
    } else if ((span[i] === 'in' || span[i] === 'on') && i + 1 < span.length) {
      const r = roomAt(span, span[i + 1] === 'the' ? i + 2 : i + 1, rooms);
      if (r && r.next === span.length) {
        pick.area = { room: r.room, here: s.area === undefined || s.area === r.room };
        place = true;
        i = span.length;
      }
    }
    if (i !== span.length) return null;
  } else {
    // No "timer": only the name of one that runs ("the brisket").
    nameWords = span.slice(i);
    if (!nameWords.length || !known(s, nameWords.join(' '))) return null;
  }
  if (nameWords.length > 3 || nameWords.some((w) => NAME_NEVER.has(w))) return null;
  if (nameWords.length) {
    const r = roomAt(nameWords, 0, rooms);
    const here = r !== null && (s.area === undefined || s.area === r.room);
    // A room word is this device's room, or a name ("the garage timer" on a kitchen device).
    if (r && r.next === nameWords.length && (here || place) && !known(s, nameWords.join(' '))) pick.area = { room: r.room, here };
    else pick.name = nameWords.join(' ');
  }
  return { ref: { pick, all }, unknownName: pick.name !== undefined && !known(s, pick.name) };
}

/** Every span from `at` that reads as a timer reference. */
export function readTimerRef(words: readonly string[], at: number, s: Situation): SlotMatch[] {
  const out: SlotMatch[] = [];
  for (let end = at + 1; end <= Math.min(words.length, at + 10); end++) {
    const r = parseRef(words.slice(at, end), s);
    if (!r) continue;
    // A name hark does not have is worth less: it explains the words, but names nothing real.
    const n = end - at;
    out.push({ end, value: r.ref, weight: r.unknownName ? 0.6 * n : 0.9 * n });
  }
  return out;
}

/** The whole of `words` as a timer reference, or null. */
export function timerRefOf(words: readonly string[], s: Situation): TimerRef | null {
  return words.length ? (parseRef(words, s)?.ref ?? null) : null;
}
