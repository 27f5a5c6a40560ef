import { readNumber } from './numbers.js';

/**
 * Spoken durations for timers: "ten minutes", "2 minutes", "ninety seconds", "an hour",
 * "half an hour", "one minute and thirty seconds", "an hour and a half", "two and a half minutes",
 * "1 hour 30 minutes", "a quarter of an hour", "1:30" (minutes:seconds).
 * Works on normalised words; returns the seconds and where the duration ended, so the caller can
 * read a label after it ("... for the rice").
 */
export interface DurationMatch {
  seconds: number;
  /** Index of the first word after the duration. */
  next: number;
}

const UNIT_SECONDS: Record<string, number> = {
  second: 1, seconds: 1, sec: 1, secs: 1, s: 1,
  minute: 60, minutes: 60, min: 60, mins: 60, m: 60,
  hour: 3600, hours: 3600, hr: 3600, hrs: 3600, h: 3600,
};

/** The seconds in a unit word ("minutes" → 60), or null. */
export function unitSeconds(w: string | undefined): number | null {
  return w !== undefined && w in UNIT_SECONDS ? UNIT_SECONDS[w]! : null;
}

function unitAt(words: readonly string[], i: number): number | null {
  return unitSeconds(words[i]);
}

/** "half", "quarter", "1/2", "3/4" as the fraction it names, or null. */
function fractionWord(w: string | undefined): number | null {
  if (w === 'half' || w === '1/2') return 0.5;
  if (w === 'quarter' || w === '1/4') return 0.25;
  if (w === '3/4') return 0.75;
  return null;
}

/** "and a half", "and a 1/2", "and 1/2", "and a quarter", "and three quarters" at i: the fraction and the index after it. */
function fractionAt(words: readonly string[], i: number): { frac: number; next: number } | null {
  if (words[i] !== 'and') return null;
  const j = words[i + 1] === 'a' ? i + 2 : i + 1;
  const f = fractionWord(words[j]);
  if (f !== null && (j === i + 2 || words[j] !== 'half')) return { frac: f, next: j + 1 };
  if (words[i + 1] === 'three' && words[i + 2] === 'quarters') return { frac: 0.75, next: i + 3 };
  return null;
}

/** One "<amount> <unit>" part at i. */
function partAt(words: readonly string[], i: number): DurationMatch | null {
  const w = words[i];
  if (w === undefined) return null;
  // m:ss or h:mm:ss as written by some engines ("1:30").
  const clock = /^(\d+):(\d{2})(?::(\d{2}))?$/.exec(w);
  if (clock) {
    const [a, b, c] = [Number(clock[1]), Number(clock[2]), clock[3] === undefined ? undefined : Number(clock[3])];
    const seconds = c === undefined ? a * 60 + b : a * 3600 + b * 60 + c;
    const unit = unitAt(words, i + 1);
    // "1:30 minutes" still means one and a half minutes in m:ss.
    return { seconds, next: unit !== null ? i + 2 : i + 1 };
  }
  // "half an hour", "half a minute", "1/2 an hour", "a half hour", "half hour"
  {
    const j = w === 'a' && fractionWord(words[i + 1]) === 0.5 ? i + 1 : i;
    const f = fractionWord(words[j]);
    if (f !== null && !(w === 'quarter' || words[j] === 'quarter')) {
      const k = words[j + 1] === 'an' || words[j + 1] === 'a' || words[j + 1] === 'of' ? (words[j + 2] === 'an' || words[j + 2] === 'a' ? j + 3 : j + 2) : j + 1;
      const unit = unitAt(words, k);
      if (unit !== null) return { seconds: unit * f, next: k + 1 };
    }
  }
  // "a quarter of an hour", "quarter hour", "three quarters of an hour"
  {
    let j = i;
    let count = 1;
    if (w === 'a') j++;
    else {
      const n = readNumber(words, i);
      if (n && (words[n.next] === 'quarters' || words[n.next] === 'quarter')) {
        count = n.value;
        j = n.next;
      }
    }
    if (words[j] === 'quarter' || words[j] === 'quarters') {
      j++;
      if (words[j] === 'of') j++;
      if (words[j] === 'an' || words[j] === 'a') j++;
      const unit = unitAt(words, j);
      if (unit !== null) return { seconds: (count * unit) / 4, next: j + 1 };
    }
  }
  // "an hour", "a minute" (and "an hour and a half")
  if ((w === 'a' || w === 'an') && words[i + 1] !== 'couple') {
    const unit = unitAt(words, i + 1);
    if (unit !== null) {
      const f = fractionAt(words, i + 2);
      return f ? { seconds: unit * (1 + f.frac), next: f.next } : { seconds: unit, next: i + 2 };
    }
    return null;
  }
  // "a couple of minutes"
  if (w === 'a' && words[i + 1] === 'couple') {
    const j = words[i + 2] === 'of' ? i + 3 : i + 2;
    const unit = unitAt(words, j);
    return unit !== null ? { seconds: 2 * unit, next: j + 1 } : null;
  }
  const n = readNumber(words, i);
  if (!n) return null;
  // "two and a half minutes"
  const pre = fractionAt(words, n.next);
  if (pre) {
    const unit = unitAt(words, pre.next);
    if (unit !== null) return { seconds: (n.value + pre.frac) * unit, next: pre.next + 1 };
    return null;
  }
  // "2 more minutes", "5 extra minutes" (adding time to a timer)
  const at = (words[n.next] === 'more' || words[n.next] === 'extra') && unitAt(words, n.next + 1) !== null ? n.next + 1 : n.next;
  const unit = unitAt(words, at);
  if (unit === null) return null;
  // "one minute and a half"
  const post = fractionAt(words, at + 1);
  if (post) return { seconds: (n.value + post.frac) * unit, next: post.next };
  return { seconds: n.value * unit, next: at + 1 };
}

/**
 * Read a duration starting at words[i]: one or more parts, optionally joined by "and"
 * ("one minute and thirty seconds", "1 hour 30 minutes"). Null when no duration starts there.
 */
export function readDuration(words: readonly string[], i = 0): DurationMatch | null {
  const first = partAt(words, i);
  if (!first) return null;
  let seconds = first.seconds;
  let next = first.next;
  for (;;) {
    const j = words[next] === 'and' ? next + 1 : next;
    const more = partAt(words, j);
    if (!more) break;
    seconds += more.seconds;
    next = more.next;
  }
  return { seconds: Math.round(seconds), next };
}

/** The whole of `words` as a duration, or null. */
export function parseDuration(words: readonly string[]): number | null {
  const m = readDuration(words, 0);
  return m && m.next === words.length ? m.seconds : null;
}

/** "1 hour 5 minutes", "90 seconds" → how hark says a duration back. Digits read well in espeak-ng. */
export function sayDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  const parts: string[] = [];
  if (h) parts.push(`${h} ${h === 1 ? 'hour' : 'hours'}`);
  if (m) parts.push(`${m} ${m === 1 ? 'minute' : 'minutes'}`);
  if (sec || parts.length === 0) parts.push(`${sec} ${sec === 1 ? 'second' : 'seconds'}`);
  if (parts.length === 1) return parts[0]!;
  return parts.slice(0, -1).join(', ') + ' and ' + parts[parts.length - 1];
}
