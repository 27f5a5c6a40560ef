/**
 * The English number and duration readers as they were written in code before the packs
 * (src/language/numbers.ts and duration.ts): the reference packs/en is held to, word for word,
 * by pack-readers.test.ts. Test code only.
 */

export interface DurationMatch {
  seconds: number;
  next: number;
}
const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

export interface NumberMatch {
  value: number;
  /** Index of the first word after the number. */
  next: number;
}

/**
 * Read a number starting at words[i]. "a"/"an" are not numbers here (the duration parser decides
 * when "an hour" means one). Returns null when words[i] does not start a number.
 */
export function readNumber(words: readonly string[], i: number): NumberMatch | null {
  const first = words[i];
  if (first === undefined) return null;
  if (/^\d+(\.\d+)?$/.test(first)) return { value: Number(first), next: i + 1 };
  // "1/2", "3/4" as some engines write a spoken fraction.
  const frac = /^(\d+)\/(\d+)$/.exec(first);
  if (frac && Number(frac[2]) > 0) return { value: Number(frac[1]) / Number(frac[2]), next: i + 1 };
  let total = 0;
  let current = 0;
  let j = i;
  let any = false;
  for (;;) {
    const w = words[j];
    if (w === undefined) break;
    if (w in UNITS) {
      // "twenty five" adds; "five five" is two numbers, so stop at a second unit.
      if (any && current % 10 !== 0) break;
      if (any && current >= 10 && current < 20) break;
      current += UNITS[w]!;
    } else if (w in TENS) {
      if (any && current % 100 !== 0) break;
      current += TENS[w]!;
    } else if (w === 'hundred' && any) {
      current = (current || 1) * 100;
    } else if (w === 'thousand' && any) {
      total += (current || 1) * 1000;
      current = 0;
    } else if (w === 'and' && any && (current % 100 === 0 || total > 0) && current > 0 && isNumberWord(words[j + 1])) {
      // "one hundred and twenty": "and" belongs to the number only after hundred/thousand.
    } else {
      break;
    }
    any = true;
    j++;
  }
  if (!any) return null;
  return { value: total + current, next: j };
}

function isNumberWord(w: string | undefined): boolean {
  return w !== undefined && (w in UNITS || w in TENS);
}

const UNIT_SECONDS: Record<string, number> = {
  second: 1,
  seconds: 1,
  sec: 1,
  secs: 1,
  s: 1,
  minute: 60,
  minutes: 60,
  min: 60,
  mins: 60,
  m: 60,
  hour: 3600,
  hours: 3600,
  hr: 3600,
  hrs: 3600,
  h: 3600,
};

function unitAt(words: readonly string[], i: number): number | null {
  const w = words[i];
  return w !== undefined && w in UNIT_SECONDS ? UNIT_SECONDS[w]! : null;
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
      const k =
        words[j + 1] === 'an' || words[j + 1] === 'a' || words[j + 1] === 'of' ? (words[j + 2] === 'an' || words[j + 2] === 'a' ? j + 3 : j + 2) : j + 1;
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
