import { describe, expect, it } from 'vitest';
import english from '../../src/picking/words.en.json' with { type: 'json' };
import { englishWords, readWords } from '../../src/picking/words.js';
import { readCode } from '../../src/picking/reading.js';
import { said } from '../../src/language/text.js';

const copy = () => JSON.parse(JSON.stringify(english)) as typeof english & Record<string, unknown>;

describe('picking words file', () => {
  it('the built-in English words read', () => {
    expect(englishWords().say('pick', { quantity: '3 cases' })).toBe('Pick 3 cases.');
    expect(englishWords().plural('picks', 1)).toBe('1 pick');
  });

  it('a sentence with a slot hark does not fill is refused with its path', () => {
    const w = copy();
    w.say.pick = 'Take {qty}.';
    expect(() => readWords(w, 'words.xx.json')).toThrow('words.xx.json.say.pick: unknown slot {qty} (this sentence has: {quantity})');
  });

  it('a missing sentence, an empty command or an unknown key is refused with its path', () => {
    const w = copy();
    delete (w.say as Record<string, string>).wrong;
    w.hear.undo = [];
    (w as Record<string, unknown>).extra = 1;
    let message = '';
    try {
      readWords(w, 'w');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('w.say.wrong:');
    expect(message).toContain('w.hear.undo: needs at least one phrase');
    expect(message).toContain('Unrecognized key: "extra"');
  });

  it('one phrase for two commands is refused (which one was meant could not be told)', () => {
    const w = copy();
    w.hear.undo = ['undo', 'skip'];
    expect(() => readWords(w, 'w')).toThrow('w.hear.undo: "skip" is also a phrase of skipSlot');
  });
});

describe('reading check digits', () => {
  const code = (text: string) => readCode(said(text).words, englishWords());
  it.each([
    ['four seven', '47'],
    ['forty seven', '47'],
    ['forty-seven', '47'],
    ['4 7', '47'],
    ['47', '47'],
    ['zero eight', '08'],
    ['oh eight', '08'],
    ['double four', '44'],
    ['alpha one two', 'A12'],
    ['x-ray niner', 'X9'],
    ['A12', 'A12'],
    ['twelve', '12'],
    ['one hundred', null],
    ['four seven please', null],
    ['double', null],
    ['forty seven boxes', null],
  ])('"%s" reads as %s', (text, want) => {
    expect(code(text)).toBe(want);
  });
});
