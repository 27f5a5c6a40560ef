import { defaultLanguage } from './default.js';
import type { Imperative } from './requests.js';
import { NOTHING_OWNED } from './situation.js';
import type { Said } from './text.js';
import { readImperatives } from './understand.js';

/**
 * The imperatives said as a whole command: "can you repeat that", "say that again", "repeat
 * number 3", "please stop", "alright, carry on", "stop. actually continue", "repeat number 3. no,
 * number 5". The kitchen language reads them (packs/en/sentences.yaml, imperative.*): every sentence, or
 * every clause where a person corrects themself, must be one, so "next table wants the fish" and
 * "stop the fryer" stay a kitchen's words. In the order said; the action router's last-wins decides
 * which one stands. This is the built-in language's reading; the router uses the configured one.
 * Why: docs/decisions.md#the-imperatives-are-read-whole.
 */
export type { Imperative };

/** The imperatives the whole utterance is, in order; null when it is anything else. `_fillers`: kept for callers; the language drops "uh", "um" itself. */
export function wholeImperatives(s: Said, _fillers?: ReadonlySet<string>): Imperative[] | null {
  return readImperatives(defaultLanguage(), s, NOTHING_OWNED);
}
