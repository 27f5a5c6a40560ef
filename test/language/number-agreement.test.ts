import { describe, expect, it } from 'vitest';
import { readItem } from '../../src/language/items.js';
import { packLanguage } from '../../src/language/pack/english.js';
import { sayQuantity } from '../../src/language/spoken.js';
import { said } from '../../src/language/text.js';
import { script, simulate } from '../conversation/sim.js';

/** A number before a noun agrees with it, as the pack says: "un limón", "una cebolla", "eine Zwiebel". */
const es = () => packLanguage('es');
const de = () => packLanguage('de');

describe('a number said before a noun', () => {
  it.each([
    ['limón', 1, undefined, 'un limón'],
    ['cebolla', 1, undefined, 'una cebolla'],
    ['limones', 21, undefined, 'veintiún limones'],
    ['cebollas', 21, undefined, 'veintiuna cebollas'],
    ['limones', 31, undefined, 'treinta y un limones'],
    ['cebollas', 31, undefined, 'treinta y una cebollas'],
    ['limones', 101, undefined, 'ciento un limones'],
    ['cebollas', 200, undefined, 'doscientas cebollas'],
    ['limones', 200, undefined, 'doscientos limones'],
    ['leche', 1, 'caja', 'una caja de leche'],
    ['cebollas', 1, 'kilo', 'un kilo de cebollas'],
    // A noun the pack does not name: its ending, else the pack's default.
    ['berenjena', 1, undefined, 'una berenjena'],
    ['pimiento', 1, undefined, 'un pimiento'],
    ['leche', 2, 'cajas', 'dos cajas de leche'],
  ] as const)('es: %s × %d (%s) → %s', (item, n, unit, want) => {
    expect(sayQuantity(item, n, unit, es())).toBe(want);
  });

  it.each([
    ['zwiebel', 1, undefined, 'eine Zwiebel'],
    ['kasten', 1, undefined, 'ein Kasten'],
    ['ei', 1, undefined, 'ein Ei'],
    ['milch', 1, 'kasten', 'ein Kasten Milch'],
    ['milch', 1, 'kiste', 'eine Kiste Milch'],
    ['zwiebeln', 21, undefined, 'einundzwanzig Zwiebeln'],
  ] as const)('de: %s × %d (%s) → %s', (item, n, unit, want) => {
    expect(sayQuantity(item, n, unit, de())).toBe(want);
  });

  it('English is as it was', () => {
    expect(sayQuantity('lemon', 1)).toBe('one lemon');
    expect(sayQuantity('lemons', 21)).toBe('twenty one lemons');
  });
});

describe('and read back', () => {
  it.each([
    ['veintiún limones', { item: 'limones', quantity: 21 }],
    ['un limón', { item: 'limón', quantity: 1 }],
    ['una cebolla', { item: 'cebolla', quantity: 1 }],
    ['ciento un limones', { item: 'limones', quantity: 101 }],
    ['treinta y una cebollas', { item: 'cebollas', quantity: 31 }],
    ['doscientas cebollas', { item: 'cebollas', quantity: 200 }],
    ['una caja de leche', { item: 'leche', quantity: 1, unit: 'caja' }],
    ['una docena de huevos', { item: 'huevos', quantity: 12 }],
    ['unos limones', { item: 'limones' }],
  ])('es: %s → %j', (text, want) => {
    expect(readItem(said(text).words, es())).toEqual(want);
  });

  it.each([
    ['eine zwiebel', { item: 'zwiebel', quantity: 1 }],
    ['ein kasten milch', { item: 'milch', quantity: 1, unit: 'kasten' }],
    ['einen kasten milch', { item: 'milch', quantity: 1, unit: 'kasten' }],
    ['einundzwanzig zwiebeln', { item: 'zwiebeln', quantity: 21 }],
    ['ein dutzend eier', { item: 'eier', quantity: 12 }],
  ])('de: %s → %j', (text, want) => {
    expect(readItem(said(text).words, de())).toEqual(want);
  });

  it('a Spanish list said back and heard again keeps its count', async () => {
    const yaml = 'router:\n  mode: always-listen\nlanguage:\n  languages: [es]\n';
    const r = await simulate(script('añade un limón y veintiuna cebollas a la lista de la compra', '¿qué hay en la lista de la compra?'), { yaml, drainMs: 0 });
    expect(r.spoken()).toEqual(['He añadido un limón y veintiuna cebollas a la lista de compra.', 'La lista de compra: un limón y veintiuna cebollas.']);
  });
});
