import { describe, expect, it } from 'vitest';
import { itemKey, readItem, readItemList, readItems } from '../../src/language/items.js';
import { said } from '../../src/language/text.js';

const w = (s: string) => said(s).words;

describe('an item and its quantity', () => {
  it.each([
    ['three lemons', { item: 'lemons', quantity: 3 }],
    ['3 lemons', { item: 'lemons', quantity: 3 }],
    ['lemons', { item: 'lemons' }],
    ['the lemons', { item: 'lemons' }],
    ['some parsley', { item: 'parsley' }],
    ['more cling film', { item: 'cling film' }],
    ['double cream', { item: 'double cream' }],
    ['2 kilos of onions', { item: 'onions', quantity: 2, unit: 'kilos' }],
    ['500 grams butter', { item: 'butter', quantity: 500, unit: 'grams' }],
    ['a bag of flour', { item: 'flour', quantity: 1, unit: 'bag' }],
    ['a case of milk', { item: 'milk', quantity: 1, unit: 'case' }],
    ['six tins of tomatoes', { item: 'tomatoes', quantity: 6, unit: 'tins' }],
    ['a dozen eggs', { item: 'eggs', quantity: 12 }],
    ['half a dozen limes', { item: 'limes', quantity: 6 }],
    ['two dozen eggs', { item: 'eggs', quantity: 24 }],
    ['a couple of lemons', { item: 'lemons', quantity: 2 }],
    ['half a kilo of butter', { item: 'butter', quantity: 0.5, unit: 'kilo' }],
    ['one and a half kilos of flour', { item: 'flour', quantity: 1.5, unit: 'kilos' }],
  ])('%j → %j', (text, item) => {
    expect(readItem(w(text))).toEqual(item);
  });

  it('a sentence about someone is no item: words before a number', () => {
    expect(readItem(w('short three cases of milk'))).toBeNull();
  });

  it('several in one breath, split at the commas speech-to-text wrote and at "and"', () => {
    const s = said('basil, shallots, double cream and capers');
    const breaks = s.words.map((_, i) => /,$/.test(s.tokens[s.wordToken[i]!]!) && s.wordToken[i + 1] !== s.wordToken[i]);
    expect(readItems(s.words, breaks)).toEqual([{ item: 'basil' }, { item: 'shallots' }, { item: 'double cream' }, { item: 'capers' }]);
    expect(readItems(w('three lemons and 2 kilos of onions'))).toEqual([
      { item: 'lemons', quantity: 3 },
      { item: 'onions', quantity: 2, unit: 'kilos' },
    ]);
    expect(readItems(w('one and a half kilos of flour'))).toEqual([{ item: 'flour', quantity: 1.5, unit: 'kilos' }]);
  });

  it('one line on a list whatever the article, the case or the plural', () => {
    expect(new Set(['lemons', 'Lemon', 'the lemons', 'some lemons'].map(itemKey)).size).toBe(1);
    expect(itemKey('tomatoes')).toBe(itemKey('tomato'));
    expect(itemKey('cherries')).toBe(itemKey('cherry'));
    expect(itemKey('glass')).not.toBe(itemKey('gla'));
    expect(itemKey('double cream')).not.toBe(itemKey('cream'));
    expect(itemKey("bird's eye chillies")).toBe(itemKey('birds eye chillies'));
  });

  it('a list read as far as it goes: the parts that are not items are kept as said, unless they are as many as the items', () => {
    expect(readItemList(w('eggs and stock 4 pints'))).toEqual({ items: [{ item: 'eggs' }], unread: ['stock 4 pints'] });
    expect(readItems(w('eggs and stock 4 pints'))).toBeNull();
    expect(readItemList(w('table 4 2 and table 6 3 and eggs'))).toBeNull();
    expect(readItemList(w('three lemons and 2 kilos of onions'))).toEqual({
      items: [
        { item: 'lemons', quantity: 3 },
        { item: 'onions', quantity: 2, unit: 'kilos' },
      ],
      unread: [],
    });
  });
});
