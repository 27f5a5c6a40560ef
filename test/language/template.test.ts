import { describe, expect, it } from 'vitest';
import { Grammar, GrammarError } from '../../src/language/grammar.js';
import type { SlotReader } from '../../src/language/match.js';
import { expand, parseTemplate, TemplateError } from '../../src/language/template.js';

/** A small grammar of its own, so the engine is tested apart from the kitchen's sentences. */
const colour: SlotReader<null> = (words, at) =>
  ['red', 'green', 'dark blue'].includes(words[at]!)
    ? [{ end: at + 1, value: words[at], weight: 0.9 }]
    : words[at] === 'dark' && words[at + 1] === 'blue'
      ? [{ end: at + 2, value: 'dark blue', weight: 1.8 }]
      : [];
const anything: SlotReader<null> = (words, at) =>
  words.slice(at).map((_, k) => ({ end: at + k + 1, value: words.slice(at, at + k + 1).join(' '), weight: 0.1 * (k + 1) }));
const readers = new Map<string, SlotReader<null>>([
  ['colour', colour],
  ['text', anything],
]);

function grammar(sentences: { intent: string; templates: string[] }[], extras = {}) {
  return new Grammar<null>(
    { rules: { lead: '(ok|please|could you)', tail: '(please|thanks)', paint: '(paint|colour|make)' }, sentences, readers, lead: 'lead', tail: 'tail' },
    extras,
  );
}
const words = (s: string) => s.split(' ');

describe('templates', () => {
  it('match words, alternatives, optional words, slots and rules, around lead-ins and tails', () => {
    const g = grammar([{ intent: 'paint', templates: ['<paint> [the] (wall|door) {colour} [please]'] }]);
    for (const said of ['paint the wall red', 'make door dark blue', 'ok could you colour the wall green thanks']) {
      expect(g.read(words(said), null)[0]?.intent, said).toBe('paint');
    }
    expect(g.read(words('make door dark blue'), null)[0]!.slots).toEqual({ colour: ['dark blue'] });
    expect(g.read(words('paint the wall purple'), null)).toEqual([]);
    // The whole utterance, not a part of it.
    expect(g.read(words('paint the wall red and the door green'), null)).toEqual([]);
  });

  it('the reading that explains most words wins: literal words over free text', () => {
    const g = grammar([
      { intent: 'note', templates: ['note {text}'] },
      { intent: 'paint', templates: ['note (the|a) wall is {colour}'] },
    ]);
    expect(g.read(words('note the wall is red'), null).map((p) => p.intent)).toEqual(['paint', 'note']);
  });

  it('two slots of one type keep both values, in order ({type:key} names a second one)', () => {
    const g = grammar([{ intent: 'swap', templates: ['swap {colour} for {colour:other}', 'mix {colour} and {colour}'] }]);
    expect(g.read(words('swap red for green'), null)[0]!.slots).toEqual({ colour: ['red'], other: ['green'] });
    expect(g.read(words('mix red and green'), null)[0]!.slots).toEqual({ colour: ['red', 'green'] });
  });

  it.each([
    ['paint (the wall', '"(" at column 7 is never closed with ")"'],
    ['paint the wall]', '"]" at column 15 closes nothing'],
    ['paint {colour', '"{" at column 7 is never closed with "}"'],
    ['paint {Colour}', 'is not a slot'],
    ['[the]', 'matches nothing said'],
    ['[the] | wall', 'matches nothing said'],
  ])('refuses %j: %s', (src, message) => {
    expect(() => parseTemplate(src)).toThrow(TemplateError);
    expect(() => parseTemplate(src)).toThrow(message);
  });

  it('names an unknown slot or rule, and a rule that includes itself', () => {
    const rules = new Map([['loop', parseTemplate('a <loop>')]]);
    expect(() => expand(parseTemplate('{size}'), rules, new Set(['colour']))).toThrow('unknown slot {size} (slots: colour)');
    expect(() => expand(parseTemplate('<size>'), rules, new Set())).toThrow('unknown rule <size> (rules: loop)');
    expect(() => expand(parseTemplate('<loop>'), rules, new Set())).toThrow('rule <loop> includes itself (loop → loop)');
  });

  it('extras from the config: a new template for an intent, a new word for a rule, each refused with its path when wrong', () => {
    const g = grammar([{ intent: 'paint', templates: ['<paint> the wall {colour}'] }], {
      templates: { paint: ['slap some {colour} on the wall'] },
      rules: { paint: ['daub'] },
    });
    expect(g.read(words('slap some red on the wall'), null)[0]?.intent).toBe('paint');
    expect(g.read(words('daub the wall green'), null)[0]?.intent).toBe('paint');
    const bad = (extras: object) => {
      try {
        grammar([{ intent: 'paint', templates: ['<paint> the wall {colour}'] }], extras);
      } catch (err) {
        return err instanceof GrammarError ? { path: err.path, message: err.message } : err;
      }
      return null;
    };
    expect(bad({ templates: { paint: ['ok', 'slap {size} on'] } })).toEqual({
      path: ['templates', 'paint', 1],
      message: 'unknown slot {size} (slots: colour, text) in "slap {size} on"',
    });
    expect(bad({ templates: { wash: ['wash it'] } })).toEqual({ path: ['templates', 'wash'], message: 'unknown intent "wash" (intents: paint)' });
    expect(bad({ rules: { brush: ['x'] } })).toEqual({ path: ['rules', 'brush'], message: expect.stringContaining('unknown rule <brush>') });
  });
});
