import type { z } from 'zod';
import type { NumberReader } from './numbers.js';
import type { packDurations } from './schema.js';

/**
 * Spoken durations read by a pack's duration words (durations.yaml), in any language's words but
 * the shapes people use everywhere: an amount and a unit ("ten minutes", "diez minutos"), one of a
 * unit ("an hour", "una hora", "eine Viertelstunde"), a fraction of one ("half an hour", "media
 * hora", "eine halbe Stunde"), counted quarters ("three quarters of an hour", "tres cuartos de
 * hora"), a fraction after "and" ("an hour and a half", "una hora y media", "una hora y cuarto"),
 * "a couple of minutes", m:ss, and parts that add up ("one hour, 15 minutes and 30 seconds").
 * More time ("another ten minutes", "cinco minutos más", "noch fünf Minuten") and a spoken
 * correction ("ten minutes, no, five minutes") are read around it by the readers (readers.ts
 * readDurationAt), in one place for every language. Pure.
 */
export type DurationWords = z.infer<typeof packDurations>;

export interface DurationMatch {
  seconds: number;
  /** Index of the first word after the duration. */
  next: number;
}

export interface DurationReader {
  /** A duration starting at words[i], or null. */
  read(words: readonly string[], i?: number): DurationMatch | null;
  /** "1 hour, 5 minutes and 3 seconds": how hark says one back (digits read well in espeak-ng). */
  say(totalSeconds: number): string;
  /** "5 minute" as a measure ("5 minute timer"), where the language says one; else as said. */
  measure(totalSeconds: number): string;
}

export function durationReader(d: DurationWords, readNumber: NumberReader): DurationReader {
  const set = (l: readonly string[]) => new Set(l);
  const one = set(d.one);
  const and = set(d.and);
  const of = set(d.of);
  const quarters = set(d.quarters);
  const couple = set(d.couple);
  const more = set(d.more);
  const needsArticle = set(d.fraction_needs_article);
  const unitAt = (words: readonly string[], i: number): number | null => {
    const w = words[i];
    return w !== undefined && Object.hasOwn(d.units, w) ? d.units[w]! : null;
  };
  const fraction = (w: string | undefined): number | null => (w !== undefined && Object.hasOwn(d.fractions, w) ? d.fractions[w]! : null);

  /** "and a half", "and 1/2", "y media", "y cuarto", "and three quarters" at i. */
  const fractionAt = (words: readonly string[], i: number): { frac: number; next: number } | null => {
    if (!and.has(words[i]!)) return null;
    const j = one.has(words[i + 1]!) ? i + 2 : i + 1;
    const f = fraction(words[j]);
    if (f !== null && (j === i + 2 || !needsArticle.has(words[j]!))) return { frac: f, next: j + 1 };
    const n = readNumber(words, i + 1);
    if (n && quarters.has(words[n.next]!)) return { frac: n.value / 4, next: n.next + 1 };
    return null;
  };

  const partAt = (words: readonly string[], i: number): DurationMatch | null => {
    const w = words[i];
    if (w === undefined) return null;
    // m:ss or h:mm:ss as written by some engines ("1:30").
    const clock = /^(\d+):(\d{2})(?::(\d{2}))?$/.exec(w);
    if (clock) {
      const [a, b, c] = [Number(clock[1]), Number(clock[2]), clock[3] === undefined ? undefined : Number(clock[3])];
      const seconds = c === undefined ? a * 60 + b : a * 3600 + b * 60 + c;
      // "1:30 minutes" still means one and a half minutes in m:ss.
      return { seconds, next: unitAt(words, i + 1) !== null ? i + 2 : i + 1 };
    }
    // "half an hour", "1/2 an hour", "a half hour", "media hora", "eine halbe Stunde"
    {
      const j = one.has(w) && fraction(words[i + 1]) !== null && !quarters.has(words[i + 1]!) ? i + 1 : i;
      const f = fraction(words[j]);
      if (f !== null && !quarters.has(w) && !quarters.has(words[j]!)) {
        const k = one.has(words[j + 1]!) || of.has(words[j + 1]!) ? (one.has(words[j + 2]!) ? j + 3 : j + 2) : j + 1;
        const unit = unitAt(words, k);
        if (unit !== null) return { seconds: unit * f, next: k + 1 };
      }
    }
    // "a quarter of an hour", "quarter hour", "three quarters of an hour", "un cuarto de hora"
    {
      let j = i;
      let count = 1;
      if (one.has(w)) j++;
      else {
        const n = readNumber(words, i);
        if (n && quarters.has(words[n.next]!)) {
          count = n.value;
          j = n.next;
        }
      }
      if (quarters.has(words[j]!)) {
        j++;
        if (of.has(words[j]!)) j++;
        if (one.has(words[j]!)) j++;
        const unit = unitAt(words, j);
        if (unit !== null) return { seconds: (count * unit) / 4, next: j + 1 };
      }
    }
    // "an hour", "una hora" (and "an hour and a half")
    if (one.has(w) && !couple.has(words[i + 1]!)) {
      const unit = unitAt(words, i + 1);
      if (unit !== null) {
        const f = fractionAt(words, i + 2);
        return f ? { seconds: unit * (1 + f.frac), next: f.next } : { seconds: unit, next: i + 2 };
      }
      return null;
    }
    // "a couple of minutes", "un par de minutos"
    if (one.has(w) && couple.has(words[i + 1]!)) {
      const j = of.has(words[i + 2]!) ? i + 3 : i + 2;
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
    // "2 more minutes" (adding time to a timer)
    const at = more.has(words[n.next]!) && unitAt(words, n.next + 1) !== null ? n.next + 1 : n.next;
    const unit = unitAt(words, at);
    if (unit === null) return null;
    // "one minute and a half", "dos horas y media"
    const post = fractionAt(words, at + 1);
    if (post) return { seconds: (n.value + post.frac) * unit, next: post.next };
    return { seconds: n.value * unit, next: at + 1 };
  };

  const read = (words: readonly string[], i = 0): DurationMatch | null => {
    const first = partAt(words, i);
    if (!first) return null;
    let seconds = first.seconds;
    let next = first.next;
    for (;;) {
      const j = and.has(words[next]!) ? next + 1 : next;
      const part = partAt(words, j);
      if (!part) break;
      seconds += part.seconds;
      next = part.next;
    }
    return { seconds: Math.round(seconds), next };
  };

  const parts = (totalSeconds: number, form: (u: DurationWords['say']['hour'], n: number) => string): string[] => {
    const s = Math.max(0, Math.round(totalSeconds));
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    const sec = s % 60;
    const out: string[] = [];
    if (h) out.push(`${h} ${form(d.say.hour, h)}`);
    if (m) out.push(`${m} ${form(d.say.minute, m)}`);
    if (sec || out.length === 0) out.push(`${sec} ${form(d.say.second, sec)}`);
    return out;
  };
  const joined = (p: string[]) => (p.length === 1 ? p[0]! : `${p.slice(0, -1).join(', ')} ${d.say.and} ${p[p.length - 1]}`);
  return {
    read,
    say: (t) => joined(parts(t, (u, n) => (n === 1 ? u.one : u.other))),
    measure: (t) => joined(parts(t, (u, n) => u.measure ?? (n === 1 ? u.one : u.other))),
  };
}
