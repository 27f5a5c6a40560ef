import { describe, expect, it } from 'vitest';
import { harness } from '../command/harness.js';

/**
 * Last-wins rule through the whole command core (router → ActionRouter → built-in
 * handlers): every action acts at once, and a correction inside the conflict window stops what the
 * earlier one started and records it as superseded.
 */
function kitchen() {
  const h = harness({
    config: {
      router: {
        // The follow-up window would leave a timer pending; this file is about the action router.
        followUpMs: 0,
        frames: {
          base: {
            rules: [
              { exact: ['hello'], do: { say: 'Hello there.' } },
              { exact: ['specials'], do: { say: 'Soup. Fish. Pie. Tart. Cake.' } },
              { exact: ['stop', 'cancel'], do: { action: 'stop' } },
              { exact: ['continue', 'actually continue', 'go on'], do: { action: 'continue' } },
              { exact: ['repeat', 'say that again'], do: { action: 'repeat' } },
              { pattern: '^(?:no )?(?:repeat )?number (?<n>\\w+)$', do: { action: 'repeat', args: { reference: 'number {n}' } } },
            ],
          },
        },
      },
    },
  });
  /** What the speaker and the store care about, in order. */
  const trail = () =>
    h.effects.flatMap((e) => {
      switch (e.type) {
        case 'speak':
          return [`${e.atMs} speak ${e.text}`];
        case 'stop-speaking':
          return [`${e.atMs} stop-speaking`];
        case 'action':
          return [`${e.atMs} action ${e.name}${e.args.reference ? ` (${String(e.args.reference)})` : ''} #${e.seq}`];
        case 'action.superseded':
          return [`${e.atMs} superseded ${e.name} #${e.seq} by ${e.by} #${e.bySeq}`];
        case 'action.dropped':
          return [`${e.atMs} dropped ${e.name} ${e.reason}`];
        default:
          return [];
      }
    });
  return { ...h, trail };
}

describe('last-wins through the command core', () => {
  it('"repeat" speaks at once (t=0 of the utterance), not after the 1.5 s window', () => {
    const h = kitchen();
    h.say('hello', 0);
    h.say('say that again', 5000);
    expect(h.trail()).toEqual(['0 speak Hello there.', '5000 action repeat #1', '5000 speak Hello there.']);
    expect(h.clock.pending()).toBe(0);
  });

  it('"stop. actually continue" → stop acts at once, continue acts at once, stop is recorded superseded', () => {
    const h = kitchen();
    h.say('stop', 0);
    expect(h.trail()).toEqual(['0 action stop #1', '0 stop-speaking']);
    h.say('actually continue', 700);
    // Nothing had been said, so there is nothing to resume.
    expect(h.trail()).toEqual([
      '0 action stop #1',
      '0 stop-speaking',
      '700 superseded stop #1 by continue #2',
      '700 action continue #2',
      '700 speak Nothing to continue.',
    ]);
    h.clock.advanceBy(5000);
    expect(h.of('action').at(-1)).toEqual(expect.objectContaining({ name: 'continue', seq: 2 }));
    expect(h.of('action.dropped')).toEqual([]);
  });

  it('"repeat number 3. no, number 5" → the first repeat is stopped (stop-speaking) before the second speaks', () => {
    const h = kitchen();
    h.say('specials', 0);
    h.say('repeat number 3', 5000);
    h.say('no number 5', 5900);
    expect(h.trail()).toEqual([
      '0 speak Soup. Fish. Pie. Tart. Cake.',
      '5000 action repeat (number 3) #1',
      '5000 speak Pie.',
      '5900 superseded repeat #1 by repeat #2',
      '5900 stop-speaking',
      '5900 action repeat (number 5) #2',
      '5900 speak Cake.',
    ]);
    expect(h.of('action.superseded')).toEqual([
      { type: 'action.superseded', name: 'repeat', args: { reference: 'number 3' }, seq: 1, by: 'repeat', bySeq: 2, atMs: 5900 },
    ]);
  });

  it('outside the window nothing is superseded and nothing is stopped', () => {
    const h = kitchen();
    h.say('specials', 0);
    h.say('repeat number 3', 5000);
    h.say('no number 5', 6600);
    expect(h.trail()).toEqual([
      '0 speak Soup. Fish. Pie. Tart. Cake.',
      '5000 action repeat (number 3) #1',
      '5000 speak Pie.',
      '6600 action repeat (number 5) #2',
      '6600 speak Cake.',
    ]);
  });

  it('a double "repeat" is dropped by its cooldown, as before', () => {
    const h = kitchen();
    h.say('hello', 0);
    h.say('repeat', 5000);
    h.say('repeat', 5400);
    expect(h.trail()).toEqual(['0 speak Hello there.', '5000 action repeat #1', '5000 speak Hello there.', '5400 dropped repeat cooldown']);
  });
});
