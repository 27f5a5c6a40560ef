import { KitchenLanguage } from './kitchen.js';
import { english } from './pack/english.js';
import type { Language } from './pack/language.js';
import { NOTHING_OWNED } from './situation.js';

/**
 * The duration and name of a timer to start, from the words of a request ("a ten minute pasta
 * timer", "timer for an hour and a half for the roast", "ten minutes", "de pasta para diez
 * minutos"): the start case of the timer language, in the request's language, for the intent pass,
 * which reads a model's free-text object.
 */
export interface TimerRequest {
  seconds: number;
  label?: string;
}

const kitchens = new WeakMap<Language, KitchenLanguage>();

function kitchenOf(lang: Language): KitchenLanguage {
  let k = kitchens.get(lang);
  if (!k) kitchens.set(lang, (k = new KitchenLanguage({}, lang)));
  return k;
}

/**
 * Null when no duration can be found in the words. The words are said as a start in the pack's own
 * way of saying one again (timers.yaml `start_many`): its verb before them ("set pasta for 8 minutes
 * timer"), else its verb, article, timer word and "for" ("pon un temporizador de pasta para 10
 * minutos"). A pack without that way reads no timer request here.
 */
export function parseTimerRequest(words: readonly string[], lang: Language = english()): TimerRequest | null {
  const s = lang.pack.timers.start_many;
  if (!s) return null;
  const timerWords = lang.list('timers', 'words');
  const asked = words.some((w) => timerWords.has(w)) ? words : [...words, s.timer];
  // Always a start here: the words are what a timer should be set for, never a cancel or a status.
  for (const sentence of [
    [s.verb, ...asked],
    [s.verb, s.article, s.timer, s.for, ...words],
  ]) {
    const r = kitchenOf(lang).read(sentence, NOTHING_OWNED, ['timer']);
    const c = r?.kind === 'timer' ? r.command : null;
    if (c && c.op === 'start' && c.seconds !== null) return c.name ? { seconds: c.seconds, label: c.name } : { seconds: c.seconds };
  }
  return null;
}
