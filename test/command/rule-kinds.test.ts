import { describe, expect, it } from 'vitest';
import { literalStart } from '../../src/command/compile.js';
import { harness } from './harness.js';

/** A base frame made of the given rules only. */
function baseWith(rules: unknown[]) {
  return harness({ config: { router: { frames: { base: { rules } } } } });
}

describe('rule kinds', () => {
  it('exact matches the whole normalised utterance, nothing more', () => {
    const h = baseWith([{ exact: ['lights on'], do: { say: 'on' } }]);
    h.sayAll('Lights on!', 'lights on please', 'the lights on');
    expect(h.spoken()).toEqual(['on']);
    expect(h.ignored().map((i) => i.text)).toEqual(['lights on please', 'the lights on']);
  });

  it('prefix matches whole words and hands on the rest ({rest})', () => {
    const h = baseWith([{ prefix: ['note', 'note to self'], do: { say: 'noted: {rest}' } }]);
    h.sayAll('Note to self, buy lemons.', 'note', 'notebook');
    expect(h.spoken()).toEqual(['noted: buy lemons.', 'noted: ']);
    expect(h.ignored().map((i) => i.text)).toEqual(['notebook']);
  });

  it('pattern named captures become slots for say and action args', () => {
    const h = baseWith([
      { pattern: '^eighty six (?<item>.+)$', do: [{ say: 'out of {item}' }, { action: 'menu.out', args: { item: '{item}', urgent: true } }] },
    ]);
    h.say('Eighty-six the halibut.');
    expect(h.spoken()).toEqual(['out of the halibut']);
    expect(h.actions()).toEqual([{ name: 'menu.out', args: { item: 'the halibut', urgent: true } }]);
  });

  it('intent uses the rule-based intent detector as a pattern source, with its slots', () => {
    const h = baseWith([
      { intent: ['generate'], do: { action: 'generate', args: { count: '{count}', topic: '{topic}' } } },
      { intent: ['question'], do: { say: 'a {intent} question about {topic}' } },
    ]);
    h.sayAll('please give me 5 questions about sauces', 'what is a roux');
    expect(h.spoken()).toEqual(['a definition question about roux']);
    h.clock.advanceBy(1500); // generate is a last-wins action: it fires after the conflict window
    expect(h.actions()).toEqual([{ name: 'generate', args: { count: '5', topic: 'sauces' } }]);
  });

  it('catch-all takes any real words but not fillers alone', () => {
    const h = baseWith([{ 'catch-all': true, do: { say: 'got {rest}' } }]);
    h.sayAll('uh', 'uh soup');
    expect(h.spoken()).toEqual(['got uh soup']);
  });

  it('when limits a rule to one mode', () => {
    const h = baseWith([
      { exact: 'listen', do: { mode: 'always-listen' } },
      { exact: 'hi', when: 'always-listen', do: { say: 'hello' } },
    ]);
    h.sayAll('hi', 'listen', 'hi');
    expect(h.spoken()).toEqual(['Always listening.', 'hello']);
  });

  it('ignore reports the utterance as ignored on purpose', () => {
    const h = baseWith([{ exact: ['thank you', 'thanks'], do: 'ignore' }]);
    h.say('Thank you.');
    expect(h.of('ignored')).toEqual([expect.objectContaining({ frame: 'base', reason: 'a rule says to ignore it' })]);
  });

  it('rules run in order: the first match wins', () => {
    const h = baseWith([
      { pattern: '^stop', do: { say: 'pattern' } },
      { exact: 'stop', do: { say: 'exact' } },
    ]);
    h.say('stop');
    expect(h.spoken()).toEqual(['pattern']);
  });

  it('reports which rule matched, for technicians', () => {
    const h = harness();
    h.say('computer');
    expect(h.of('matched')).toEqual([expect.objectContaining({ frame: 'base', rule: 0, kind: 'prefix', text: 'computer' })]);
  });
});

describe('pattern literal start (the dispatch loop skips a regex whose text cannot match)', () => {
  it.each([
    ['^eighty six (?<item>.+)$', 'eighty six '],
    ['^set a timer', 'set a timer'],
    ['^(?:please )?stop', undefined],
    ['^ab?c', 'a'],
    ['^a{2}', undefined],
    ['^stop|^halt', undefined],
    ['^(stop|halt) now', undefined],
    ['^\\d+ items', undefined],
    ['stop$', undefined],
    ['^[ab]c', undefined],
  ])('%s → %s', (source, start) => {
    expect(literalStart(source)).toBe(start);
  });

  it('does not change what matches: an alternation with a different start still matches', () => {
    const h = baseWith([{ pattern: '^stop now|^halt', do: { say: 'halted' } }]);
    h.say('halt');
    expect(h.spoken()).toEqual(['halted']);
  });
});
