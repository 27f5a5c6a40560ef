import { loadPack } from './files.js';
import { languageOf, type Language } from './language.js';

const built = new Map<string, Language>();

/** The language of a shipped pack (packs/<code>/), read on first use; a PackError names what is wrong in it. */
export function packLanguage(code: string): Language {
  let l = built.get(code);
  if (!l) built.set(code, (l = languageOf(loadPack(code))));
  return l;
}

/** English, read from packs/en on first use: the language of callers that have no other (and the default of language.languages). */
export function english(): Language {
  return packLanguage('en');
}

/** English's fillers ("um", "uh"): router.fillers' default. */
export function englishFillers(): readonly string[] {
  return english().pack.words.fillers;
}
