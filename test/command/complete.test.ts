import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { completeCommand } from '../../src/command/complete.js';

/** When the words so far are already a whole command of the top frame (act without the rest of the hangover). */
describe('a whole command of the top frame', () => {
  const frames = validateConfig({}, 'test').router.frames;
  it.each([
    ['base', 'Stop.', true],
    ['base', 'repeat', true],
    ['base', 'stop the music', false],
    // a prefix rule is never complete: the person may go on
    ['base', 'computer', false],
    ['base', 'computer set a timer', false],
    ['dictation', 'End dictation.', true],
    ['dictation', 'the walk-in is at four degrees', false],
    ['confirm', 'yes', true],
    ['confirm', 'no', true],
    ['nowhere', 'stop', false],
    ['base', '', false],
  ] as const)('%s: %j → %s', (top, text, complete) => {
    expect(completeCommand(frames, top, text)).toBe(complete);
  });
});
