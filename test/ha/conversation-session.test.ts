import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { ConversationSession } from '../../src/ha/conversation/session.js';

const make = () => {
  const clock = new VirtualClock(0);
  return { clock, s: new ConversationSession({ clock, idleMs: 60_000, followUpMs: 15_000 }) };
};

describe('the conversation hark holds with Home Assistant', () => {
  it('no id before the first reply; the id of the last reply while it is fresh', () => {
    const { clock, s } = make();
    expect(s.id()).toBeUndefined();
    s.replied('A', false);
    clock.advanceBy(60_000);
    expect(s.id()).toBe('A');
    s.replied('B', false);
    expect(s.id()).toBe('B');
  });

  it('forgotten after idleMs without a reply', () => {
    const { clock, s } = make();
    s.replied('A', false);
    clock.advanceBy(60_001);
    expect(s.id()).toBeUndefined();
  });

  it('a reply without an id ends the conversation', () => {
    const { s } = make();
    s.replied('A', false);
    s.replied(null, false);
    expect(s.id()).toBeUndefined();
  });

  it.each([
    ['asks back, answered in time', true, 15_000, true],
    ['asks back, too late', true, 15_001, false],
    ['does not ask back', false, 0, false],
  ] as const)('%s: awaiting the answer = %s', (_n, asks, after, awaiting) => {
    const { clock, s } = make();
    s.replied('A', asks);
    clock.advanceBy(after);
    expect(s.awaitingAnswer).toBe(awaiting);
  });

  it('the next request is the answer: no longer awaiting; forget() clears both', () => {
    const { s } = make();
    s.replied('A', true);
    s.asked();
    expect(s.awaitingAnswer).toBe(false);
    expect(s.id()).toBe('A');
    s.replied('A', true);
    s.forget();
    expect([s.id(), s.awaitingAnswer]).toEqual([undefined, false]);
  });
});
