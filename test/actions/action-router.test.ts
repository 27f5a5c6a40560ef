import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { ActionRouter, type ActionPolicy, type ActionRequest } from '../../src/command/actions/action-router.js';
import type { Effect } from '../../src/core/effects.js';

function setup(policy?: ActionPolicy) {
  const clock = new VirtualClock(0);
  const effects: (Effect & { atMs: number })[] = [];
  const log = memoryLogger();
  const router = new ActionRouter({ clock, log, emit: (e) => effects.push({ ...e, atMs: clock.now() }), ...(policy ? { policy } : {}) });
  const ran: string[] = [];
  const label = (a: ActionRequest) => `${a.name}${a.args.n ? '#' + a.args.n : ''}`;
  for (const name of ['stop', 'repeat', 'continue', 'generate', 'start-over', 'timer.set']) {
    // stop has nothing to undo; the others record that what they started was stopped.
    router.on(name, (a) => void ran.push(label(a)), name === 'stop' ? {} : { undo: (a) => void ran.push(`undo ${label(a)}`) });
  }
  /** Submit `name` at time t. */
  const at = (t: number, name: string, args: Record<string, unknown> = {}) => {
    clock.advanceTo(t);
    return router.submit({ name, args });
  };
  const of = <T extends Effect['type']>(type: T) => effects.filter((e) => e.type === type) as Extract<Effect & { atMs: number }, { type: T }>[];
  return { clock, router, effects, ran, log, at, of };
}

describe('cooldowns (stop 0, repeat 1500, continue 1500, generate 5000)', () => {
  it.each([
    ['stop', 0, 2],
    ['repeat', 1499, 1],
    ['repeat', 1500, 2],
    ['continue', 1499, 1],
    ['continue', 1500, 2],
    ['generate', 4999, 1],
    ['generate', 5000, 2],
  ] as const)('%s fired, then again %i ms later: runs %i time(s)', (name, gap, times) => {
    const s = setup();
    s.at(0, name);
    s.at(gap, name);
    s.clock.advanceBy(10_000);
    expect(s.ran.filter((r) => !r.startsWith('undo'))).toHaveLength(times);
    if (times === 1) expect(s.of('action.dropped')).toEqual([expect.objectContaining({ name, reason: 'cooldown' })]);
  });

  it('a double "repeat" inside the window says it once: the second is dropped by the cooldown, nothing is superseded', () => {
    const s = setup();
    expect(s.at(0, 'repeat')).toBe('fired');
    expect(s.at(300, 'repeat')).toBe('dropped');
    s.clock.advanceBy(5000);
    expect(s.ran).toEqual(['repeat']);
    expect(s.of('action.dropped')).toEqual([{ type: 'action.dropped', name: 'repeat', args: {}, reason: 'cooldown', atMs: 300 }]);
    expect(s.of('action.superseded')).toEqual([]);
  });

  it('a correction with other args after the window is still dropped by the cooldown (generate costs 5 s)', () => {
    const s = setup();
    s.at(0, 'generate', { topic: 'sauces' });
    expect(s.at(3000, 'generate', { topic: 'knives' })).toBe('dropped');
    expect(s.of('action.dropped')).toEqual([expect.objectContaining({ name: 'generate', args: { topic: 'knives' }, reason: 'cooldown' })]);
    expect(s.of('action.superseded')).toEqual([]);
  });

  it('actions outside the table have no cooldown and fire at once', () => {
    const s = setup();
    expect(s.at(0, 'timer.set')).toBe('fired');
    expect(s.at(1, 'timer.set')).toBe('fired');
    expect(s.ran).toEqual(['timer.set', 'timer.set']);
  });
});

describe('every action fires at once', () => {
  it.each(['stop', 'repeat', 'continue', 'start-over', 'generate', 'timer.set', 'voice.set'])('%s fires at t=0, not after the conflict window', (name) => {
    const s = setup();
    expect(s.at(0, name)).toBe('fired');
    expect(s.of('action')).toEqual([{ type: 'action', name, args: {}, seq: 1, atMs: 0 }]);
    if (name !== 'voice.set') expect(s.ran).toEqual([name]);
    expect(s.clock.pending()).toBe(0);
  });

  it('each fired action gets the next sequence number; a dropped one does not', () => {
    const s = setup();
    s.at(0, 'timer.set');
    s.at(10, 'repeat');
    s.at(20, 'repeat'); // cooldown
    s.at(5000, 'voice.set', { voice: 'en-gb' });
    expect(s.of('action').map((e) => [e.name, e.seq])).toEqual([
      ['timer.set', 1],
      ['repeat', 2],
      ['voice.set', 3],
    ]);
  });
});

describe('last-wins within 1.5 s: a later conflicting action supersedes the earlier one', () => {
  it('"stop. actually continue" → both fire at once, stop is superseded by continue, continue stands', () => {
    const s = setup();
    expect(s.at(0, 'stop')).toBe('fired');
    expect(s.ran).toEqual(['stop']);
    expect(s.at(800, 'continue')).toBe('fired');
    expect(s.ran).toEqual(['stop', 'continue']);
    expect(s.effects).toEqual([
      { type: 'action', name: 'stop', args: {}, seq: 1, atMs: 0 },
      { type: 'action.superseded', name: 'stop', args: {}, seq: 1, by: 'continue', bySeq: 2, atMs: 800 },
      { type: 'action', name: 'continue', args: {}, seq: 2, atMs: 800 },
    ]);
    s.clock.advanceBy(10_000);
    expect(s.ran).toEqual(['stop', 'continue']);
    expect(s.of('action.dropped')).toEqual([]);
  });

  it('"repeat number 3. no, number 5" → 3 fires at once, 5 stops what 3 started, then fires; one superseded record', () => {
    const s = setup();
    expect(s.at(0, 'repeat', { n: 3 })).toBe('fired');
    expect(s.ran).toEqual(['repeat#3']);
    expect(s.at(900, 'repeat', { n: 5 })).toBe('fired');
    expect(s.ran).toEqual(['repeat#3', 'undo repeat#3', 'repeat#5']);
    expect(s.of('action.superseded')).toEqual([{ type: 'action.superseded', name: 'repeat', args: { n: 3 }, seq: 1, by: 'repeat', bySeq: 2, atMs: 900 }]);
    expect(s.of('action.dropped')).toEqual([]);
    s.clock.advanceBy(5000);
    expect(s.ran).toEqual(['repeat#3', 'undo repeat#3', 'repeat#5']);
  });

  it('"continue. no, stop" → continue fires, then is undone and superseded by stop', () => {
    const s = setup();
    s.at(0, 'continue');
    s.at(500, 'stop');
    expect(s.ran).toEqual(['continue', 'undo continue', 'stop']);
    expect(s.of('action.superseded')).toEqual([expect.objectContaining({ name: 'continue', seq: 1, by: 'stop', bySeq: 2 })]);
  });

  it('a chain of corrections supersedes each in turn, the last stands', () => {
    const s = setup();
    s.at(0, 'repeat', { n: 3 });
    s.at(1000, 'repeat', { n: 5 });
    s.at(2000, 'repeat', { n: 7 });
    expect(s.ran).toEqual(['repeat#3', 'undo repeat#3', 'repeat#5', 'undo repeat#5', 'repeat#7']);
    expect(s.of('action.superseded').map((e) => [e.seq, e.bySeq])).toEqual([
      [1, 2],
      [2, 3],
    ]);
  });

  it.each([1500, 1600])('actions %i ms apart both stand: nothing is superseded', (gap) => {
    const s = setup();
    s.at(0, 'continue');
    s.at(gap, 'start-over');
    s.clock.advanceBy(5000);
    expect(s.ran).toEqual(['continue', 'start-over']);
    expect(s.of('action.superseded')).toEqual([]);
  });

  it('an action dropped by its cooldown supersedes nothing', () => {
    const s = setup();
    s.at(0, 'stop');
    s.at(100, 'repeat');
    s.at(200, 'repeat');
    expect(s.ran).toEqual(['stop', 'repeat']);
    expect(s.of('action.superseded')).toEqual([expect.objectContaining({ name: 'stop', by: 'repeat' })]);
  });

  it('actions outside the last-wins set neither supersede nor are superseded', () => {
    const s = setup();
    s.at(0, 'repeat', { n: 3 });
    s.at(200, 'timer.set');
    s.at(400, 'voice.set', { voice: 'en-gb' });
    s.at(600, 'stop');
    expect(s.ran).toEqual(['repeat#3', 'timer.set', 'undo repeat#3', 'stop']);
    expect(s.of('action.superseded')).toEqual([expect.objectContaining({ name: 'repeat', seq: 1, by: 'stop', bySeq: 4 })]);
  });

  it('a conflict window of 0 fires everything at once and supersedes nothing', () => {
    const s = setup({ cooldownsMs: {}, conflictWindowMs: 0, lastWins: ['repeat', 'stop'] });
    expect(s.at(0, 'repeat')).toBe('fired');
    expect(s.at(0, 'stop')).toBe('fired');
    expect(s.ran).toEqual(['repeat', 'stop']);
    expect(s.of('action.superseded')).toEqual([]);
  });

  it('an undo that throws is logged and reported; the later action still fires', () => {
    const s = setup();
    s.router.on('repeat', (a) => void s.ran.push(`repeat#${a.args.n}`), {
      undo: () => {
        throw new Error('speaker gone');
      },
    });
    s.at(0, 'repeat', { n: 3 });
    s.at(500, 'repeat', { n: 5 });
    expect(s.ran).toEqual(['repeat#3', 'repeat#5']);
    expect(s.of('action.superseded')).toHaveLength(1);
    expect(s.of('action.failed')).toEqual([{ type: 'action.failed', name: 'repeat', error: 'undo failed: speaker gone', seq: 1, atMs: 500 }]);
    expect(s.log.lines.some((l) => l.includes('action undo failed') && l.includes('speaker gone'))).toBe(true);
  });

  it('a handler registered without undo leaves nothing to stop (the record is still made)', () => {
    const s = setup();
    s.router.on('continue', () => void s.ran.push('continue'));
    s.at(0, 'continue');
    s.at(100, 'stop');
    expect(s.ran).toEqual(['continue', 'stop']);
    expect(s.of('action.superseded')).toEqual([expect.objectContaining({ name: 'continue', by: 'stop' })]);
  });
});

describe('handler failures', () => {
  it('a throwing handler is caught, logged and reported, and the next action still runs', () => {
    const s = setup();
    s.router.on('timer.set', () => {
      throw new Error('oven on fire');
    });
    s.at(0, 'timer.set');
    s.at(10, 'stop');
    expect(s.ran).toEqual(['stop']);
    expect(s.effects.filter((e) => e.type === 'action.failed')).toEqual([expect.objectContaining({ name: 'timer.set', error: 'oven on fire', seq: 1 })]);
    expect(s.log.lines.some((l) => l.includes('action handler failed') && l.includes('oven on fire'))).toBe(true);
  });

  it('a rejecting async handler is caught too', async () => {
    const s = setup();
    s.router.on('timer.set', async () => {
      throw new Error('later failure');
    });
    s.at(0, 'timer.set');
    await s.router.idle();
    expect(s.effects.filter((e) => e.type === 'action.failed')).toEqual([expect.objectContaining({ error: 'later failure' })]);
  });

  it('an action nobody handles still fires (for the speaker and forward targets)', () => {
    const s = setup();
    s.at(0, 'voice.set', { voice: 'en-gb' });
    expect(s.effects).toEqual([expect.objectContaining({ type: 'action', name: 'voice.set', args: { voice: 'en-gb' } })]);
  });
});

describe('a barge-in, and the same request said twice', () => {
  it('"stop … stop": both fire, and the first is not recorded as superseded by itself', () => {
    const s = setup();
    s.at(0, 'stop');
    s.at(400, 'stop');
    expect(s.ran).toEqual(['stop', 'stop']);
    expect(s.of('action.superseded')).toEqual([]);
  });

  it('a "repeat" that cut hark off (interrupted) is not refused by the cooldown of the repeat it stopped', () => {
    const s = setup();
    s.at(0, 'repeat');
    s.clock.advanceTo(1000);
    s.router.interrupted();
    expect(s.at(1000, 'repeat')).toBe('fired');
    expect(s.ran).toEqual(['repeat', 'repeat']);
    expect(s.of('action.dropped')).toEqual([]);
    // The same words, said again without cutting anything off, are the double tap the cooldown is for.
    expect(s.at(1200, 'repeat')).toBe('dropped');
  });

  it('a correction after a barge-in is still last-wins', () => {
    const s = setup();
    s.at(0, 'repeat', { n: 3 });
    s.router.interrupted();
    s.at(700, 'repeat', { n: 5 });
    expect(s.of('action.superseded')).toEqual([expect.objectContaining({ seq: 1, bySeq: 2 })]);
  });
});
