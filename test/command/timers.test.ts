import { describe, expect, it } from 'vitest';
import { harness } from './harness.js';

/** Always-listen, so each line is a direct command without "computer". */
function kitchen() {
  return harness({ config: { router: { mode: 'always-listen' } } });
}

describe('set a timer', () => {
  const table: [string, number, string?][] = [
    ['set a timer for ten minutes', 600],
    ['Set a timer for 10 minutes.', 600],
    ['set a timer for 2 minutes', 120],
    ['set a timer for one minute and thirty seconds', 90],
    ['set a timer for ninety seconds', 90],
    ['set a timer for an hour', 3600],
    ['set a timer for half an hour', 1800],
    ['set a timer for an hour and a half', 5400],
    ['set a timer for two and a half minutes', 150],
    ['set a timer for 1 hour 30 minutes', 5400],
    ['set a timer for twenty-five minutes', 1500],
    ['set a timer for a quarter of an hour', 900],
    ['start a timer for 45 seconds', 45],
    ['timer for three minutes', 180],
    ['set a ten minute timer', 600],
    ['set a pasta timer for eight minutes', 480, 'pasta'],
    ['set a timer for twelve minutes for the rice', 720, 'rice'],
    ['set a timer for 5 minutes called eggs', 300, 'eggs'],
    ['please set a timer for four minutes', 240],
  ];
  it.each(table)('"%s" → %i s', (said, seconds, label) => {
    const h = kitchen();
    h.say(said);
    expect(h.actions()).toEqual([{ name: 'timer.set', args: label ? { seconds, label } : { seconds } }]);
  });

  it('confirms aloud and rings when due, with the timer earcon', () => {
    const h = kitchen();
    h.say('set a timer for ten minutes', 1000);
    expect(h.spoken()).toEqual(['Timer set for 10 minutes.']);
    h.clock.advanceTo(600_999);
    expect(h.of('timer').map((t) => t.event)).toEqual(['set']);
    h.clock.advanceTo(601_000);
    expect(h.actions().at(-1)).toEqual({ name: 'timer.done', args: { seconds: 600 } });
    expect(h.of('speak').at(-1)).toEqual(expect.objectContaining({ text: 'Timer done.', earcon: 'timer' }));
  });

  it('names a labelled timer when it rings', () => {
    const h = kitchen();
    h.say('set a pasta timer for 1 minute');
    h.clock.advanceBy(60_000);
    expect(h.actions().at(-1)).toEqual({ name: 'timer.done', args: { label: 'pasta', seconds: 60 } });
    expect(h.spoken().at(-1)).toBe('Pasta timer done.');
  });

  it('asks how long when no duration is heard', () => {
    const h = kitchen();
    h.say('set a timer');
    expect(h.actions()).toEqual([]);
    expect(h.spoken()).toEqual(['For how long? For example: set a timer for ten minutes.']);
  });

  it('refuses a duration beyond a day', () => {
    const h = kitchen();
    h.say('set a timer for 30 hours');
    expect(h.actions()).toEqual([]);
    expect(h.spoken()).toEqual(['A timer can run from 1 second to 24 hours.']);
  });

  it('runs several at once, and setting a label again restarts that one', () => {
    const h = kitchen();
    h.say('set a pasta timer for 8 minutes', 0);
    h.say('set a rice timer for 12 minutes', 1000);
    h.say('set a pasta timer for 9 minutes', 2000);
    expect(h.spoken().at(-1)).toBe('Pasta timer restarted for 9 minutes.');
    expect(h.core.timers.list().map((t) => [t.label, t.dueAtMs])).toEqual([
      ['pasta', 542_000],
      ['rice', 721_000],
    ]);
    h.clock.advanceTo(800_000);
    expect(
      h
        .of('timer')
        .filter((t) => t.event === 'done')
        .map((t) => t.label),
    ).toEqual(['pasta', 'rice']);
  });
});

describe('cancel the timer', () => {
  it('cancels it: it never rings', () => {
    const h = kitchen();
    h.say('set a timer for one minute', 0);
    h.say('cancel the timer', 10_000);
    expect(h.actions().at(-1)).toEqual({ name: 'timer.cancel', args: {} });
    expect(h.spoken().at(-1)).toBe('Cancelled the 1 minute timer.');
    h.clock.advanceTo(120_000);
    expect(h.of('timer').map((t) => t.event)).toEqual(['set', 'cancelled']);
    expect(h.actions().map((a) => a.name)).not.toContain('timer.done');
  });

  it('by label, leaving the others', () => {
    const h = kitchen();
    h.say('set a pasta timer for 8 minutes', 0);
    h.say('set a rice timer for 12 minutes', 1000);
    h.say('cancel the pasta timer', 2000);
    expect(h.spoken().at(-1)).toBe('Cancelled the pasta timer. 1 timer still running.');
    expect(h.core.timers.list().map((t) => t.label)).toEqual(['rice']);
  });

  it('all of them', () => {
    const h = kitchen();
    h.say('set a timer for 8 minutes', 0);
    h.say('set a timer for 12 minutes', 1000);
    h.say('cancel all timers', 2000);
    expect(h.actions().at(-1)).toEqual({ name: 'timer.cancel', args: { all: true } });
    expect(h.spoken().at(-1)).toBe('Cancelled 2 timers.');
    expect(h.core.timers.list()).toEqual([]);
  });

  it('without a label and with several running, asks which rather than guess', () => {
    const h = kitchen();
    h.say('set a timer for 8 minutes', 0);
    h.say('set a timer for 12 minutes', 1000);
    h.say('stop the timer', 2000);
    expect(h.spoken().at(-1)).toBe('Which timer: the 8 minute timer or the 12 minute timer?');
    expect(h.core.timers.list().map((t) => t.seconds)).toEqual([480, 720]);
  });

  it('"the last timer" is the one set most recently', () => {
    const h = kitchen();
    h.say('set a timer for 8 minutes', 0);
    h.say('set a timer for 12 minutes', 1000);
    h.say('cancel the last timer', 2000);
    expect(h.core.timers.list().map((t) => t.seconds)).toEqual([480]);
  });

  it('says so when there is none', () => {
    const h = kitchen();
    h.say('cancel the timer');
    expect(h.spoken()).toEqual(['There is no timer running.']);
  });

  it('says so when the label matches none', () => {
    const h = kitchen();
    h.say('set a timer for 1 minute', 0);
    h.say('cancel the bread timer', 1000);
    expect(h.spoken().at(-1)).toBe('There is no bread timer.');
    expect(h.core.timers.list()).toHaveLength(1);
  });
});

describe('how much time is left', () => {
  it('tells the time left, rounded up to the second', () => {
    const h = kitchen();
    h.say('set a timer for ten minutes', 0);
    h.say('how much time is left', 100_500);
    expect(h.actions().at(-1)).toEqual({ name: 'timer.status', args: {} });
    expect(h.spoken().at(-1)).toBe('8 minutes and 20 seconds left on the 10 minute timer.');
  });

  it('lists several timers, soonest first', () => {
    const h = kitchen();
    h.say('set a rice timer for 12 minutes', 0);
    h.say('set a pasta timer for 8 minutes', 0);
    h.say('how long is left', 60_000);
    expect(h.spoken().at(-1)).toBe('2 timers. Pasta timer: 7 minutes left. Rice timer: 11 minutes left.');
  });

  it('for one label', () => {
    const h = kitchen();
    h.say('set a rice timer for 12 minutes', 0);
    h.say('set a pasta timer for 8 minutes', 0);
    h.say('how much time is left on the rice timer', 60_000);
    expect(h.spoken().at(-1)).toBe('11 minutes left on the rice timer.');
  });

  it('says so when none runs', () => {
    const h = kitchen();
    h.say('how much time is left');
    expect(h.spoken()).toEqual(['No timers are running.']);
  });

  it('works through the wake phrase in wake-word mode, and closes the query', () => {
    const h = harness();
    h.say('computer, set a timer for 1 minute', 0);
    h.say('computer how much time is left', 30_000);
    expect(h.spoken().at(-1)).toBe('30 seconds left on the 1 minute timer.');
    expect(h.stack()).toEqual(['base']);
  });
});

describe('the same words everywhere', () => {
  it('inside a query: "computer" … "set a pizza timer for 8 minutes"', () => {
    const h = harness();
    h.say('computer', 0);
    h.say('set a pizza timer for 8 minutes', 1500);
    expect(h.actions()).toEqual([{ name: 'timer.set', args: { seconds: 480, label: 'pizza' } }]);
    expect(h.stack()).toEqual(['base']);
  });

  it('a room word names this device only when device.area says so', () => {
    const here = harness({ config: { router: { mode: 'always-listen' }, device: { area: 'Kitchen' } } });
    here.say('set a timer for 5 minutes', 0);
    here.say('cancel the kitchen timer', 1000);
    expect(here.spoken().at(-1)).toBe('Cancelled the 5 minute timer.');
    const garage = harness({ config: { router: { mode: 'always-listen' }, device: { area: 'garage' } } });
    garage.say('set a timer for 5 minutes', 0);
    garage.say('cancel the timer in the kitchen', 1000);
    expect(garage.spoken().at(-1)).toBe('I only keep the garage timers; there are no kitchen timers here.');
  });
});
