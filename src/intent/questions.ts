import { english } from '../language/pack/english.js';
import type { Language } from '../language/pack/language.js';
import { defaultAsk, type IntentSpec } from './intent-spec.js';

/**
 * Which words hark asks a proposal with, in the request's language: the intent's own for that
 * language (askIn / clarifyIn), else the config's own as written (ask / clarify), else the language
 * pack's for the intent's name (proposals.yaml). A question the config did not write (a built-in
 * intent's, or one left out) is the pack's in every language. Pure.
 */
export interface Worded {
  text: string;
  /** True when the words are the request's language's (said with its voice); false for the config's own, as written. */
  inLanguage: boolean;
}

/** The yes/no question template, its {slots} still to fill. */
export function askOf(intent: IntentSpec, lang: Language): Worded {
  const own = intent.askIn?.[lang.code];
  if (own !== undefined) return { text: own, inLanguage: true };
  const pack = lang.pack.proposals.ask[intent.name];
  const written = intent.ask !== defaultAsk(intent.name);
  if (written || pack === undefined) return { text: intent.ask, inLanguage: !written && lang.code === english().code };
  return { text: pack, inLanguage: true };
}

/** What hark asks when a part is missing (`intent`), or when the answer could not be used at all (none); `configured`: intent.clarify. */
export function clarifyOf(intent: IntentSpec | undefined, lang: Language, configured: string | undefined): Worded {
  const own = intent?.clarifyIn?.[lang.code];
  if (own !== undefined) return { text: own, inLanguage: true };
  const name = intent?.name;
  const written = intent?.clarify !== undefined && (name === undefined || intent.clarify !== english().pack.proposals.clarify[name]);
  if (written) return { text: intent.clarify!, inLanguage: false };
  const pack = name !== undefined ? lang.pack.proposals.clarify[name] : undefined;
  if (pack !== undefined) return { text: pack, inLanguage: true };
  if (configured !== undefined) return { text: configured, inLanguage: false };
  return { text: lang.pack.proposals.unclear, inLanguage: true };
}
