import { describe, expect, it } from 'vitest';
import { openingPhrases, startsWithPhrase } from '../../src/path/opening.js';
import { DEFAULT_FRAMES } from '../../src/command/defaults.js';
import type { FramesSpec } from '../../src/command/spec.js';

/** The opening check's verdict: does a segment's opening begin with something the base frame acts on? */

const phrases = openingPhrases(DEFAULT_FRAMES)!;

describe('startsWithPhrase on the default base frame', () => {
  it.each([
    { text: 'Computer, set a timer for', hit: 'computer' },
    { text: 'computer', hit: 'computer' },
    { text: 'Hey computer, what', hit: 'hey computer' },
    { text: 'Uh, computer set', hit: 'computer' },
    { text: 'Okay computer', hit: 'okay computer' },
    { text: 'and the computer set a', hit: 'computer' },
    { text: 'Computers set a timer', hit: 'computer' },
    { text: 'Stop.', hit: 'stop' },
    { text: 'Always', hit: 'always listen' },
    { text: 'It was the best of times, it was', hit: null },
    { text: 'and so the old man said that', hit: null },
    { text: 'the weather today will be computer', hit: null },
    { text: '', hit: null },
    { text: '[BLANK_AUDIO]', hit: null },
  ])('$text → $hit', ({ text, hit }) => {
    expect(startsWithPhrase(text, phrases)).toBe(hit);
  });
});

describe('openingPhrases', () => {
  it('takes the prefix and exact phrases of the default base frame', () => {
    expect(phrases).toContainEqual(['computer']);
    expect(phrases).toContainEqual(['hey', 'computer']);
    expect(phrases).toContainEqual(['stop']);
  });

  it('gives up (every segment whole) when the base frame has a rule that can match anywhere', () => {
    const frames: FramesSpec = {
      base: {
        kind: 'base',
        rules: [
          { prefix: ['computer'], do: [] },
          { pattern: 'timer', do: [] },
        ],
      },
    };
    expect(openingPhrases(frames)).toBeNull();
  });
});
