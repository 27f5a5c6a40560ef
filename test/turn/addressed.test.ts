import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { DEFAULT_IGNORE_LIST } from '../../src/turn/ignore-list.js';
import { InterruptionFilter } from '../../src/turn/interruption.js';
import { addressedToHark, takesEveryWord } from '../../src/turn/addressed.js';

const frames = validateConfig({}, 'test').router.frames;
const view = (stack: string[], mode: 'wake-word' | 'always-listen' = 'wake-word') => ({ frames, mode, stack });

describe('addressed to hark, or between cooks (issue 19 item 6)', () => {
  it.each([
    ['behind you', false],
    ['hot pan coming through', false],
    ['two more on table six', false],
    ['computer what is on the list', true],
    ['hey computer', true],
    ['repeat', true],
    ['say that again', true],
    ['stop', true],
    ['wait stop', true],
    ['ok stop talking', true],
    ['always listen', true],
    ['cancel', true],
  ] as const)('wake-word mode, base frame on top: "%s" → %s', (text, expected) => {
    expect(addressedToHark(text, view(['base']))).toBe(expected);
  });

  it('always-listen mode: everything is addressed (seed 002 as written)', () => {
    expect(addressedToHark('behind you', view(['base'], 'always-listen'))).toBe(true);
  });

  it('an open frame that takes free speech (query, dictation, inventory): everything is addressed', () => {
    for (const top of ['query', 'dictation', 'inventory']) expect(addressedToHark('behind you', view(['base', top])), top).toBe(true);
  });

  it('the voice picker: its own words are, chatter is not', () => {
    expect(addressedToHark('never mind', view(['base', 'voice']))).toBe(true);
    expect(addressedToHark('behind you', view(['base', 'voice']))).toBe(false);
  });

  it('content frames are dictation and inventory', () => {
    expect(['base', 'query', 'dictation', 'inventory', 'voice'].map((t) => takesEveryWord(view(['base', t])))).toEqual([false, false, true, true, false]);
  });
});

describe('the interruption filter with an addressee', () => {
  const filter = () => new InterruptionFilter({ settings: { enabled: true, ignoreList: DEFAULT_IGNORE_LIST, caseSensitive: false, bufferMs: 500 }, clock: new VirtualClock(0), isSpeaking: () => true });

  it('talk not addressed to hark is filtered on its final, and waits on a partial (it may still end in "stop")', () => {
    const f = filter();
    expect(f.transcript({ id: 'a', text: 'behind', final: false, addressed: false }, true).action).toBe('pending');
    expect(f.transcript({ id: 'a', text: 'behind you', final: true, addressed: false }, true)).toMatchObject({ action: 'filter', reason: expect.stringContaining('not addressed to hark') });
  });

  it('a backchannel keeps its own reason; while hark is quiet nothing is filtered', () => {
    const f = filter();
    expect(f.transcript({ id: 'b', text: 'yeah', final: true, addressed: false }, true).reason).toContain('backchannel');
    expect(f.transcript({ id: 'c', text: 'behind you', final: true, addressed: false }, false).action).toBe('allow');
  });

  it('a failed transcript allows, with confidence 0', () => {
    expect(filter().failed('d', 'whisper crashed', true)).toMatchObject({ action: 'allow', confidence: 0 });
  });
});
