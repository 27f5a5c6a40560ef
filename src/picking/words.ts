import { english, packLanguage } from '../language/pack/english.js';
import type { Language } from '../language/pack/language.js';
import type { NumberReader } from '../language/pack/numbers.js';
import { PICK_HEAR_KEYS, PICK_SAY_SLOTS, type PickHearKey, type PickSayKey } from '../language/pack/picking.js';
import { normalise } from '../language/text.js';

/**
 * Every word picking says or hears, from a language pack's picking.yaml (checked with the rest of
 * the pack when hark starts: a bad one stops hark naming its file and path). Picking's code holds
 * no word of its own, and knows no language.
 */
export const SAY_SLOTS = PICK_SAY_SLOTS;
export const HEAR_KEYS = PICK_HEAR_KEYS;
export type SayKey = PickSayKey;
export type HearKey = PickHearKey;

/** The words, made quick to look up (every phrase in the router's normal form). */
export interface PickWords {
  /** The pack's code: what a line said in this language is spoken with (its voice). */
  readonly language: string;
  say(key: SayKey, slots?: Record<string, string | number>): string;
  plural(key: 'picks' | 'units', n: number): string;
  /** Which command these normalised words are, if any. */
  command(norm: string): HearKey | null;
  readonly fillers: ReadonlySet<string>;
  readonly digits: ReadonlyMap<string, string>;
  readonly double: ReadonlySet<string>;
  /** Spelling-alphabet words (one or two words each, "x ray") to letters. */
  readonly letters: ReadonlyMap<string, string>;
  /** The language's number words (numbers.yaml): "forty seven", "siebenundvierzig". */
  readonly readNumber: NumberReader;
}

const built = new WeakMap<Language, PickWords>();

/** A language's picking words (its pack was checked when read, so nothing here can fail). */
export function pickWords(lang: Language): PickWords {
  const had = built.get(lang);
  if (had) return had;
  const w = lang.pack.picking;
  const commands = new Map<string, HearKey>();
  for (const key of HEAR_KEYS) for (const p of w.hear[key]) commands.set(normalise(p), key);
  const fill = (t: string, slots: Record<string, string | number>) => t.replace(/\{([^}]+)\}/g, (_, k: string) => String(slots[k] ?? ''));
  const words: PickWords = {
    language: lang.code,
    say: (key, slots = {}) => fill(w.say[key], slots),
    plural: (key, n) => fill(n === 1 ? w.plural[key].one : w.plural[key].other, { n }),
    command: (norm) => commands.get(norm) ?? null,
    fillers: new Set(w.fillers.map(normalise)),
    digits: new Map(Object.entries(w.digits).map(([k, v]) => [normalise(k), v])),
    double: new Set(w.double.map(normalise)),
    letters: new Map(Object.entries(w.letters).map(([k, v]) => [normalise(k), v])),
    readNumber: lang.readNumber,
  };
  built.set(lang, words);
  return words;
}

/** The picking words of the device's languages, the first first (language.languages; English when none). */
export function wordsOf(languages: readonly string[] = []): PickWords[] {
  return languages.length ? languages.map((code) => pickWords(packLanguage(code))) : [englishWords()];
}

/** English's picking words (packs/en/picking.yaml). */
export function englishWords(): PickWords {
  return pickWords(english());
}
