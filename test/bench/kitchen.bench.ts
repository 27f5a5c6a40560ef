import { bench, describe } from 'vitest';
import { KitchenLanguage } from '../../src/language/kitchen.js';
import { said } from '../../src/language/text.js';
import { parseKitchen } from '../../src/command/kitchen-verb.js';

/**
 * The kitchen language runs on every utterance that reaches a query frame (the kitchen rule comes
 * before the catch-all), so its cost on ordinary text matters as much as on a timer request.
 */
describe('kitchen language: cost per utterance', () => {
  const lang = new KitchenLanguage();
  const now = { timers: [{ label: 'rice', seconds: 600, state: 'running' as const }, { label: 'brisket', seconds: 1200, state: 'running' as const }], lists: [{ name: 'shopping', items: ['eggs'] }], ringing: false, area: 'kitchen' };
  const timer = said('set timer called pizza for 1 hour, 15 minutes, and 30 seconds');
  const status = said('how much time is left on the timer in the kitchen');
  const plain = said('what is the soup of the day and is there any left in the walk in');
  const list = said('put apples on the trader joes list');
  const many = said('add basil, shallots, double cream, two kilos of onions and a case of milk to the stores list');
  bench('a timer request', () => void parseKitchen(timer, lang, now));
  bench('a status question', () => void parseKitchen(status, lang, now));
  bench('a list request', () => void parseKitchen(list, lang, now));
  bench('five items in one list request', () => void parseKitchen(many, lang, now));
  bench('ordinary text (no timer, no list)', () => void parseKitchen(plain, lang, now));
});
