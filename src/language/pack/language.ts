import { said } from '../text.js';
import { durationReader, type DurationReader } from './durations.js';
import { formatIn, phrase, reply, sentence, type Pack } from './load.js';
import type { MessageArgs } from './message.js';
import { numberReader, type NumberReader } from './numbers.js';

/**
 * A pack made ready to read with: its number and duration readers built, each word list
 * normalised as speech is ("that's" is thats, "uh-huh" is uh huh) and held as a set of words and a
 * list of phrases, its compound words split, its replies said. What every reader of the language
 * is handed instead of module constants. Pure.
 */
export interface Words {
  /** Single words of the list (a phrase's words are not). */
  has(word: string | undefined): boolean;
  /** Every entry, as normalised words. */
  phrases: readonly (readonly string[])[];
  /** The entry that starts at words[i], longest first; its length, or 0. */
  at(words: readonly string[], i: number): number;
}

export function wordsOf(list: readonly string[]): Words {
  const phrases = list.map((p) => said(p).words).filter((p) => p.length > 0);
  const single = new Set(phrases.filter((p) => p.length === 1).map((p) => p[0]!));
  const longestFirst = [...phrases].sort((a, b) => b.length - a.length);
  return {
    has: (w) => w !== undefined && single.has(w),
    phrases,
    at: (words, i) => longestFirst.find((p) => p.every((w, k) => words[i + k] === w))?.length ?? 0,
  };
}

export interface Language {
  pack: Pack;
  code: string;
  readNumber: NumberReader;
  durations: DurationReader;
  /** Split the compound words the pack declares ("nudeltimer" → nudel timer); the words unchanged when it declares none. */
  splitCompounds(words: readonly string[]): string[];
  /** The pack's word list by file and key, normalised: `list('words', 'yes')`. */
  list<F extends ListFile>(file: F, key: ListKey<F>): Words;
  /** A reply as said (capital first), and a reply's words inside another one. */
  reply(key: string, args?: MessageArgs): string;
  phrase(key: string, args?: MessageArgs): string;
  /** A timer inside the intent pass's question (proposals.yaml): "a pasta timer" (a_timer), "the timer" (the_timer, no name). */
  timerPhrase(which: 'a_timer' | 'the_timer', name: string | undefined): string;
  /** What an intent action says once done (proposals.yaml `said`), as said (capital first). */
  proposalSaid(key: keyof Pack['proposals']['said'], args?: MessageArgs): string;
}

export type ListFile = 'lists' | 'timers' | 'words' | 'durations';
export type ListKey<F extends ListFile> = { [K in keyof Pack[F]]: Pack[F][K] extends readonly string[] ? K : never }[keyof Pack[F]] & string;

export function languageOf(pack: Pack): Language {
  const readNumber = numberReader(pack.numbers);
  const durations = durationReader(pack.durations, readNumber);
  const lists = new Map<string, Words>();
  const suffixes = pack.words.compound_suffixes.map((s) => said(s).words.join(''));
  const split = (w: string): string[] => {
    for (const s of suffixes) if (w.length >= s.length + 3 && w.endsWith(s)) return [w.slice(0, -s.length), s];
    return [w];
  };
  return {
    pack,
    code: pack.meta.language,
    readNumber,
    durations,
    splitCompounds: (words) => (suffixes.length ? words.flatMap(split) : [...words]),
    list(file, key) {
      const id = `${file}.${key}`;
      let w = lists.get(id);
      if (!w) lists.set(id, (w = wordsOf((pack[file] as unknown as Record<string, readonly string[]>)[key]!)));
      return w;
    },
    reply: (key, args) => reply(pack, key, args),
    phrase: (key, args) => phrase(pack, key, args),
    timerPhrase: (which, name) => formatIn(pack, pack.proposals[which], { name }),
    proposalSaid: (key, args) => sentence(formatIn(pack, pack.proposals.said[key], args)),
  };
}
