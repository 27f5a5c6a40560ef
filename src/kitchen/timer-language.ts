import { readDuration } from '../language/duration.js';

/**
 * The timer half of the kitchen language: one normalised utterance → one timer command, or null
 * when it is not about timers. Built from the words that mean something (verbs, durations, room
 * and name words) rather than one pattern per phrasing, so "10 minute timer", "timer for 10
 * minutes", "set timer called pizza for 5 minutes" and "how long is left on my 1 hour timer" all
 * come out of the same few steps: find the verb, take out the durations, what is left names the
 * timer. Pure.
 */

/** Which timer a command means: by name, by its starting duration, by room; none of them = "the timer". */
export interface TimerPick {
  name?: string;
  /** The duration the timer was set for ("the 5 minute timer"). */
  startSeconds?: number;
  /** A room named in the request ("the kitchen timer"); `here` when it is this device's room. */
  area?: { room: string; here: boolean };
  /** "the last timer", "the latest one", "the new timer": the one set most recently. */
  latest?: boolean;
}

export type TimerCommand =
  | { op: 'start'; seconds: number; name?: string }
  /** "set a timer" without a duration: hark asks how long. */
  | { op: 'start'; seconds: null; name?: string }
  /** "a 10 minute pasta timer and a 5 minute sauce timer": several at once. */
  | { op: 'start-many'; timers: { seconds: number; name?: string }[] }
  /** "in 5 minutes, open the garage door": `command` is handled when the time comes, as if just heard. */
  | { op: 'delay'; seconds: number; command: string }
  | { op: 'cancel' | 'status'; pick: TimerPick; all: boolean }
  | { op: 'pause' | 'resume'; pick: TimerPick; all: boolean }
  /** Add time to (or take it off) the picked timer. */
  | { op: 'add' | 'remove'; seconds: number; pick: TimerPick };

export interface TimerLanguageOptions {
  /** This device's room (config device.area), lower case: "the kitchen timer" is then this device's timer. */
  area?: string;
}

/** Rooms a person may name. When device.area is not set, any of these means "here". */
export const ROOMS = ['kitchen', 'living room', 'lounge', 'dining room', 'bedroom', 'bathroom', 'garage', 'office', 'hallway', 'hall', 'basement', 'pantry', 'laundry', 'utility room', 'study', 'den', 'nursery', 'porch', 'patio', 'garden', 'cellar', 'attic'];

const ROOM_WORDS = new Map(ROOMS.map((r) => [r, r.split(' ')]));

type Op = 'start' | 'cancel' | 'status' | 'pause' | 'resume' | 'add' | 'remove';

/**
 * Verb phrases, longest first where one starts another. One marked `dur` only counts when a
 * duration follows it ("remove 5 minutes from" vs "remove the timer"); one marked `off` only with
 * "off" after it ("turn the timer off", never "turn on a timer").
 */
const VERBS: [string, Op, ('dur' | 'off' | undefined)?][] = [
  ['how much time is left', 'status'], ['how much time is remaining', 'status'], ['how much time left', 'status'], ['how much longer', 'status'],
  ['how much time', 'status'], ['how long is left', 'status'], ['how long left', 'status'], ['how long until', 'status'], ['how long', 'status'],
  ['when will', 'status'], ['when does', 'status'], ['when is', 'status'], ['is', 'status'],
  ['time left', 'status'], ['time remaining', 'status'], ['whats left', 'status'], ['what is left', 'status'], ['status', 'status'],
  ['check', 'status'], ['what timers', 'status'], ['which timers', 'status'], ['any timers', 'status'], ['list', 'status'], ['show', 'status'],
  ['remove', 'remove', 'dur'], ['take', 'remove', 'dur'], ['subtract', 'remove', 'dur'], ['knock', 'remove', 'dur'], ['cut', 'remove', 'dur'],
  ['decrease', 'remove'], ['reduce', 'remove'], ['shorten', 'remove'], ['lower', 'remove'],
  ['add', 'add'], ['increase', 'add'], ['extend', 'add'], ['lengthen', 'add'], ['give', 'add', 'dur'], ['put', 'add', 'dur'],
  ['un pause', 'resume'], ['unpause', 'resume'], ['resume', 'resume'], ['continue', 'resume'], ['restart', 'resume'], ['unfreeze', 'resume'],
  ['pause', 'pause'], ['hold', 'pause'], ['freeze', 'pause'], ['suspend', 'pause'],
  ['cancel', 'cancel'], ['stop', 'cancel'], ['delete', 'cancel'], ['clear', 'cancel'], ['remove', 'cancel'], ['kill', 'cancel'], ['end', 'cancel'],
  ['dismiss', 'cancel'], ['abort', 'cancel'], ['turn off', 'cancel'], ['switch off', 'cancel'], ['get rid of', 'cancel'], ['reset', 'cancel'],
  ['turn', 'cancel', 'off'], ['switch', 'cancel', 'off'], ['shut', 'cancel', 'off'],
  ['set', 'start'], ['start', 'start'], ['create', 'start'], ['make', 'start'], ['put', 'start'], ['begin', 'start'], ['add', 'start'], ['give', 'start'],
  ['new', 'start'], ['setup', 'start'], ['run', 'start'],
].map(([p, op, d]) => [p!, op as Op, d as 'dur' | 'off' | undefined]);
/** The same, split into words once (this runs for every utterance a query frame sees). */
const VERB_WORDS = VERBS.map(([p, op, d]) => [p.split(' '), op, d] as const);
/** The words a timer request can start with ("cancel", "set", "how long"), each as words. */
export const TIMER_VERB_STARTS: readonly (readonly string[])[] = VERB_WORDS.map(([w]) => w);

/** Said before a command and meaning nothing ("please", "can you", "hey"). */
const POLITE = ['please', 'can you', 'could you', 'would you', 'will you', 'can i', 'i want to', 'i want', 'id like to', 'i would like to', 'i need', 'i need to', 'lets', 'go ahead and', 'and', 'hey', 'ok', 'okay', 'so', 'now'];
const POLITE_WORDS = POLITE.map((p) => p.split(' '));
/** Words that never name a timer. */
const FILLER = new Set([
  'a', 'an', 'the', 'my', 'our', 'your', 'this', 'that', 'these', 'those', 'me', 'us', 'for', 'of', 'on', 'to', 'from', 'off', 'by', 'in', 'at',
  'with', 'named', 'called', 'labelled', 'labeled', 'name', 'timer', 'timers', 'please', 'is', 'are', 'left', 'remaining', 'time', 'up', 'one',
  'ones', 'again', 'current', 'currently', 'running', 'active', 'going', 'now', 'there', 'set', 'do', 'i', 'have', 'what', 'whats', 'how', 'much',
  'long', 'more', 'less', 'countdown', 'all', 'every', 'each', 'of', 'the', 'it', 'and', 'also', 'another', 'new', 'just', 'only', 'status',
  'no', 'sorry', 'actually', 'mean', 'make', 'wait', 'instead', 'rather', 'thanks', 'thank', 'you', 'still', 'room', 'want',
  'call', 'when', 'will', 'does', 'go', 'goes', 'ring', 'rings', 'done', 'finish', 'finished', 'be', 'get', 'until', 'till', 'its', 'was', 'am',
]);

function startsWith(words: readonly string[], at: number, phrase: string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (words[at + k] !== phrase[k]) return false;
  return true;
}

function stripPolite(words: string[]): string[] {
  let w = words;
  for (let again = true; again; ) {
    again = false;
    for (const ps of POLITE_WORDS) {
      if (w.length > ps.length && startsWith(w, 0, ps)) {
        w = w.slice(ps.length);
        again = true;
      }
    }
  }
  while (w.length > 1 && (w[w.length - 1] === 'please' || w[w.length - 1] === 'thanks')) w = w.slice(0, -1);
  return w;
}

interface Found {
  op: Op;
  at: number;
  len: number;
}

/** The earliest verb phrase (the one that governs the sentence). */
function findVerb(words: readonly string[]): Found | null {
  for (let i = 0; i < words.length; i++) {
    for (const [ps, op, needs] of VERB_WORDS) {
      if (words[i] !== ps[0] || !startsWith(words, i, ps)) continue;
      if (needs === 'dur' && !durationFollows(words, i + ps.length)) continue;
      // "turn the timer off", never "turn on a timer".
      if (needs === 'off' && !words.slice(i + 1).includes('off')) continue;
      return { op, at: i, len: ps.length };
    }
  }
  return null;
}

/** "5 minutes" next, "another 5 minutes", or "the pizza timer 2 more minutes": time is being added or taken. */
function durationFollows(words: readonly string[], at: number): boolean {
  if (readDuration(words, at)) return true;
  if (['another', 'an', 'a', 'extra', 'off', 'away'].includes(words[at]!) && readDuration(words, at + 1)) return true;
  if (!words.includes('more') && !words.includes('extra') && !words.includes('less')) return false;
  for (let i = at; i < words.length; i++) if (readDuration(words, i)) return true;
  return false;
}

interface Span {
  seconds: number;
  at: number;
  next: number;
}

/** Every duration in the words, left to right, none overlapping. */
function durations(words: readonly string[]): Span[] {
  const out: Span[] = [];
  for (let i = 0; i < words.length; ) {
    const d = readDuration(words, i);
    if (d && d.seconds > 0) {
      out.push({ seconds: d.seconds, at: i, next: d.next });
      i = d.next;
    } else i++;
  }
  return out;
}

/** What is left of the words once verbs, durations and rooms are out: the timer's name. */
function nameOf(words: readonly (string | null)[]): string | undefined {
  // Names are runs of meaningful words; "for pizza" and "pizza timer" both give "pizza".
  const kept = words.filter((w): w is string => w !== null && !FILLER.has(w));
  return kept.length ? kept.join(' ') : undefined;
}

/** Take a room out of the words (blanking it), "in the kitchen" or "kitchen timer". */
function takeRoom(words: (string | null)[], opts: TimerLanguageOptions): TimerPick['area'] | undefined {
  const rooms = opts.area && !ROOMS.includes(opts.area) ? [opts.area, ...ROOMS] : ROOMS;
  for (let i = 0; i < words.length; i++) {
    if (words[i] === null) continue;
    for (const room of rooms) {
      const rs = ROOM_WORDS.get(room) ?? room.split(' ');
      if (words[i] !== rs[0] || !startsWith(words as string[], i, rs)) continue;
      for (let k = 0; k < rs.length; k++) words[i + k] = null;
      // A room word is a room when it is this device's, or said as a place ("in the garage"): a
      // "garage timer" on a kitchen device is more likely a name than a room.
      const here = opts.area === undefined || opts.area === room;
      const asPlace = words[i - 1] === 'in' || (words[i - 1] === 'the' && words[i - 2] === 'in');
      if (!here && !asPlace) {
        for (let k = 0; k < rs.length; k++) words[i + k] = rs[k]!;
        continue;
      }
      return { room, here };
    }
  }
  return undefined;
}

/** "remind me", "wake me up", "let me know": a timer, not a command to run later. */
const JUST_TELL_ME = ['remind me', 'wake me', 'wake me up', 'tell me', 'let me know', 'ping me', 'alert me', 'call me', 'give me a shout'].map((p) => p.split(' '));

/** "in 5 minutes, open the garage door" / "open the garage door in 5 minutes" / "after 5 minutes ...". */
function delayed(words: string[]): TimerCommand | null {
  const c = delayedCommand(words);
  if (!c || c.op !== 'delay') return c;
  // "remind me in 10 minutes" is a timer; "remind me to check the oven in 10 minutes" is a timer named for it.
  const cw = c.command.split(' ');
  const tell = JUST_TELL_ME.find((p) => startsWith(cw, 0, p));
  if (!tell) return c;
  let rest = cw.slice(tell.length);
  if (rest[0] === 'to' || rest[0] === 'about') rest = rest.slice(1);
  return rest.length ? { op: 'start', seconds: c.seconds, name: rest.join(' ') } : { op: 'start', seconds: c.seconds };
}

function delayedCommand(words: string[]): TimerCommand | null {
  if ((words[0] === 'in' || words[0] === 'after') && words.length > 3) {
    const d = readDuration(words, 1);
    if (d) {
      let rest = words.slice(d.next);
      if (rest[0] === 'then') rest = rest.slice(1);
      if (rest.length && !rest.includes('timer') && !rest.includes('timers')) return { op: 'delay', seconds: d.seconds, command: rest.join(' ') };
      if (rest.length === 0) return null;
    }
  }
  for (let i = words.length - 2; i >= 1; i--) {
    if (words[i] !== 'in' && words[i] !== 'after') continue;
    const d = readDuration(words, i + 1);
    if (d && d.next === words.length && !words.includes('timer') && !words.includes('timers')) return { op: 'delay', seconds: d.seconds, command: words.slice(0, i).join(' ') };
  }
  return null;
}

const STATUS_QUESTIONS = ['how much time is left', 'how much time left', 'how much time is remaining', 'how much longer', 'how long is left', 'how long left', 'how long to go', 'time left', 'time remaining', 'whats left'].map((q) => q.split(' '));
const LATEST = new Set(['last', 'latest', 'newest', 'recent']);

const CORRECTION = new Set(['no', 'sorry', 'actually', 'mean', 'instead', 'rather', 'wait', 'make']);

/** Parse normalised words as a timer command. Null when they are not about timers. */
export function parseTimerCommand(input: readonly string[], opts: TimerLanguageOptions = {}): TimerCommand | null {
  const words = stripPolite([...input]);
  // "how much time is left" needs no "timer": there is nothing else it could ask about.
  const aboutTimers = words.includes('timer') || words.includes('timers') || words.includes('countdown') || STATUS_QUESTIONS.some((q) => startsWith(words, 0, q));
  if (!aboutTimers) return delayed(words);
  const verb = findVerb(words);
  const spans = durations(words);
  let op: Op = verb?.op ?? (spans.length ? 'start' : 'status');
  // "add a timer for 5 minutes", "give me a 5 minute timer" start one; adding time says where to.
  if (op === 'add' && verb && ['add', 'give', 'put'].includes(words[verb.at]!) && !['to', 'on', 'onto', 'more', 'extra', 'by'].some((w) => words.includes(w))) op = 'start';
  const rest: (string | null)[] = [...words];
  if (verb) {
    for (let k = 0; k < verb.len; k++) rest[verb.at + k] = null;
    // Words before the verb name nothing ("computer, set a timer ...", "so um cancel the timer"),
    // unless the timer itself came first ("pizza timer status").
    const timerFirst = words.slice(0, verb.at).some((w) => w === 'timer' || w === 'timers');
    if (!timerFirst) for (let k = 0; k < verb.at; k++) rest[k] = null;
  }
  const all = !!verb && op !== 'start' && (words.includes('all') || words.includes('every') || (words.includes('timers') && op !== 'status'));

  if (op === 'add' || op === 'remove') {
    // The amount: after "by" ("increase my timer by 5 minutes"), else the first duration after the verb.
    const by = spans.find((s) => words[s.at - 1] === 'by') ?? spans.find((s) => s.at >= (verb?.at ?? 0) + (verb?.len ?? 0));
    // "shorten the timer" with no amount: not something to guess at.
    if (!by) return null;
    for (let k = by.at; k < by.next; k++) rest[k] = null;
    const pick = pickFrom(rest, spans.filter((s) => s !== by), opts);
    return { op, seconds: by.seconds, pick };
  }

  if (op === 'start') {
    const many = startMany(words, spans, opts);
    if (many) return many;
    // Self-correction: "ten minutes, no, five minutes": the last duration said wins.
    const last = spans[spans.length - 1];
    for (const s of spans) for (let k = s.at; k < s.next; k++) rest[k] = null;
    for (let k = 0; k < rest.length; k++) if (rest[k] && CORRECTION.has(rest[k]!)) rest[k] = null;
    takeRoom(rest, opts);
    const name = nameOf(rest);
    // "start the timer again" with no new duration: carry on with the paused one.
    if (!last && words.includes('again')) return { op: 'resume', pick: name ? { name } : {}, all: false };
    if (!last) return name ? { op: 'start', seconds: null, name } : { op: 'start', seconds: null };
    return name ? { op: 'start', seconds: last.seconds, name } : { op: 'start', seconds: last.seconds };
  }
  return { op, pick: pickFrom(rest, spans, opts), all };
}

/**
 * "set a 10 minute timer and a 5 minute timer", "timer for 10 minutes and another for 5 minutes":
 * split at an "and" that starts another timer (never inside a duration: "1 hour and 15 minutes"
 * is one), when no correction word says the second replaces the first.
 */
function startMany(words: readonly string[], spans: readonly Span[], opts: TimerLanguageOptions): TimerCommand | null {
  if (spans.length < 2 || words.some((w) => CORRECTION.has(w))) return null;
  const cuts: number[] = [];
  for (let i = 1; i < words.length - 1; i++) {
    if (words[i] !== 'and' || spans.some((s) => i >= s.at && i < s.next)) continue;
    const before = spans.some((s) => s.next <= i && s.next > (cuts[cuts.length - 1] ?? -1));
    const after = spans.some((s) => s.at > i);
    if (before && after && ['a', 'an', 'another', 'one', 'second', 'third'].includes(words[i + 1]!)) cuts.push(i);
  }
  if (!cuts.length) return null;
  const timers: { seconds: number; name?: string }[] = [];
  let from = 0;
  for (const end of [...cuts, words.length]) {
    const part = words.slice(from, end);
    from = end + 1;
    const c = parseTimerCommand(['set', ...part, ...(part.includes('timer') ? [] : ['timer'])], opts);
    if (!c || c.op !== 'start' || c.seconds === null) return null;
    timers.push(c.name ? { seconds: c.seconds, name: c.name } : { seconds: c.seconds });
  }
  return { op: 'start-many', timers };
}

function pickFrom(rest: (string | null)[], spans: readonly Span[], opts: TimerLanguageOptions): TimerPick {
  const pick: TimerPick = {};
  const last = spans[spans.length - 1];
  if (last) pick.startSeconds = last.seconds;
  for (const s of spans) for (let k = s.at; k < s.next; k++) rest[k] = null;
  const area = takeRoom(rest, opts);
  if (area) pick.area = area;
  for (let k = 0; k < rest.length; k++) {
    if (rest[k] && LATEST.has(rest[k]!)) {
      pick.latest = true;
      rest[k] = null;
      if (rest[k - 1] === 'most') rest[k - 1] = null;
    }
  }
  const name = nameOf(rest);
  if (name) pick.name = name;
  return pick;
}

const ALL_ANSWERS = ['both', 'both of them', 'all', 'all of them', 'all timers', 'all the timers', 'both timers', 'all three', 'every one', 'all of it'].map((a) => a.split(' '));

/**
 * The answer to "Which timer: the pizza timer or the 5 minute timer?": "the pizza one", "pizza",
 * "the 5 minute timer", "both". Null when the words pick nothing (they are then an utterance like
 * any other).
 */
export function parseTimerAnswer(input: readonly string[], opts: TimerLanguageOptions = {}): TimerPick | 'all' | null {
  const words = stripPolite([...input]).filter((w) => w !== 'please');
  if (ALL_ANSWERS.some((a) => a.length === words.length && startsWith(words, 0, a))) return 'all';
  const c = parseTimerCommand(['cancel', ...words, 'timer'], opts);
  if (!c || !('pick' in c)) return null;
  const p = c.pick;
  return p.name || p.startSeconds !== undefined || p.latest ? p : null;
}

/** Words that, alone or together, stop a ring: "stop", "ok thanks", "got it", "turn it off". */
const RING_STOP_KEYS = new Set(['stop', 'ok', 'okay', 'thanks', 'thank', 'got', 'alright', 'enough', 'quiet', 'dismiss', 'silence', 'off', 'heard', 'cheers', 'shut', 'stopped']);
const RING_STOP_ALSO = new Set(['you', 'it', 'the', 'that', 'timer', 'timers', 'alarm', 'ringing', 'all', 'right', 'computer', 'hey', 'please', 'i', 'turn', 'up', 'now', 'thats', 'be', 'yes', 'yeah', 'cool', 'great', 'done', 'hark', 'very', 'much']);

/**
 * Said while a timer rings, these words silence it, with no wake word and in any frame: a cook
 * across the room says "ok", "thanks", "stop the alarm", "got it". Anything with another word in
 * it ("ok computer, set a timer ...") is an utterance like any other.
 */
export function stopsRinging(words: readonly string[]): boolean {
  return words.length > 0 && words.length <= 6 && words.some((w) => RING_STOP_KEYS.has(w)) && words.every((w) => RING_STOP_KEYS.has(w) || RING_STOP_ALSO.has(w));
}
