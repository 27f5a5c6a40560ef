import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { ActionRouter } from '../../src/actions/action-router.js';
import type { Effect } from '../../src/router/effects.js';

function setup() {
  const clock = new VirtualClock(0);
  const effects: (Effect & { atMs: number })[] = [];
  const log = memoryLogger();
  const router = new ActionRouter({ clock, log, emit: (e) => effects.push({ ...e, atMs: clock.now() }) });
  const ran: string[] = [];
  for (const name of ['stop', 'repeat', 'continue', 'generate', 'start-over', 'timer.set']) router.on(name, (a) => void ran.push(`${a.name}${a.args.n ? '#' + a.args.n : ''}`));
  /** Submit `name` at time t. */
  const at = (t: number, name: string, args: Record<string, unknown> = {}) => {
    clock.advanceTo(t);
    return router.submit({ name, args });
  };
  return { clock, router, effects, ran, log, at };
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
    s.clock.advanceBy(1500); // let a last-wins action fire
    const firedAt = s.effects.find((e) => e.type === 'action')!.atMs;
    s.at(firedAt + gap, name);
    s.clock.advanceBy(10_000);
    expect(s.ran).toHaveLength(times);
    if (times === 1) expect(s.effects.filter((e) => e.type === 'action.dropped')).toEqual([expect.objectContaining({ name, reason: 'cooldown' })]);
  });

  it('a double "repeat" inside the window says it once', () => {
    const s = setup();
    s.at(0, 'repeat');
    s.at(300, 'repeat');
    s.clock.advanceBy(5000);
    expect(s.ran).toEqual(['repeat']);
  });

  it('actions outside the table have no cooldown and fire at once', () => {
    const s = setup();
    expect(s.at(0, 'timer.set')).toBe('fired');
    expect(s.at(1, 'timer.set')).toBe('fired');
    expect(s.ran).toEqual(['timer.set', 'timer.set']);
  });
});

describe('last-wins within 1.5 s', () => {
  it('"stop. actually continue" → continue wins (stop already stopped the speech)', () => {
    const s = setup();
    expect(s.at(0, 'stop')).toBe('fired');
    expect(s.at(800, 'continue')).toBe('waiting');
    s.clock.advanceTo(2299);
    expect(s.ran).toEqual(['stop']);
    s.clock.advanceTo(2300);
    expect(s.ran).toEqual(['stop', 'continue']);
  });

  it('"repeat number 3. no, number 5" → only number 5 runs', () => {
    const s = setup();
    s.at(0, 'repeat', { n: 3 });
    s.at(900, 'repeat', { n: 5 });
    s.clock.advanceBy(5000);
    expect(s.ran).toEqual(['repeat#5']);
    expect(s.effects.filter((e) => e.type === 'action.dropped')).toEqual([expect.objectContaining({ name: 'repeat', args: { n: 3 }, reason: 'superseded', by: 'repeat' })]);
  });

  it('"continue. no, stop" → stop fires at once and continue never runs', () => {
    const s = setup();
    s.at(0, 'continue');
    s.at(500, 'stop');
    s.clock.advanceBy(5000);
    expect(s.ran).toEqual(['stop']);
  });

  it('actions more than the window apart both run', () => {
    const s = setup();
    s.at(0, 'continue');
    s.at(1600, 'start-over');
    s.clock.advanceBy(5000);
    expect(s.ran).toEqual(['continue', 'start-over']);
  });

  it('a conflict window of 0 fires everything at once', () => {
    const clock = new VirtualClock(0);
    const ran: string[] = [];
    const r = new ActionRouter({ clock, log: memoryLogger(), emit: () => {}, policy: { cooldownsMs: {}, conflictWindowMs: 0, lastWins: ['repeat'], immediate: [] } });
    r.on('repeat', () => void ran.push('repeat'));
    expect(r.submit({ name: 'repeat', args: {} })).toBe('fired');
    expect(ran).toEqual(['repeat']);
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
    expect(s.effects.filter((e) => e.type === 'action.failed')).toEqual([expect.objectContaining({ name: 'timer.set', error: 'oven on fire' })]);
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
