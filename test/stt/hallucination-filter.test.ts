import { describe, expect, it } from 'vitest';
import { cleanText } from '../../src/stt/clean-text.js';
import { DEFAULT_HALLUCINATIONS, HallucinationFilter } from '../../src/stt/hallucination-filter.js';

const filter = new HallucinationFilter({ phrases: DEFAULT_HALLUCINATIONS });

describe('hallucination filter', () => {
  it.each([
    ['', 'blank', 'blank: no text'],
    ['   ', 'blank', 'blank: no text'],
    ['[BLANK_AUDIO]', 'non-speech', 'non-speech: [BLANK_AUDIO]'],
    [' (music) ♪ ', 'non-speech', 'non-speech: (music) ♪'],
    ['[ Silence ] <|endoftext|>', 'non-speech', 'non-speech: [ Silence ] <|endoftext|>'],
    ['.', 'no-words', 'no words: "."'],
    ['...?!', 'no-words', 'no words: "...?!"'],
    [' Thank you for watching!', 'hallucination', 'hallucination: "thank you for watching"'],
    ['Thanks for watching.', 'hallucination', 'hallucination: "thanks for watching"'],
    ['You', 'hallucination', 'hallucination: "you"'],
    ['you.', 'hallucination', 'hallucination: "you"'],
    ['[MUSIC] you', 'hallucination', 'hallucination: "you"'],
  ])('drops %j as %s, saying why', (raw, code, reason) => {
    const d = filter.check(raw);
    expect(d).toEqual({ code, reason });
  });

  it.each(['turn on the lights', 'Thank you', 'you there', 'stop', '[BLANK_AUDIO] stop', 'set a timer for 5 minutes.'])('keeps %j', (raw) => {
    expect(filter.check(raw)).toBeNull();
  });

  it('uses the configured list, compared without case and punctuation', () => {
    const f = new HallucinationFilter({ phrases: ['Okay, bye!'] });
    expect(f.check('okay bye')?.code).toBe('hallucination');
    expect(f.check('you')).toBeNull();
  });

  it('cleans special tokens out of the text but keeps the words', () => {
    expect(cleanText(' [BLANK_AUDIO] turn  on (music) the lights ♪')).toBe('turn on the lights');
    // parentheses around numbers are speech, not a marker: "add (2) cases" keeps its count
    expect(cleanText('add (2) cases (laughs)')).toBe('add (2) cases');
  });
});
