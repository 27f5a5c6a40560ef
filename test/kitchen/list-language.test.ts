import { describe, expect, it } from 'vitest';
import { parseListCommand } from '../../src/language/list-language.js';
import { said } from '../../src/language/text.js';
import { harness } from '../command/harness.js';

const parse = (text: string) => parseListCommand(said(text).words);

describe('the list language', () => {
  it.each([
    ['add apples to my shopping list', { op: 'add', items: [{ item: 'apples' }], list: 'shopping' }],
    ['put apples on the list', { op: 'add', items: [{ item: 'apples' }], list: 'shopping' }],
    ['put apples on the trader joes list', { op: 'add', items: [{ item: 'apples' }], list: 'trader joes' }],
    ['please add some olive oil to the list', { op: 'add', items: [{ item: 'olive oil' }], list: 'shopping' }],
    ['add salt and pepper to the prep list', { op: 'add', items: [{ item: 'salt' }, { item: 'pepper' }], list: 'prep' }],
    [
      'add three lemons and 2 kilos of onions to the list',
      {
        op: 'add',
        items: [
          { item: 'lemons', quantity: 3 },
          { item: 'onions', quantity: 2, unit: 'kilos' },
        ],
        list: 'shopping',
      },
    ],
    [
      'put a case of milk and half a dozen eggs on the stores list',
      {
        op: 'add',
        items: [
          { item: 'milk', quantity: 1, unit: 'case' },
          { item: 'eggs', quantity: 6 },
        ],
        list: 'stores',
      },
    ],
    ['take sugar off the list', { op: 'remove', items: [{ item: 'sugar' }], list: 'shopping' }],
    ['remove eggs from my shopping list', { op: 'remove', items: [{ item: 'eggs' }], list: 'shopping' }],
    ['cross milk off the list', { op: 'remove', items: [{ item: 'milk' }], list: 'shopping' }],
    ["what's on the shopping list", { op: 'read', list: 'shopping' }],
    ['read me the list', { op: 'read', list: 'shopping' }],
    ["tell me what's on the stores list", { op: 'read', list: 'stores' }],
    ['clear the shopping list', { op: 'clear', list: 'shopping' }],
  ] as const)('"%s"', (text, command) => {
    expect(parse(text)).toEqual(command);
  });

  it.each(['add 5 minutes to the timer', 'make a list', 'the list', 'what is a shopping list for', 'add apples'])('leaves "%s" alone', (text) => {
    expect(parse(text)).toBeNull();
  });
});

describe('lists by rule, no model', () => {
  it('adds, reads, removes and clears, the same in wake-word and always-listen mode', () => {
    for (const [mode, w] of [
      ['wake-word', 'computer '],
      ['always-listen', ''],
    ] as const) {
      const h = harness({ config: { router: { mode } } });
      h.sayAll(`${w}add apples to my shopping list`, `${w}put olive oil on the list`, `${w}take apples off the list`, `${w}what's on the shopping list`);
      expect(h.spoken().at(-1)).toBe('The shopping list: olive oil.');
      h.sayAll(`${w}clear the shopping list`, `${w}what's on the list`);
      expect(h.spoken().at(-1)).toBe('The shopping list is empty.');
      expect(h.stack()).toEqual(['base']);
    }
  });

  it('says so when the item to take off is not there', () => {
    const h = harness({ config: { router: { mode: 'always-listen' } } });
    h.say('take sugar off the list');
    expect(h.spoken()).toEqual(['Sugar is not on the shopping list.']);
  });
});
