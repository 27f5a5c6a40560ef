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
  const now = {
    timers: [
      { label: 'rice', seconds: 600, state: 'running' as const },
      { label: 'brisket', seconds: 1200, state: 'running' as const },
    ],
    lists: [{ name: 'shopping', items: ['eggs'] }],
    ringing: false,
    area: 'kitchen',
  };
  const timer = said('set timer called pizza for 1 hour, 15 minutes, and 30 seconds');
  const status = said('how much time is left on the timer in the kitchen');
  const plain = said('what is the soup of the day and is there any left in the walk in');
  const list = said('put apples on the trader joes list');
  const order = said('put 4 pints of stock, 2 kilos of shallots, a tub of duck fat, three bunches of thyme and a case of eggs on the order list');
  const order10 = said(
    'put 4 pints of stock, 2 kilos of shallots, a tub of duck fat, three bunches of thyme, a case of eggs, 6 litres of milk, two bags of flour, a box of lemons, 3 tins of tomatoes and a sack of onions on the order list',
  );
  const longTalk = said(
    'so the thing is table four sent the fish back because it was cold and then the new guy put two more on the pass and nobody told me so now we are behind on everything and the list for tomorrow is still not done and I need it before five',
  );
  const many = said('add basil, shallots, double cream, two kilos of onions and a case of milk to the stores list');
  bench('a timer request', () => void parseKitchen(timer, lang, now));
  bench('a status question', () => void parseKitchen(status, lang, now));
  bench('a list request', () => void parseKitchen(list, lang, now));
  bench('five items in one list request', () => void parseKitchen(many, lang, now));
  bench('five items with quantities in one list request (22 words of items)', () => void parseKitchen(order, lang, now));
  bench('ten items with quantities in one list request (44 words of items)', () => void parseKitchen(order10, lang, now));
  bench('ordinary talk of 50 words (no timer, no list)', () => void parseKitchen(longTalk, lang, now));
  bench('ordinary text (no timer, no list)', () => void parseKitchen(plain, lang, now));
});
