import { describe, expect, it } from 'vitest';
import { harness } from '../command/harness.js';

/** Wake-word mode, as a kitchen appliance ships: the ring must be stoppable without "computer". */
function kitchen(extra: Record<string, unknown> = {}) {
  return harness({ config: { device: { area: 'kitchen' }, actions: { timers: { ringEveryMs: 5000, giveUpMs: 60_000 } }, ...extra } });
}
const rings = (h: ReturnType<typeof kitchen>) =>
  h
    .of('speak')
    .filter((s) => s.earcon === 'timer')
    .map((s) => [s.text, s.atMs]);

describe('a due timer rings until someone stops it', () => {
  it('repeats the timer earcon and its name every ringEveryMs', () => {
    const h = kitchen();
    h.say('computer set a pasta timer for 1 minute', 0);
    h.clock.advanceTo(75_000);
    expect(rings(h)).toEqual([
      ['Pasta timer done.', 60_000],
      ['Pasta timer done.', 65_000],
      ['Pasta timer done.', 70_000],
      ['Pasta timer done.', 75_000],
    ]);
  });

  it.each(['stop', 'ok', 'thanks', 'Thank you.', 'okay thanks', 'Got it, thanks!', 'stop the alarm', 'turn it off', 'computer stop'])(
    '"%s", without the wake word, silences it for good',
    (word) => {
      const h = kitchen();
      h.say('computer set a timer for 1 minute', 0);
      h.say(word, 62_000);
      h.clock.advanceTo(200_000);
      expect(rings(h).map(([, at]) => at)).toEqual([60_000]);
      expect(h.of('timer').at(-1)).toEqual(expect.objectContaining({ event: 'stopped', by: 'voice' }));
      // It was the ring's word, not a command: nothing else happened to it.
      expect(h.ignored()).toEqual([]);
    },
  );

  it('"ok, set a timer for 2 minutes" while it rings is a command, not a stop', () => {
    const h = kitchen({ router: { mode: 'always-listen' } });
    h.say('set a timer for 1 minute', 0);
    h.say('ok set a timer for 2 minutes', 61_000);
    expect(h.core.timers.ringing).toBe(true);
    expect(h.of('timer').at(-1)).toEqual(expect.objectContaining({ event: 'set', seconds: 120 }));
  });

  it('"ok" when nothing rings is not taken by the ring', () => {
    const h = kitchen();
    h.say('ok', 1000);
    expect(h.ignored()).toEqual([{ frame: 'base', text: 'ok' }]);
  });

  it('a button tap stops it (the ring takes the tap first)', () => {
    const h = kitchen();
    h.say('computer set a timer for 1 minute', 0);
    h.clock.advanceTo(61_000);
    expect(h.core.tapStopsRinging()).toBe(true);
    h.clock.advanceTo(200_000);
    expect(rings(h).map(([, at]) => at)).toEqual([60_000]);
    expect(h.of('timer').at(-1)).toEqual(expect.objectContaining({ event: 'stopped', by: 'button' }));
    expect(h.core.tapStopsRinging()).toBe(false);
  });

  it('gives up after giveUpMs, and logs it', () => {
    const h = kitchen();
    h.say('computer set a rice timer for 1 minute', 0);
    h.clock.advanceTo(600_000);
    const last = rings(h).at(-1)![1] as number;
    expect(last).toBeLessThanOrEqual(120_000);
    expect(h.of('timer').at(-1)).toEqual(expect.objectContaining({ event: 'gave-up', label: 'rice', atMs: 120_000 }));
    expect(h.log.lines.some((l) => l.includes('gave up') && l.includes('rice'))).toBe(true);
  });

  it('several due timers ring in turn, each named, and one "stop" silences them', () => {
    const h = kitchen();
    h.say('computer set a pasta timer for 1 minute', 0);
    h.say('computer set a sauce timer for 1 minute', 2000);
    h.clock.advanceTo(73_000);
    expect(rings(h)).toEqual([
      ['Pasta timer done.', 60_000],
      ['Sauce timer done.', 62_000],
      ['Pasta timer done.', 65_000],
      ['Sauce timer done.', 70_000],
    ]);
    h.say('stop', 73_000);
    h.clock.advanceTo(100_000);
    expect(rings(h)).toHaveLength(4);
    expect(h.core.timers.list()).toEqual([]);
  });

  it('rings are alerts through the speech queue, so the echo gate covers them', () => {
    const h = kitchen();
    h.say('computer set a timer for 1 second', 0);
    h.clock.advanceTo(1000);
    // The daemon plays a speak effect with the timer earcon at alert priority (daemon/effects.ts),
    // and the speech queue raises speak.start/end, which the echo gate follows.
    expect(h.of('speak').at(-1)).toEqual(expect.objectContaining({ earcon: 'timer' }));
  });
});

describe('pause, resume, add and take off time', () => {
  it('a paused timer does not ring; resumed, it continues from where it stopped', () => {
    const h = kitchen();
    h.say('computer set a timer for 10 minutes', 0);
    h.say('computer pause the timer', 120_000);
    h.clock.advanceTo(3_600_000);
    expect(h.of('timer').filter((t) => t.event === 'done')).toEqual([]);
    // What the debug page and /healthz are to show.
    expect(h.core.timers.view()).toEqual([
      { id: 1, label: null, seconds: 600, state: 'paused', leftSeconds: 480, command: null, ringingSeconds: null, from: null },
    ]);
    h.say('computer resume the timer', 3_600_000);
    expect(h.spoken().at(-1)).toBe('Resumed the 10 minute timer, 8 minutes left.');
    h.clock.advanceTo(4_200_000);
    expect(h.of('timer').find((t) => t.event === 'done')?.atMs).toBe(3_600_000 + 480_000);
  });

  it('adds time to the named timer and takes it off another, each saying which', () => {
    const h = kitchen();
    h.say('computer set a pizza timer for 10 minutes', 0);
    h.say('computer set a timer for 5 minutes', 0);
    h.say('computer add 5 minutes to the pizza timer', 1000);
    expect(h.spoken().at(-1)).toBe('Added 5 minutes to the pizza timer: 14 minutes and 59 seconds left.');
    h.say('computer take 2 minutes off the 5 minute timer', 2000);
    expect(h.spoken().at(-1)).toBe('Took 2 minutes off the 5 minute timer: 2 minutes and 58 seconds left.');
    h.clock.advanceTo(1_000_000);
    expect(
      h
        .of('timer')
        .filter((t) => t.event === 'done')
        .map((t) => [t.label ?? t.seconds, t.atMs]),
    ).toEqual([
      [300, 180_000],
      ['pizza', 900_000],
    ]);
  });

  it('asks which when "the timer" could be several, and acts on none', () => {
    const h = kitchen();
    h.say('computer set a pizza timer for 10 minutes', 0);
    h.say('computer set a timer for 5 minutes', 0);
    h.say('computer pause the timer', 1000);
    expect(h.spoken().at(-1)).toBe('Which timer: the pizza timer or the 5 minute timer?');
    expect(h.of('timer').filter((t) => t.event === 'paused')).toEqual([]);
  });

  it.each([
    ['the pizza one', ['pizza']],
    ['pizza', ['pizza']],
    ['the 5 minute timer', [undefined]],
    ['both', [undefined, 'pizza']],
  ] as const)('takes the answer "%s" without the wake word', (answer, paused) => {
    const h = kitchen();
    h.say('computer set a pizza timer for 10 minutes', 0);
    h.say('computer set a timer for 5 minutes', 0);
    h.say('computer pause the timer', 1000);
    h.say(answer, 4000);
    expect(
      h
        .of('timer')
        .filter((t) => t.event === 'paused')
        .map((t) => t.label),
    ).toEqual(paused);
    expect(h.ignored()).toEqual([]);
  });

  it('an answer that comes too late, or picks nothing, is an utterance like any other', () => {
    const h = kitchen();
    h.say('computer set a pizza timer for 10 minutes', 0);
    h.say('computer set a timer for 5 minutes', 0);
    h.say('computer cancel the timer', 1000);
    h.say('the soup one', 3000);
    h.say('pizza', 30_000);
    expect(h.of('timer').filter((t) => t.event === 'cancelled')).toEqual([]);
    expect(h.ignored().map((i) => i.text)).toEqual(['the soup one', 'pizza']);
  });

  it("a timer in another room is not this device's", () => {
    const h = kitchen();
    h.say('computer set a timer for 10 minutes', 0);
    h.say('computer cancel the timer in the garage', 1000);
    expect(h.spoken().at(-1)).toBe('I only keep the kitchen timers; there are no garage timers here.');
    expect(h.core.timers.list()).toHaveLength(1);
  });
});

describe('a command for later', () => {
  it('"in 5 minutes, ..." handles the words then, as if just heard after the wake word', () => {
    const h = kitchen();
    h.say('computer in 5 minutes, add flour to the shopping list', 0);
    expect(h.spoken().at(-1)).toBe('In 5 minutes: add flour to the shopping list.');
    h.clock.advanceTo(299_000);
    expect(h.of('list')).toEqual([]);
    h.clock.advanceTo(300_000);
    expect(h.of('list')).toEqual([expect.objectContaining({ op: 'add', list: 'shopping', item: 'flour', atMs: 300_000 })]);
    expect(h.stack()).toEqual(['base']);
  });
});

describe('what rings, where, for how long (the debug page, /api/kitchen, /healthz)', () => {
  it('a ringing timer says how long it has rung; one rung here for another device names that device', () => {
    const h = kitchen();
    h.say('computer set a pasta timer for 1 minute', 0);
    h.clock.advanceTo(75_500);
    h.core.timers.ringGuest({ device: 'back', id: 4 }, 'fryer');
    h.clock.advanceTo(80_000);
    expect(h.core.timers.view()).toEqual([
      expect.objectContaining({ label: 'pasta', state: 'ringing', ringingSeconds: 20, from: null }),
      expect.objectContaining({ label: 'fryer', state: 'ringing', ringingSeconds: 4, from: 'back' }),
    ]);
    // It rings here by its name, and "stop" stops it with the device's own.
    expect(rings(h)).toContainEqual(['Fryer timer done.', 75_500]);
    h.say('stop', 81_000);
    expect(h.core.timers.view()).toEqual([]);
    expect(
      h
        .of('timer')
        .filter((t) => t.event === 'stopped')
        .map((t) => t.from ?? null),
    ).toEqual([null, { device: 'back', id: 4 }]);
  });

  it('the owner said it no longer rings: quiet here, and not recorded as a stop', () => {
    const h = kitchen();
    h.core.timers.ringGuest({ device: 'back', id: 4 }, 'fryer');
    h.core.timers.ringGuest({ device: 'back', id: 4 }, 'fryer');
    expect(h.core.timers.view()).toHaveLength(1);
    h.core.timers.endGuest({ device: 'back', id: 4 });
    expect(h.core.timers.ringing).toBe(false);
    expect(h.of('timer').map((t) => t.event)).toEqual(['done', 'ended']);
  });
});

describe('each ring unanswered is counted, for the speaker to play it louder', () => {
  const ringSteps = (h: ReturnType<typeof kitchen>) =>
    h
      .of('speak')
      .filter((s) => s.earcon === 'timer')
      .map((s) => [s.text, s.ring]);

  it('counts per timer, and the next timer starts again from its first ring', () => {
    const h = kitchen();
    h.say('computer set a pasta timer for 1 minute', 0);
    h.clock.advanceTo(70_000);
    h.say('stop', 71_000);
    h.say('computer set a rice timer for 1 minute', 72_000);
    h.clock.advanceTo(137_000);
    expect(ringSteps(h)).toEqual([
      ['Pasta timer done.', 0],
      ['Pasta timer done.', 1],
      ['Pasta timer done.', 2],
      ['Rice timer done.', 0],
      ['Rice timer done.', 1],
    ]);
    // Only a ring is counted: the rest of what hark says plays at the voice's level.
    expect(
      h
        .of('speak')
        .filter((s) => s.earcon !== 'timer')
        .every((s) => s.ring === undefined),
    ).toBe(true);
  });

  it('two timers ringing in turn each count their own rings', () => {
    const h = kitchen();
    h.say('computer set a pasta timer for 1 minute', 0);
    h.say('computer set a rice timer for 1 minute', 500);
    h.clock.advanceTo(76_000);
    expect(ringSteps(h)).toEqual([
      ['Pasta timer done.', 0],
      ['Rice timer done.', 0],
      ['Pasta timer done.', 1],
      ['Rice timer done.', 1],
      ['Pasta timer done.', 2],
    ]);
  });
});
