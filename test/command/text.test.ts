import { englishFillers } from '../../src/language/pack/english.js';
import { describe, expect, it } from 'vitest';
import { hasRealWords, normalise, restAfter, said } from '../../src/language/text.js';

describe('normalise', () => {
  it.each([
    ['Computer, set a timer.', 'computer set a timer'],
    ['  MODE   query?! ', 'mode query'],
    ["What's the soup?", 'whats the soup'],
    ['twenty-five minutes', 'twenty five minutes'],
    ['1.5 hours', '1.5 hours'],
    ['at 1:30.', 'at 1:30'],
    ['end. start', 'end start'],
    ['Crème brûlée', 'crème brûlée'],
    ['...', ''],
  ])('"%s" → "%s"', (text, norm) => {
    expect(normalise(text)).toBe(norm);
  });
});

describe('restAfter', () => {
  it('returns the original text after n normalised words', () => {
    expect(restAfter(said("Computer, what's the soup?"), 1)).toBe("what's the soup?");
    expect(restAfter(said('hey computer'), 2)).toBe('');
    expect(restAfter(said('computer...  go'), 1)).toBe('go');
  });
});

describe('real words', () => {
  const fillers = new Set(englishFillers());
  it.each([
    ['um', false],
    ['Um, uh.', false],
    ['hmm mm', false],
    ['um soup', true],
    ['zero zero zero', true],
  ] as const)('"%s" → %s', (text, real) => {
    expect(hasRealWords(said(text), fillers)).toBe(real);
  });
});
