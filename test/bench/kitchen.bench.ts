import { bench, describe } from 'vitest';
import { parseKitchen } from '../../src/router/kitchen-verb.js';
import { said } from '../../src/router/text.js';

/**
 * The kitchen language runs on every utterance that reaches a query frame (the kitchen rule comes
 * before the catch-all), so its cost on ordinary text matters as much as on a timer request.
 */
describe('kitchen language: cost per utterance', () => {
  const timer = said('set timer called pizza for 1 hour, 15 minutes, and 30 seconds').words;
  const status = said('how much time is left on the timer in the kitchen').words;
  const plain = said('what is the soup of the day and is there any left in the walk in').words;
  const list = said('put apples on the trader joes list').words;
  bench('a timer request', () => void parseKitchen(timer, 'kitchen'));
  bench('a status question', () => void parseKitchen(status, 'kitchen'));
  bench('a list request', () => void parseKitchen(list, 'kitchen'));
  bench('ordinary text (no timer, no list)', () => void parseKitchen(plain, 'kitchen'));
});
