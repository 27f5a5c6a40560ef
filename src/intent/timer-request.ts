import { readDuration } from './duration.js';

/**
 * "set a timer for ten minutes", "set a pasta timer for 10 minutes", "set a ten minute timer",
 * "timer for an hour and a half for the roast": where the duration and the label are depends on
 * how it was said, so this reads the words around "timer" rather than one regular expression.
 */
export interface TimerRequest {
  seconds: number;
  label?: string;
}

const ARTICLES = new Set(['a', 'an', 'the', 'my']);
const CONNECTORS = new Set(['for', 'called', 'named', 'labelled', 'labeled', 'on']);

function tidyLabel(words: string[]): string | undefined {
  let w = words.slice();
  while (w.length && (CONNECTORS.has(w[0]!) || ARTICLES.has(w[0]!))) w = w.slice(1);
  while (w.length && (w[w.length - 1] === 'please' || w[w.length - 1] === 'timer')) w = w.slice(0, -1);
  return w.length ? w.join(' ') : undefined;
}

/** Parse the words of a timer request. Null when no duration can be found in them. */
export function parseTimerRequest(words: readonly string[]): TimerRequest | null {
  const at = words.indexOf('timer');
  let before = at >= 0 ? words.slice(0, at) : [];
  let after = at >= 0 ? words.slice(at + 1) : words.slice();
  while (before.length && ARTICLES.has(before[0]!)) before = before.slice(1);

  let seconds: number | undefined;
  let label: string | undefined;

  // "a ten minute (pasta) timer"
  const pre = readDuration(before, 0);
  if (pre) {
    seconds = pre.seconds;
    label = tidyLabel(before.slice(pre.next));
  } else {
    label = tidyLabel(before);
  }

  // "... timer for ten minutes (for the rice)"
  if (after[0] === 'for' || after[0] === 'of') after = after.slice(1);
  if (seconds === undefined) {
    const post = readDuration(after, 0);
    if (post) {
      seconds = post.seconds;
      after = after.slice(post.next);
    }
  }
  if (seconds === undefined) return null;
  label ??= tidyLabel(after);
  return label ? { seconds, label } : { seconds };
}
