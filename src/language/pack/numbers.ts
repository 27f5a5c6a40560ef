import type { z } from 'zod';
import type { packNumbers } from './schema.js';

/**
 * Spoken numbers read by a pack's number words (numbers.yaml): digits ("90", "1.5", "1/2") in any
 * language, and words by the pack's tables: values ("twenty", "veinticinco"), multipliers
 * ("hundred", "mil"), connectors and what they join ("one hundred AND twenty", "treinta Y cinco",
 * "fünf UND zwanzig"), and, where a language writes a number as one word, the compound split
 * ("fünfundzwanzig" → fünf und zwanzig, "hundertzwanzig" → hundert zwanzig). Decimal place rules
 * decide what adds up: "twenty five" is 25, "five five" is two numbers. Pure.
 */
export type NumberWords = z.infer<typeof packNumbers>;

export interface NumberMatch {
  value: number;
  /** Index of the first word after the number. */
  next: number;
}

export type NumberReader = (words: readonly string[], i: number) => NumberMatch | null;

type Join = 'after-hundreds' | 'tens-units' | 'units-tens';
type Part = { k: 'value'; v: number } | { k: 'mult'; v: number; alone: boolean } | { k: 'join'; joins: readonly Join[] };

interface State {
  total: number;
  current: number;
  any: boolean;
  /** "fünf und": the tens may follow the units. */
  tensAfterUnits: boolean;
}

export function numberReader(spec: NumberWords): NumberReader {
  const single = new Map<string, Part>();
  for (const [w, v] of Object.entries(spec.values)) single.set(w, { k: 'value', v });
  for (const [w, m] of Object.entries(spec.multipliers)) single.set(w, { k: 'mult', v: m.value, alone: m.alone });
  for (const [w, joins] of Object.entries(spec.connectors)) single.set(w, { k: 'join', joins: typeof joins === 'string' ? [joins] : joins });
  // The forms a number takes before a noun ("un", "una", "eine", in a case "einen", "einem"): a
  // number only once one has begun ("ciento un", "treinta y una", "hundertundeine"); alone they are
  // articles, which lists.yaml reads. A form of a number's end ("-eins") is read by its parts.
  const agreeing = new Map<string, Part>();
  const say = spec.say;
  for (const forms of [...Object.values(say?.genders ?? {}), ...Object.values(say?.cases ?? {}).flatMap((c) => Object.values(c))]) {
    for (const [w, form] of Object.entries(forms)) {
      const v = spec.values[w];
      if (v !== undefined && !w.startsWith('-') && !single.has(form)) agreeing.set(form, { k: 'value', v });
    }
  }
  const inCompound = new Map(single);
  for (const [w, v] of Object.entries(spec.compound_values)) if (!inCompound.has(w)) inCompound.set(w, { k: 'value', v });
  for (const [w, p] of agreeing) if (!inCompound.has(w)) inCompound.set(w, p);
  const pieces = [...inCompound.keys()].sort((a, b) => b.length - a.length);
  const splits = new Map<string, Part[] | null>();

  /** A word as number parts: itself, or (compounds) the pieces it is written of; null when it is none. */
  const partsOf = (w: string, begun = false): Part[] | null => {
    const one = single.get(w) ?? (begun ? agreeing.get(w) : undefined);
    if (one) return [one];
    if (!spec.compounds || w.length < 4) return null;
    if (splits.has(w)) return splits.get(w)!;
    const memo = new Map<number, string[] | null>();
    const from = (at: number): string[] | null => {
      if (at === w.length) return [];
      if (memo.has(at)) return memo.get(at)!;
      let found: string[] | null = null;
      for (const p of pieces) {
        if (!w.startsWith(p, at)) continue;
        const rest = from(at + p.length);
        if (rest) {
          found = [p, ...rest];
          break;
        }
      }
      memo.set(at, found);
      return found;
    };
    const names = from(0);
    const parts = names && names.length > 1 ? names.map((n) => inCompound.get(n)!) : null;
    splits.set(w, parts);
    return parts;
  };

  const isValue = (p: Part | undefined): p is Extract<Part, { k: 'value' }> => p?.k === 'value';

  /** One part on the state; false when the number ends before it. */
  const step = (s: State, p: Part, next: Part | undefined): boolean => {
    switch (p.k) {
      case 'value': {
        const v = p.v;
        if (s.any) {
          if (v < 1) {
            if (!Number.isInteger(s.current)) return false;
          } else if (v < 20) {
            // "twenty five" adds; "five five" is two numbers, and so is "fifteen five".
            if (s.current % 10 !== 0 || (s.current >= 10 && s.current < 20)) return false;
          } else if (v < 100) {
            if (s.current % 100 !== 0 && !(s.tensAfterUnits && v % 10 === 0)) return false;
          } else if (s.current % 1000 !== 0) return false;
        }
        s.current += v;
        s.tensAfterUnits = false;
        break;
      }
      case 'mult':
        if (!s.any && !p.alone) return false;
        if (p.v < 1000) s.current = (s.current || 1) * p.v;
        else {
          s.total += (s.current || 1) * p.v;
          s.current = 0;
        }
        break;
      case 'join': {
        if (!s.any || !isValue(next)) return false;
        const c = s.current;
        const n = next.v;
        const joins = (j: Join): boolean =>
          j === 'after-hundreds'
            ? c > 0 && (c % 100 === 0 || s.total > 0) && n < 100
            : j === 'tens-units'
              ? c % 100 >= 20 && c % 10 === 0 && n >= 1 && n < 10
              : c % 100 > 0 && c % 100 < 10 && n >= 20 && n < 100 && n % 10 === 0;
        const joined = p.joins.find(joins);
        if (!joined) return false;
        s.tensAfterUnits = joined === 'units-tens';
        break;
      }
    }
    s.any = true;
    return true;
  };

  return (words, i) => {
    const first = words[i];
    if (first === undefined) return null;
    if (/^\d+(\.\d+)?$/.test(first)) return { value: Number(first), next: i + 1 };
    // "1/2", "3/4" as some engines write a spoken fraction.
    const frac = /^(\d+)\/(\d+)$/.exec(first);
    if (frac && Number(frac[2]) > 0) return { value: Number(frac[1]) / Number(frac[2]), next: i + 1 };
    let s: State = { total: 0, current: 0, any: false, tensAfterUnits: false };
    let j = i;
    for (; j < words.length; j++) {
      const parts = partsOf(words[j]!, j > i);
      if (!parts) break;
      // A word is taken whole or not at all: a compound the number cannot hold ends it before the word.
      const trial = { ...s };
      let whole = true;
      for (let k = 0; k < parts.length; k++) {
        const nextPart = k + 1 < parts.length ? parts[k + 1] : partsOf(words[j + 1] ?? '', true)?.[0];
        if (!step(trial, parts[k]!, nextPart)) {
          whole = false;
          break;
        }
      }
      // A connector that ends a word joins nothing ("and" said after a number): the number ends before it.
      if (!whole || (parts.at(-1)!.k === 'join' && j + 1 >= words.length)) break;
      s = trial;
    }
    if (!s.any) return null;
    return { value: s.total + s.current, next: j };
  };
}
