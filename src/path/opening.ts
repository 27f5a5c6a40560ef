import type { FramesSpec } from '../command/spec.js';
import { charDistance, charSlack } from '../language/near.js';
import { english } from '../language/pack/english.js';
import { said } from '../language/text.js';
import { opensWithRingStop } from '../language/answers.js';
import type { KitchenLanguage } from '../language/kitchen.js';

/**
 * The opening check: in wake-word mode with only the base frame open, a long segment is
 * first transcribed on its opening seconds, and transcribed whole only when that opening starts with
 * something the base frame acts on — the wake phrase ("computer", "hey computer"), one of its own
 * phrases ("stop", "repeat", "always listen"), or the start of one of the imperatives as the
 * kitchen language reads them (opensImperative: "alright, carry", "can you say"). Radio and chatter
 * never get a full inference.
 *
 * Pure: phrases in, a verdict out.
 */

/** The phrases a base frame acts on without a wake phrase, as normalised word lists; null when they cannot be known. */
export function openingPhrases(frames: FramesSpec): string[][] | null {
  const base = Object.values(frames).find((f) => f.kind === 'base');
  if (!base) return null;
  const phrases: string[][] = [];
  for (const r of base.rules) {
    if (r === 'check-parent') continue;
    if ('prefix' in r) phrases.push(...r.prefix.map((p) => said(p).words.slice()));
    else if ('exact' in r) phrases.push(...r.exact.filter((p) => !p.startsWith('@')).map((p) => said(p).words.slice()));
    else if ('near' in r) phrases.push(...r.near.map((p) => said(p).words.slice()));
    else if ('button' in r) continue;
    else if ('catch-all' in r && r.when === 'always-listen') continue;
    // Imperatives taken only as a whole utterance ("say that again", "stop. actually
    // continue"): the kitchen language says whether an opening can begin one (opensImperative).
    else if ('intent' in r && r.whole) continue;
    // A pattern anchored at the start on a set of words ("^(?:no|sorry|actually) … number N$").
    else if ('pattern' in r && leadingWords(r.pattern)) phrases.push(...leadingWords(r.pattern)!.map((p) => said(p).words.slice()));
    // A pattern, an intent, a kitchen rule or a classifier in the base frame can match words
    // anywhere in a long utterance: the opening cannot rule it out, so every segment is whole.
    else return null;
  }
  return phrases.filter((p) => p.length > 0);
}

/** The words an anchored pattern must start with (`^(?:no|sorry|i mean)…`), or null when it can start anyhow. */
function leadingWords(pattern: string): string[] | null {
  const m = /^\^\(\?:([a-z' ]+(?:\|[a-z' ]+)*)\)/.exec(pattern);
  return m ? m[1]!.split('|') : null;
}

/** Lead-ins a transcript of a clipped opening may carry before the wake phrase. */
const LEAD_INS = new Set([...english().pack.words.fillers, ...english().pack.words.opening_lead_ins]);
/** Words of noise or pre-roll allowed before the phrase ("… computer, set a timer"). */
const MAX_LEADING_WORDS = 2;

/**
 * Does the opening's text begin with one of the phrases? Tolerant, as speech-to-text is on a clipped
 * opening: case and punctuation ignored, lead-ins ("uh", "okay") and up to two other words skipped,
 * each phrase word within a few letters ("computers", "commuter"), and only the words the clip
 * holds compared (the opening may cut "always listen" after "always").
 */
export function startsWithPhrase(text: string, phrases: readonly (readonly string[])[], maxLeading = MAX_LEADING_WORDS): string | null {
  const words = said(text).words;
  let skipped = 0;
  for (let start = 0; start < words.length; start++) {
    for (const p of phrases) if (matchesAt(words, start, p)) return p.join(' ');
    if (!LEAD_INS.has(words[start]!) && ++skipped > maxLeading) break;
  }
  return null;
}

function matchesAt(words: readonly string[], start: number, phrase: readonly string[]): boolean {
  const n = Math.min(phrase.length, words.length - start);
  if (n <= 0) return false;
  // A clipped phrase must still have most of itself: "hey" alone is not "hey computer".
  if (n < phrase.length && (n < 1 || phrase[0]!.length < 4)) return false;
  for (let i = 0; i < n; i++) {
    const want = phrase[i]!;
    const heard = words[start + i]!;
    if (want === heard) continue;
    const slack = charSlack(want.length);
    if (slack === 0 || charDistance(want, heard, slack) > slack) return false;
  }
  return true;
}

/**
 * Speech (pre-roll and trailing silence not counted) past which a segment is long: checked on its
 * opening first. Within half a second of the opening the whole costs hardly more, and no words are
 * cut off. One measure for the open segment (the segmenter's `long`, its pauses) and the closed one.
 */
export function longSpeechSeconds(openingSeconds: number): number {
  return openingSeconds + 0.5;
}

/**
 * The verdict on an opening's words: does it start with something the base frame acts on — one of
 * its phrases, the words that stop a ring while a timer rings, or the start of an imperative?
 */
export function opensForBase(text: string, phrases: readonly (readonly string[])[], ringing: boolean, language: KitchenLanguage): boolean {
  return (ringing && opensRingStop(text, language)) || startsWithPhrase(text, phrases) !== null || opensImperative(text, language);
}

/**
 * While a timer rings, a long segment is heard whole when it opens with what stops a ring said
 * alone (the language's ring_stop words, in any language of the device): as heard ("turn it off,
 * and …", "schon gut danke, …"), or first and within a few letters ("stopp"). No other word may
 * come first here, unlike before the wake phrase: one language's stop word is another's word
 * ("the fryer is still going" is not German "still"). One list: the words that stop the ring are the words that open.
 */
function opensRingStop(text: string, language: KitchenLanguage): boolean {
  return language.each().some((k) => {
    const fillers = k.lang.list('words', 'fillers');
    if (
      opensWithRingStop(
        said(text).words.filter((w) => !fillers.has(w)),
        k.lang,
      )
    )
      return true;
    return startsWithPhrase(text, k.lang.list('words', 'ring_stop').phrases, 0) !== null;
  });
}

/**
 * Could the opening be the start of one of the imperatives ("stop", "alright, carry on",
 * "could you say that again")? The kitchen language's own reading, on the words exactly as heard
 * (an imperative is short and plain; a near miss is radio: "the old man" is not "hold on").
 */
export function opensImperative(text: string, language: KitchenLanguage): boolean {
  const fillers = language.lang.list('words', 'fillers');
  const words = said(text).words.filter((w) => !fillers.has(w));
  return language.mayBeginImperative(words);
}
