import { describe, expect, it } from 'vitest';
import { said } from '../../src/language/text.js';
import { wordsOf } from '../../src/language/understand.js';

describe('how a word was spelled', () => {
  it.each([
    ["Bird's eye chillies", ['birds', 'eye', 'chillies'], ["bird's", 'eye', 'chillies']],
    ['O’Brien’s sausages', ['obriens', 'sausages'], ["o'brien's", 'sausages']],
    ["What's on the 'stores' list?", ['whats', 'on', 'the', 'stores', 'list'], ["what's", 'on', 'the', 'stores', 'list']],
    ["the chefs' knives", ['the', 'chefs', 'knives'], ['the', 'chefs', 'knives']],
  ])('"%s": matched as %j, spelled %j', (text, words, spelled) => {
    const s = said(text);
    expect(s.words).toEqual(words);
    expect(s.spelled).toEqual(spelled);
  });

  it('reads an "\'s" either kept on its word or as "is", and leaves what\'s, it\'s and let\'s fused', () => {
    const s = said("how much time's left, what's it's let's");
    expect(wordsOf(s).words).toEqual(['how', 'much', 'time', 'is', 'left', 'whats', 'its', 'lets']);
    expect(wordsOf(s, true).words).toEqual(['how', 'much', 'times', 'left', 'whats', 'its', 'lets']);
    expect(wordsOf(s, true).spelled).toEqual(['how', 'much', "time's", 'left', "what's", "it's", "let's"]);
    expect(wordsOf(s).eitherWay).toBe(true);
    expect(wordsOf(said("what's on the list")).eitherWay).toBe(false);
  });
});
