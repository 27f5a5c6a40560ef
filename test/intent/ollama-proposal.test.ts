import { describe, expect, it } from 'vitest';
import { DEFAULT_INTENTS, type IntentSpec } from '../../src/intent/intent-spec.js';
import { readProposal } from '../../src/intent/proposal.js';
import { fillSlots, missingSlot, proposalSlots } from '../../src/intent/proposal-slots.js';
import { numberWords } from '../../src/language/spoken.js';

const intent = (name: string): IntentSpec => DEFAULT_INTENTS.find((i) => i.name === name)!;

describe('validating what the model said', () => {
  it.each([
    ['{"verb": "add_to_list", "object": "3 cases of milk"}', 'add_to_list', '3 cases of milk'],
    ['{"verb": "  ADD_TO_LIST\\n", "object": " milk "}', 'add_to_list', 'milk'],
    ['{"verb": "call_manager", "object": null}', 'call_manager', null],
    ['{"verb": "call_manager"}', 'call_manager', null],
    ['{"verb": "inventory_count", "object": 12}', 'inventory_count', '12'],
  ])('%s → PROPOSED %s', (content, name, target) => {
    expect(readProposal(content, DEFAULT_INTENTS)).toEqual({ status: 'PROPOSED', intent: intent(name), target });
  });

  it.each([
    ['', 'the model returned an empty reply'],
    ['   ', 'the model returned an empty reply'],
    ['Sure, adding milk!', 'the reply is not JSON: "Sure, adding milk!"'],
    ['{"verb": "add_to_list", "object": "milk"', 'the reply is not JSON: "{\\"verb\\": \\"add_to_list\\", \\"object\\": \\"milk\\""'],
    ['["add_to_list", "milk"]', 'the reply is not a JSON object: ["add_to_list", "milk"]'],
    ['{"intent": "add_to_list"}', 'the reply has no "verb": {"intent": "add_to_list"}'],
    ['{"verb": ["add_to_list"]}', '"verb" is not text: ["add_to_list"]'],
    ['{"verb": "  "}', 'the verb is empty'],
    ['{"verb": "unknown", "object": null}', 'the model did not recognise a request'],
    ['{"verb": "UNKNOWN"}', 'the model did not recognise a request'],
    ['{"verb": "refund", "object": "#001"}', '"refund" is not one of the allowed intents'],
    ['{"verb": "add to list", "object": "milk"}', '"add to list" is not one of the allowed intents'],
    ['{"verb": "add_to_list", "object": {"item": "milk"}}', '"object" must be text or null, got {"item":"milk"}'],
    ['{"verb": "add_to_list", "object": null}', 'add_to_list needs an object and the model gave none'],
    ['{"verb": "add_to_list", "object": "  "}', 'add_to_list needs an object and the model gave none'],
  ])('%j → AMBIGUOUS: %s', (content, reason) => {
    expect(readProposal(content, DEFAULT_INTENTS)).toEqual(expect.objectContaining({ status: 'AMBIGUOUS', reason }));
  });

  it('cuts a long garbage reply in its reason, so one answer cannot flood the log', () => {
    const p = readProposal('blah '.repeat(500), DEFAULT_INTENTS);
    expect(p.status === 'AMBIGUOUS' && p.reason.length).toBeLessThan(120);
  });
});

describe("reading an object's parts, and the question hark asks", () => {
  const ask = (name: string, target: string | null, said: string) => {
    const i = intent(name);
    const slots = proposalSlots(i, target, said);
    return { slots, question: fillSlots(i.ask, slots), missing: missingSlot(i, slots) };
  };

  it.each([
    [
      'add_to_list',
      '3 cases of milk',
      'we need three cases of milk for the order list',
      'Add three cases of milk to the order list?',
      { item: 'milk', quantity: 3, unit: 'cases', list: 'order' },
    ],
    ['add_to_list', 'a case of milk', 'add a case of milk', 'Add a case of milk to the shopping list?', { item: 'milk', quantity: 1, unit: 'case' }],
    ['add_to_list', 'napkins', 'put napkins on the dry goods list', 'Add napkins to the dry goods list?', { item: 'napkins', list: 'dry goods' }],
    ['add_to_list', 'milk to the prep list', 'milk for prep', 'Add milk to the prep list?', { item: 'milk', list: 'prep' }],
    [
      'remove_from_list',
      'the napkins',
      'take the napkins off the shopping list',
      'Remove napkins from the shopping list?',
      { item: 'napkins', list: 'shopping' },
    ],
    ['read_list', 'prep list', 'read me the prep list', 'Read the prep list?', { list: 'prep' }],
    ['read_list', null, 'what is on the list', 'Read the shopping list?', { list: 'shopping' }],
    [
      'inventory_count',
      'gloves',
      'we have twelve boxes of gloves',
      'Record a count of twelve boxes of gloves?',
      { item: 'gloves', quantity: 12, unit: 'boxes' },
    ],
    ['set_timer', 'pasta for 8 minutes', 'time the pasta for eight minutes', 'Set a pasta timer for 8 minutes?', { seconds: 480, label: 'pasta' }],
    ['set_timer', '90 seconds', 'ninety seconds on the clock', 'Set a timer for 1 minute and 30 seconds?', { seconds: 90 }],
    ['cancel_timer', 'rice', 'kill the rice timer', 'Cancel the rice timer?', { label: 'rice' }],
    ['cancel_timer', null, 'never mind the timer', 'Cancel the timer?', {}],
    ['report_issue', 'the walk-in is at 10 degrees', 'the walk-in is at ten degrees', 'Report: the walk-in is at ten degrees?', {}],
    ['call_manager', null, 'get me a manager', 'Call the manager?', {}],
  ] as const)('%s %j → %j', (name, target, said, question, parts) => {
    const r = ask(name, target, said);
    expect(r.question).toBe(question);
    expect(r.slots).toEqual(expect.objectContaining(parts));
    expect(r.missing).toBeNull();
  });

  it('names what an action cannot run without', () => {
    expect(ask('set_timer', 'the pasta', 'time the pasta').missing).toBe('seconds');
    expect(ask('inventory_count', 'gloves', 'count the gloves').missing).toBe('quantity');
    expect(ask('add_to_list', 'the order list', 'add to the order list').missing).toBe('item');
  });

  it.each([
    [0, 'zero'],
    [7, 'seven'],
    [42, 'forty two'],
    [105, 'one hundred and five'],
    [2024, 'two thousand and twenty four'],
    [1.5, '1.5'],
  ])('says %d as %s', (n, words) => {
    expect(numberWords(n)).toBe(words);
  });
});
