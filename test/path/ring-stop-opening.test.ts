import { describe, expect, it } from 'vitest';
import { opensForBase, openingPhrases } from '../../src/path/opening.js';
import { DEFAULT_FRAMES } from '../../src/command/defaults.js';
import { KitchenLanguage } from '../../src/language/kitchen.js';
import { stopsRinging } from '../../src/language/answers.js';
import { packLanguage } from '../../src/language/pack/english.js';
import { said } from '../../src/language/text.js';

/**
 * While a timer rings, a long segment that opens with the words that stop a ring is transcribed
 * whole: the same words, in every language of the device, that stop the ring when said alone.
 */

const phrases = openingPhrases(DEFAULT_FRAMES)!;
const device = new KitchenLanguage({}, packLanguage('en'), [packLanguage('es'), packLanguage('de')]);

describe('the ring-stop opening of a long segment', () => {
  it.each([
    ['en', 'turn it off, and then the fryer'],
    ['en', 'heard, chef, the fries are going in'],
    ['en', 'stopped it, now where was I'],
    ['en', 'got it, thank you, and can someone'],
    ['es', 'apágalo ya, que tengo las manos'],
    ['es', 'vale gracias, y ahora el arroz'],
    ['de', 'mach aus, ich hab die Hände voll'],
    ['de', 'schon gut danke, und dann'],
  ])('%s "%s" opens while a timer rings', (_lang, text) => {
    expect(opensForBase(text, phrases, true, device)).toBe(true);
  });

  it.each(['the fryer is still going', 'el arroz está listo pronto', 'die Pommes sind gleich fertig'])('"%s" does not open while a timer rings', (text) => {
    expect(opensForBase(text, phrases, true, device)).toBe(false);
  });

  it('what stops the ring said alone also opens a long segment, word for word, in each language', () => {
    for (const k of device.each()) {
      for (const w of k.lang.pack.words.ring_stop) {
        expect(stopsRinging(said(w).words, k.lang), `${k.lang.code} "${w}" stops a ring`).toBe(true);
        expect(opensForBase(`${w}, and then the other thing`, phrases, true, device), `${k.lang.code} "${w}" opens`).toBe(true);
      }
    }
  });

  it('no ring, no ring-stop opening', () => {
    expect(opensForBase('heard, chef, the fries are going in', phrases, false, device)).toBe(false);
  });
});
