import { describe, expect, it } from 'vitest';
import { splitSpecialTokens } from '../../src/debug/special-tokens.js';
import { cleanText } from '../../src/stt/clean-text.js';

describe('raw transcript spans for highlighting', () => {
  const cases: [raw: string, marked: string[]][] = [
    ['[BLANK_AUDIO]', ['[BLANK_AUDIO]']],
    [' ask not [MUSIC] what [MUSIC]', ['[MUSIC]', '[MUSIC]']],
    ['<|endoftext|>seven', ['<|endoftext|>']],
    ['(upbeat music) ♪♪ done', ['(upbeat music)', '♪♪']],
    ['plain words only', []],
    ['', []],
  ];
  it.each(cases)('%j', (raw, marked) => {
    const spans = splitSpecialTokens(raw);
    expect(spans.map((s) => s.text).join('')).toBe(raw); // nothing lost or reordered
    expect(spans.filter((s) => s.special).map((s) => s.text)).toEqual(marked);
    // and the unmarked text is what the cleaner keeps
    expect(
      spans
        .filter((s) => !s.special)
        .map((s) => s.text)
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe(cleanText(raw));
  });

  it('makes [BLANK_AUDIO] the one that stands out', () => {
    expect(
      splitSpecialTokens(' [BLANK_AUDIO] [MUSIC]')
        .filter((s) => s.special)
        .map((s) => s.special),
    ).toEqual(['blank', 'token']);
  });
});
