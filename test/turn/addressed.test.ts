import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { DEFAULT_IGNORE_LIST } from '../../src/turn/ignore-list.js';
import { InterruptionFilter } from '../../src/turn/interruption.js';
import { addressedToHark, takesEveryWord } from '../../src/turn/addressed.js';
import { harness } from '../command/harness.js';

const frames = validateConfig({}, 'test').router.frames;

/** The router's view as the daemon builds it: the command core answers, after `opening` was said (to open a frame). */
function view(opening: string[] = [], mode: 'wake-word' | 'always-listen' = 'wake-word') {
  const h = harness({ config: { router: { mode } } });
  h.sayAll(...opening);
  return { frames, mode, stack: h.core.router.stack, hears: (t: string) => h.core.hears(t) };
}

describe('addressed to hark, or between cooks', () => {
  it.each([
    ['behind you', false],
    ['hot pan coming through', false],
    ['two more on table six', false],
    ['repeat order for table two', false],
    ['continue with the prep', false],
    ['stop the fryer, it is smoking', false],
    ['next table wants the fish', false],
    ['computer what is on the list', true],
    ['hey computer', true],
    ['repeat', true],
    ['say that again', true],
    ['stop', true],
    ['wait stop', true],
    ['ok stop talking', true],
    ['alright, carry on', true],
    ['ok continue', true],
    ['pause', true],
    ['hold on a second', true],
    ['always listen', true],
    ['cancel', true],
  ] as const)('wake-word mode, base frame on top: "%s" → %s', (text, expected) => {
    expect(addressedToHark(text, view())).toBe(expected);
  });

  it('the same words are what the router acts on: addressed ones act, the others are ignored', () => {
    for (const [text, acts] of [
      ['repeat order for table two', false],
      ['alright, carry on', true],
      ['continue with the prep', false],
      ['ok continue', true],
    ] as const) {
      const h = harness();
      h.say(text, 1000);
      expect(h.actions().length > 0, text).toBe(acts);
      expect(addressedToHark(text, view())).toBe(acts);
    }
  });

  it('always-listen mode: everything is addressed, as with one listener', () => {
    expect(addressedToHark('behind you', view([], 'always-listen'))).toBe(true);
  });

  it('an open frame that takes free speech (query, dictation, inventory): everything is addressed', () => {
    for (const opening of ['computer', 'start dictation', 'start inventory']) expect(addressedToHark('behind you', view([opening])), opening).toBe(true);
  });

  it('the voice picker: its own words are, chatter is not', () => {
    expect(addressedToHark('never mind', view(['switch voice']))).toBe(true);
    expect(addressedToHark('behind you', view(['switch voice']))).toBe(false);
  });

  it('inside the follow-up window: a follow-up or a request that acts is, a question between cooks is not', () => {
    const h = harness();
    h.say('computer set a rice timer for ten minutes', 1000);
    const v = { frames, mode: 'wake-word' as const, stack: h.core.router.stack, hears: (t: string) => h.core.hears(t) };
    expect(addressedToHark('make it twelve minutes', v)).toBe(true);
    expect(addressedToHark('did the timer go off?', v)).toBe(false);
  });

  it('content frames are dictation and inventory', () => {
    expect(['base', 'query', 'dictation', 'inventory', 'voice'].map((t) => takesEveryWord({ frames, stack: ['base', t] }))).toEqual([
      false,
      false,
      true,
      true,
      false,
    ]);
  });
});

describe('the interruption filter with an addressee', () => {
  const filter = () =>
    new InterruptionFilter({
      settings: { enabled: true, ignoreList: DEFAULT_IGNORE_LIST, caseSensitive: false, bufferMs: 500 },
      clock: new VirtualClock(0),
      isSpeaking: () => true,
    });

  it('talk not addressed to hark is filtered on its final, and waits on a partial (it may still end in "stop")', () => {
    const f = filter();
    expect(f.transcript({ id: 'a', text: 'behind', final: false, addressed: false }, true).action).toBe('pending');
    expect(f.transcript({ id: 'a', text: 'behind you', final: true, addressed: false }, true)).toMatchObject({
      action: 'filter',
      reason: expect.stringContaining('not addressed to hark'),
    });
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
