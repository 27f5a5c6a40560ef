/**
 * What the router matches on. Speech-to-text engines disagree about case and punctuation
 * ("Computer, set a timer." vs "computer set a timer"), so every rule sees one normalised form:
 * lower case, punctuation stripped, hyphens split ("twenty-five" → "twenty five"), whitespace
 * collapsed. Decimal points, clock colons and fraction slashes between digits survive ("1.5 hours",
 * "1:30", "1/2 an hour").
 *
 * The original text is kept beside it: a query frame appends what was said, not its normalised
 * shadow, and dictation must be verbatim.
 */
export interface Said {
  /** Text as it came from speech-to-text, trimmed. */
  readonly original: string;
  /** Normalised text: the form every rule matches against. */
  readonly norm: string;
  /** norm split on spaces. */
  readonly words: readonly string[];
  /**
   * Each word as it was spelled, apostrophes inside it kept ("bird's", "o'brien"; `words` has
   * birds, obrien): what a free slot (an item, a timer's name) keeps, while rules match on `words`.
   */
  readonly spelled: readonly string[];
  /** For each normalised word, the index of the original whitespace token it came from. */
  readonly wordToken: readonly number[];
  /** The original text split on whitespace. */
  readonly tokens: readonly string[];
  /**
   * The language speech-to-text (or a text line) said these words were in, a pack code: read in that
   * language first. Undefined: read in each of the device's languages alike.
   */
  readonly language?: string;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;
const SPACE = /^\s$/;

function isDigitAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

function isLetterAt(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c > 127 && /\p{L}/u.test(s[i]!));
}

/**
 * One pass over the text (this runs for every utterance, so no chain of regex replaces):
 * ASCII letters and digits are kept (lower-cased), apostrophes vanish (the spelling keeps those
 * between letters), ".", ":" and "/" survive only
 * between digits, any other letter or digit in any script is kept lower-cased, everything else
 * breaks words. Whitespace also splits the original into tokens, tracked for restAfter().
 */
export function said(text: string, language?: string): Said {
  const original = text.trim();
  const tokens = original ? original.split(/\s+/) : [];
  const words: string[] = [];
  const spelled: string[] = [];
  const wordToken: number[] = [];
  let token = -1;
  let inToken = false;
  let cur = '';
  let spell = '';
  const add = (ch: string): void => {
    cur += ch;
    spell += ch;
  };
  const flush = (): void => {
    if (cur) {
      words.push(cur);
      spelled.push(spell);
      wordToken.push(token);
    }
    cur = '';
    spell = '';
  };
  for (let i = 0; i < original.length; i++) {
    const c = original.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13) || (c > 127 && SPACE.test(original[i]!))) {
      flush();
      inToken = false;
      continue;
    }
    if (!inToken) {
      token++;
      inToken = true;
    }
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) add(original[i]!);
    else if (c >= 65 && c <= 90) add(String.fromCharCode(c + 32));
    else if (c === 39 || c === 0x2019) {
      // Gone from the matching form ("what's" is whats); kept in the spelling between letters.
      if (cur && isLetterAt(original, i + 1)) spell += "'";
    } else if ((c === 46 || c === 58 || c === 47) && cur && i > 0 && isDigitAt(original, i - 1) && isDigitAt(original, i + 1)) add(original[i]!);
    else if (c > 127) {
      const ch = String.fromCodePoint(original.codePointAt(i)!);
      if (ch.length === 2) i++;
      if (LETTER_OR_DIGIT.test(ch)) add(ch.toLowerCase());
      else flush();
    } else flush();
  }
  flush();
  return { original, norm: words.join(' '), words, spelled, wordToken, tokens, ...(language ? { language } : {}) };
}

/** The normalised form alone (for vocabularies and exact sets). */
export function normalise(text: string): string {
  return said(text).norm;
}

/**
 * The original text from normalised word `n` on: "Computer, set a timer." after the one-word wake
 * phrase is "set a timer.". Empty when nothing follows.
 */
export function restAfter(s: Said, n: number): string {
  if (n >= s.words.length) return '';
  const from = s.wordToken[n]!;
  // If word n shares its token with the previous word (a hyphenated pair), cut inside the token
  // is not possible without guessing; fall back to the normalised words.
  if (n > 0 && s.wordToken[n - 1] === from) return s.words.slice(n).join(' ');
  return s.tokens.slice(from).join(' ');
}

/** True when the utterance has at least one word that is not a filler ("um", "uh"). */
export function hasRealWords(s: Said, fillers: ReadonlySet<string>): boolean {
  for (const w of s.words) if (!fillers.has(w)) return true;
  return false;
}
