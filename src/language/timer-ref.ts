import type { SlotMatch } from './match.js';
import { english } from './pack/english.js';
import type { Language, ListKey } from './pack/language.js';
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
function parseRef(span: readonly string[], s: Situation, lang: Language): { ref: TimerRef; unknownName: boolean } | null {
  const t = lang.pack.timers;
  const here = t.rooms;
  const rooms = s.area && !here.includes(s.area) ? [s.area, ...here] : here;
  const w = (key: ListKey<'timers'>) => lang.list('timers', key);
  const ALL = w('all');
  const DET = w('determiners');
  const LATEST = w('latest');
  const TIMER_WORDS = w('words');
  const PLURAL = w('plural');
  const NAME_NEVER = w('name_never');
  const FOR = w('for');
  const IN = w('in');
  const THE = w('the');
  const named = w('named');
  const of = lang.list('durations', 'of');
  let i = 0;
  let all = false;
  const pick: TimerPick = {};
  if (ALL.has(span[i])) {
    all = true;
    i++;
    if (of.has(span[i])) i++;
  }
  if (DET.has(span[i])) i++;
  if (w('latest_lead').has(span[i]) && LATEST.has(span[i + 1])) i++;
  if (LATEST.has(span[i])) {
    pick.latest = true;
    i++;
  }
  const d = lang.durations.read(span, i);
  if (d && d.seconds > 0) {
    pick.startSeconds = d.seconds;
    i = d.next;
  }
  // The timer word may be a phrase ("cuenta atrás"): j is where it starts, len its words.
  let j = i;
  let len = 0;
  while (j < span.length && !(len = TIMER_WORDS.at(span, j))) j++;
  let nameWords: readonly string[];
  let place = false;
  if (j < span.length) {
    nameWords = span.slice(i, j);
    // "one" names a timer only after a describing word: "the pizza one", "the 5 minute one", "the last one".
    if (w('pronouns').has(span[j]) && !nameWords.length && pick.startSeconds === undefined && !pick.latest) return null;
    if (PLURAL.has(span[j + len - 1])) all = true;
    i = j + len;
    const namedLen = named.at(span, i);
    if (namedLen && i + namedLen < span.length && !nameWords.length) {
      nameWords = span.slice(i + namedLen);
      i = span.length;
    } else {
      // "timer for 1 hour", "timer for the pizza", "timer in the kitchen" ("temporizador de la cocina": a room is tried first).
      if (IN.has(span[i]) && i + 1 < span.length) {
        const r = roomAt(span, THE.has(span[i + 1]) ? i + 2 : i + 1, rooms);
        if (r && r.next === span.length) {
          pick.area = { room: r.room, here: s.area === undefined || s.area === r.room };
          place = true;
          i = span.length;
        }
      }
      if (i < span.length && FOR.has(span[i]) && i + 1 < span.length) {
        const fd = lang.durations.read(span, THE.has(span[i + 1]) ? i + 2 : i + 1);
        if (fd && fd.next === span.length && pick.startSeconds === undefined) {
          pick.startSeconds = fd.seconds;
          i = span.length;
        } else if (!nameWords.length) {
          nameWords = span.slice(THE.has(span[i + 1]) ? i + 2 : i + 1);
          i = span.length;
        }
      } else if (i < span.length && lang.pack.timers.name_after && !nameWords.length && pick.startSeconds === undefined) {
        // "temporizador pizza": the name straight after the timer word, where the language says it so.
        nameWords = span.slice(i);
        i = span.length;
      }
    }
    if (i !== span.length) return null;
  } else {
    // No "timer": only the name of one that runs ("the brisket").
    nameWords = span.slice(i);
    if (!nameWords.length || !known(s, nameWords.join(' '))) return null;
  }
  if (nameWords.length > 3 || nameWords.some((x) => NAME_NEVER.has(x))) return null;
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
export function readTimerRef(words: readonly string[], at: number, s: Situation, lang: Language = english()): SlotMatch[] {
  const out: SlotMatch[] = [];
  for (let end = at + 1; end <= Math.min(words.length, at + 10); end++) {
    const r = parseRef(words.slice(at, end), s, lang);
    if (!r) continue;
    // A name hark does not have is worth less: it explains the words, but names nothing real.
    const n = end - at;
    out.push({ end, value: r.ref, weight: r.unknownName ? 0.6 * n : 0.9 * n });
  }
  return out;
}

/** The whole of `words` as a timer reference, or null. */
export function timerRefOf(words: readonly string[], s: Situation, lang: Language = english()): TimerRef | null {
  return words.length ? (parseRef(words, s, lang)?.ref ?? null) : null;
}
