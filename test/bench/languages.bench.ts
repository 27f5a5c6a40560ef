import { bench, describe } from 'vitest';
import { kitchenLanguage } from '../../src/language/config.js';
import { NOTHING_OWNED } from '../../src/language/situation.js';
import { said } from '../../src/language/text.js';
import { readImperatives, readRequest } from '../../src/language/understand.js';

/**
 * What the language layer costs per utterance: text → decision (the kitchen request, then the
 * imperatives, as the router asks) on a device with one language and with three. Every utterance
 * is read in each language, so this is the price of a second and third pack; a named language
 * (a multilingual engine's) is read first but the others are still read for the best reading.
 */
const lines = [
  'set a timer for ten minutes',
  'add eggs to the shopping list',
  'how long is left on the rice',
  'pon un temporizador de arroz de diez minutos',
  'añade tres limones a la lista de la compra',
  'stell einen Timer auf fünf Minuten',
  'yeah the chips are nearly done',
  'stop',
].map((t) => said(t));
const es = said('pon un temporizador de arroz de diez minutos', 'es');

const one = kitchenLanguage({ languages: ['en'] });
const three = kitchenLanguage({ languages: ['en', 'es', 'de'] });
const decide = (k: typeof one) => {
  for (const s of lines) if (!readRequest(k, s, NOTHING_OWNED)) readImperatives(k, s, NOTHING_OWNED);
};

describe('text → decision, 8 utterances', () => {
  bench('1 language [en]', () => decide(one));
  bench('3 languages [en, es, de]', () => decide(three));
});

describe('one Spanish request on [en, es, de]', () => {
  bench('no language named', () => void readRequest(three, lines[3]!, NOTHING_OWNED));
  bench('named es', () => void readRequest(three, es, NOTHING_OWNED));
});
