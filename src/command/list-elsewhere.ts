import type { KitchenLanguage } from '../language/kitchen.js';
import { listId } from '../language/readers.js';
import { DEFAULT_LIST, type ListCommand } from '../language/requests.js';
import type { Situation } from '../language/situation.js';
import type { Said } from '../language/text.js';

/**
 * "añadir manzanas a Mercadona", "add apples to costco", "füge Äpfel zu Aldi hinzu": an item put on
 * a list named without the word for a list. The sentences name a list with that word ("the costco
 * list", "la lista de la compra"), so nothing reads these words as they are; read again with the
 * word put where the language puts it (lists.yaml `list_words`, `list_name`: "costco list", "lista
 * mercadona"), they are a list request. A list hark has ("add milk to shopping") is that request; one
 * it does not have is `unknown`, for hark to name the lists it has rather than start a list from a
 * word that may be a shop, a person or a mishearing. Only words with one of the language's words for
 * adding (rules.yaml `list_add`) are read again. Pure.
 */
export interface ElsewhereList {
  command: Extract<ListCommand, { items: unknown }>;
  /** The language whose words these are. */
  lang: string;
  /** The list is not one hark has: the name as said ("mercadona"). */
  unknown?: string;
}

const MAX_NAME_WORDS = 3;

export function readElsewhereList(s: Said, language: KitchenLanguage, situation: Situation): ElsewhereList | null {
  const order = s.language ? [...language.each()].sort((a, b) => Number(b.lang.code === s.language) - Number(a.lang.code === s.language)) : language.each();
  for (const k of order) {
    const r = readIn(k, s.words, situation);
    if (r) return r;
  }
  return null;
}

function readIn(k: KitchenLanguage, words: readonly string[], situation: Situation): ElsewhereList | null {
  const pack = k.lang.pack;
  const adds = pack.rules.list_add;
  const verbs = new Set((Array.isArray(adds) ? adds : [adds]).filter((a) => /^[\p{L}\p{N} ]+$/u.test(a)).flatMap((a) => a.split(' ')));
  if (!words.some((w) => verbs.has(w))) return null;
  const word = pack.lists.list_words[0];
  if (word === undefined) return null;
  const before = pack.lists.list_name.includes('before');
  const after = pack.lists.list_name.includes('after');
  // From the end: a name is most often the last thing said ("... a Mercadona").
  for (let at = words.length; at >= 1; at--) {
    const tried = [...words.slice(0, at), word, ...words.slice(at)];
    const r = k.read(tried, situation, ['list']);
    if (r?.kind !== 'list' || r.command.op !== 'add' || r.question) continue;
    const list = r.command.list;
    // The list read must be the words beside the one put in, not something else the sentence found.
    const names: string[] = [];
    for (let n = 1; n <= MAX_NAME_WORDS; n++) {
      if (before && at - n >= 0) names.push(words.slice(at - n, at).join(' '));
      if (after && at + n <= words.length) names.push(words.slice(at, at + n).join(' '));
    }
    const said = names.find((n) => listId(k.lang, n) === list);
    if (said === undefined) continue;
    const known = list === DEFAULT_LIST || Object.values(pack.lists.names).includes(list) || situation.lists.some((l) => l.name === list);
    return { command: r.command, lang: k.lang.code, ...(known ? {} : { unknown: said }) };
  }
  return null;
}
