import { defaultLanguage } from './default.js';
import { DEFAULT_LIST, type ListCommand } from './requests.js';
import { NOTHING_OWNED } from './situation.js';

/**
 * The list half of the kitchen language, for callers with nothing else known. The sentences are
 * in packs/<lang>/sentences.yaml (list.*); items keep their quantities (src/language/items.ts).
 */
export { DEFAULT_LIST, type ListCommand };

/** Normalised words as a list request, or null. */
export function parseListCommand(words: readonly string[]): ListCommand | null {
  const r = defaultLanguage().read(words, NOTHING_OWNED, ['list']);
  return r?.kind === 'list' ? r.command : null;
}
