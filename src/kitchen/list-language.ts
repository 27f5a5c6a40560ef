/**
 * The list half of the kitchen language: "add apples to my shopping list", "put apples on the
 * trader joes list", "take sugar off the list", "what's on the shopping list", "clear the shopping
 * list". A sentence is about a list only when it ends in the word "list" (or names one after
 * "what's on"), so "add 5 minutes to the timer" and dictated text stay what they are. The shopping
 * list is the default. Pure.
 */
export type ListCommand =
  | { op: 'add' | 'remove'; list: string; item: string }
  | { op: 'read' | 'clear'; list: string };

export const DEFAULT_LIST = 'shopping';

const ADD = ['add', 'put', 'stick', 'throw', 'write', 'pop', 'include', 'note'];
const REMOVE = ['remove', 'take', 'delete', 'cross', 'scratch', 'strike'];
const READ = [['whats', 'on'], ['what', 'is', 'on'], ['what', 'do', 'i', 'have', 'on'], ['what', 'do', 'we', 'have', 'on'], ['read', 'me'], ['read'], ['tell', 'me'], ['show', 'me'], ['show'], ['check']];
const CLEAR = ['clear', 'empty', 'wipe', 'reset', 'delete'];
/** The words a list request can start with, each as words. */
export const LIST_VERB_STARTS: readonly (readonly string[])[] = [...ADD, ...REMOVE, ...CLEAR].map((w) => [w]).concat(READ);
const OWNERS = new Set(['the', 'my', 'our', 'a', 'your']);
const POLITE = new Set(['please', 'can', 'could', 'would', 'you', 'hey', 'ok', 'okay']);

/** "the trader joes" → "trader joes"; nothing → the shopping list. */
function listName(words: readonly string[]): string {
  let w = words.filter((x, i) => !(i === 0 && OWNERS.has(x)));
  if (w[0] && OWNERS.has(w[0])) w = w.slice(1);
  return w.length ? w.join(' ') : DEFAULT_LIST;
}

function itemOf(words: readonly string[]): string {
  const w = ['some', 'the', 'a', 'an'].includes(words[0]!) && words.length > 1 ? words.slice(1) : words;
  return w.join(' ');
}

export function parseListCommand(input: readonly string[]): ListCommand | null {
  let words = [...input];
  while (words.length && POLITE.has(words[0]!)) words = words.slice(1);
  while (words.length && words[words.length - 1] === 'please') words = words.slice(0, -1);
  if (words[words.length - 1] !== 'list' || words.length < 2) return null;
  const body = words.slice(0, -1);
  const first = body[0]!;
  // "add apples to my shopping list": the last to/on/onto before the list name splits item and list.
  const splitAt = (joins: readonly string[]): number => {
    for (let i = body.length - 1; i > 1; i--) if (joins.includes(body[i]!)) return i;
    return -1;
  };
  if (ADD.includes(first)) {
    const at = splitAt(['to', 'on', 'onto']);
    if (at > 1) return { op: 'add', item: itemOf(body.slice(1, at)), list: listName(body.slice(at + 1)) };
  }
  if (REMOVE.includes(first)) {
    const at = splitAt(['off', 'from']);
    if (at > 1) return { op: 'remove', item: itemOf(body.slice(1, at)), list: listName(body.slice(at + 1)) };
  }
  if (CLEAR.includes(first) && body.length <= 4) return { op: 'clear', list: listName(body.slice(1)) };
  for (const r of READ) {
    if (r.every((w, k) => body[k] === w)) return { op: 'read', list: listName(body.slice(r.length)) };
  }
  return null;
}
