import { english } from '../language/pack/english.js';

/**
 * Backchannels: what a person says to show they are listening, not to take the floor.
 * The default list is the seed's, exactly, kept in packs/en (words.yaml backchannels).
 * Why: docs/decisions.md#backchannels-do-not-interrupt-hark.
 */
export const DEFAULT_IGNORE_LIST: readonly string[] = english().pack.words.backchannels;

/**
 * Words of a transcript as the filter compares them: punctuation from the engines ("Yeah.",
 * "Uh-huh,") dropped, hyphens read as spaces so "uh-huh" and "uh huh" are one thing, apostrophes kept.
 */
export function words(text: string, caseSensitive = false): string[] {
  const t = caseSensitive ? text : text.toLowerCase();
  return t
    .replace(/[-‐‑–—_]/g, ' ')
    .replace(/[^\p{L}\p{N}'’\s]/gu, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0);
}

/**
 * Answers "is this text made only of ignore-list entries?" with multi-word entries matched as
 * phrases: "go on" is covered, "go" alone is not, "yeah go on" is (two entries), "yeah wait" is not.
 */
export class IgnoreMatcher {
  private readonly phrases = new Set<string>();
  /** Every word that appears in some entry. */
  private readonly known = new Set<string>();
  private readonly longest: number;
  private readonly caseSensitive: boolean;

  constructor(list: readonly string[], opts: { caseSensitive?: boolean } = {}) {
    this.caseSensitive = opts.caseSensitive ?? false;
    let longest = 0;
    for (const entry of list) {
      const w = words(entry, this.caseSensitive);
      if (w.length === 0) continue;
      this.phrases.add(w.join(' '));
      for (const word of w) this.known.add(word);
      longest = Math.max(longest, w.length);
    }
    this.longest = longest;
  }

  get size(): number {
    return this.phrases.size;
  }

  has(phrase: string): boolean {
    return this.phrases.has(words(phrase, this.caseSensitive).join(' '));
  }

  /** True when every word belongs to some ignore-list entry laid end to end; false for no words. */
  coversAll(text: string): boolean {
    const w = words(text, this.caseSensitive);
    if (w.length === 0) return false;
    // covered[i]: the words from i to the end can be tiled by entries.
    const covered = new Array<boolean>(w.length + 1).fill(false);
    covered[w.length] = true;
    for (let i = w.length - 1; i >= 0; i--) {
      for (let n = 1; n <= this.longest && i + n <= w.length && !covered[i]; n++) {
        if (covered[i + n] && this.phrases.has(w.slice(i, i + n).join(' '))) covered[i] = true;
      }
    }
    return covered[0]!;
  }

  /**
   * Words that no entry (whole or in part) could account for: the reason a mixed input interrupts.
   * A word that is only part of a phrase ("go" of "go on") is not listed, though alone it is not covered.
   */
  foreignWords(text: string): string[] {
    return words(text, this.caseSensitive).filter((w) => !this.known.has(w));
  }
}

/**
 * Each of the device's languages' ignore list, first language first: `interruption.ignoreList` is
 * the first language's (the words a technician adds or removes are said in it), unless it was left
 * at its default, English's backchannels, which would be foreign to a first language other than
 * English: then, as for every other language, its pack's backchannels.
 */
export function ignoreLists(
  configured: readonly string[],
  languages: readonly { code: string; backchannels: readonly string[] }[],
): Record<string, readonly string[]> {
  const isDefault = configured.length === DEFAULT_IGNORE_LIST.length && configured.every((w, i) => w === DEFAULT_IGNORE_LIST[i]);
  const lists: Record<string, readonly string[]> = {};
  for (const [i, l] of languages.entries()) lists[l.code] = i === 0 && !isDefault ? configured : l.backchannels;
  return lists;
}
