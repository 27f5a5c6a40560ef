import { describe, expect, it } from 'vitest';
import { detectIntent } from '../../src/language/intent-rules.js';

describe('rule intent detector', () => {
  it.each([
    // Imperatives, command verbs first.
    ['stop', 'imperative', 'stop', {}],
    ['Cancel that.', 'imperative', 'stop', {}],
    ['nevermind', 'imperative', 'stop', {}],
    ['never mind', 'imperative', 'stop', {}],
    ['quit', 'imperative', 'stop', {}],
    ['repeat', 'imperative', 'repeat', {}],
    ['say that again', 'imperative', 'repeat', {}],
    ['what did you say', 'imperative', 'repeat', {}],
    ['repeat the last one', 'imperative', 'repeat', { reference: 'last' }],
    ['say the previous', 'imperative', 'repeat', { reference: 'previous' }],
    ['repeat number 3', 'imperative', 'repeat', { reference: 'number 3' }],
    ['repeat number three', 'imperative', 'repeat', { reference: 'number 3' }],
    ['continue', 'imperative', 'continue', {}],
    ['go on', 'imperative', 'continue', {}],
    ['next', 'imperative', 'continue', {}],
    ['keep going', 'imperative', 'continue', {}],
    ['start over', 'imperative', 'start-over', {}],
    ['read it from the beginning', 'imperative', 'start-over', {}],
    ['generate 20 questions', 'imperative', 'generate', { count: 20 }],
    ['give me twenty questions about knife skills', 'imperative', 'generate', { count: 20, topic: 'knife skills' }],
    ['make some questions on the allergens', 'imperative', 'generate', { topic: 'allergens' }],
    // Polite prefixes are stripped before the imperative rules.
    ['please stop', 'imperative', 'stop', {}],
    ['could you repeat that please', 'imperative', 'repeat', {}],
    ['can you continue', 'imperative', 'continue', {}],
    ['would you start over', 'imperative', 'start-over', {}],
    // Questions and their kinds.
    ['What is a roux?', 'question', 'definition', { topic: 'roux' }],
    ["what's a bain marie", 'question', 'definition', { topic: 'bain marie' }],
    ['what does blanch mean', 'question', 'definition', { topic: 'blanch' }],
    ['define emulsion', 'question', 'definition', { topic: 'emulsion' }],
    ['how do I temper chocolate', 'question', 'how-to', { topic: 'temper chocolate' }],
    ['how to fold egg whites', 'question', 'how-to', { topic: 'fold egg whites' }],
    ["what's the difference between baking soda and baking powder", 'question', 'compare', { topic: 'baking soda and baking powder' }],
    ['butter versus margarine', 'question', 'compare', {}],
    ["why isn't the oven heating", 'question', 'troubleshoot', { topic: 'oven heating' }],
    ['is the fryer not working', 'question', 'troubleshoot', {}],
    ['where are the tongs', 'question', 'question', {}],
    ['is service at six', 'question', 'question', {}],
    ['the walk-in is cold?', 'question', 'question', {}],
    ['can you tell me the soup', 'question', 'question', {}],
    // Statements and noise.
    ['the delivery came', 'statement', 'statement', {}],
    ['', 'other', 'other', {}],
    ['...', 'other', 'other', {}],
  ] as const)('"%s" → %s/%s', (text, kind, name, slots) => {
    expect(detectIntent(text)).toEqual({ kind, name, slots });
  });

  it('puts command verbs before questions ("stop, what is that" is a stop)', () => {
    expect(detectIntent('stop what is that').name).toBe('stop');
  });
});
