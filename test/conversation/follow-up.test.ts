import { describe, expect, it } from 'vitest';
import { ledState, patternFor, type LedFlag } from '../../src/gpio/led-state.js';
import { followUpStep } from '../../src/command/follow-up.js';
import { KitchenLanguage } from '../../src/language/kitchen.js';
import { NOTHING_OWNED, type LastRequest } from '../../src/language/situation.js';
import { harness } from '../command/harness.js';
import { script, simulate } from './sim.js';

/**
 * After hark acts on a command, for router.followUpMs (6 s) the person may go on
 * without the wake word; outside that window, words without the wake phrase stay ignored.
 */
describe('follow-ups without the wake word, through hark simulate', () => {
  it('"and two pints of milk" after "add eggs to the shopping list" adds milk; after the window, "and butter" is ignored', async () => {
    const r = await simulate(
      script(
        'computer add eggs to the shopping list',
        'and two pints of milk',
        { text: 'and some butter', atMs: 20_000 },
        "computer what's on the shopping list",
      ),
      { drainMs: 0 },
    );
    expect(r.actions().filter((a) => a.name === 'list.add')).toEqual([
      { name: 'list.add', args: { list: 'shopping', item: 'eggs' } },
      { name: 'list.add', args: { list: 'shopping', item: 'milk', quantity: 2, unit: 'pints' } },
    ]);
    expect(r.of('ignored')).toEqual([expect.objectContaining({ text: 'and some butter', reason: 'wake-word mode and no wake phrase' })]);
    expect(r.spoken().at(-1)).toBe('The shopping list: eggs and two pints of milk.');
    // The window is shown (the LED follows these): opened on each act, closed 6 s after the last.
    expect(r.of('follow-up').slice(0, 3)).toEqual([
      expect.objectContaining({ open: true, untilMs: 7000, atMs: 1000 }),
      expect.objectContaining({ open: true, untilMs: 8000, atMs: 2000 }),
      expect.objectContaining({ open: false, atMs: 8000 }),
    ]);
  });

  it('"make it ten minutes" after setting a timer changes that timer', async () => {
    const r = await simulate(
      script(
        'computer set a timer for five minutes',
        'make it ten minutes',
        { text: 'computer set a pasta timer for 8 minutes', atMs: 10_000 },
        'actually twelve minutes',
      ),
      { drainMs: 0 },
    );
    expect(r.actions().slice(1, 2)).toEqual([{ name: 'timer.add', args: { seconds: 300, latest: true } }]);
    expect(r.of('timer').filter((t) => t.event === 'changed')).toEqual([expect.objectContaining({ id: 1, bySeconds: 300, dueAtMs: 601_000 })]);
    // A named timer is restarted at its new length.
    expect(r.actions().at(-1)).toEqual({ name: 'timer.set', args: { seconds: 720, label: 'pasta' } });
    expect(r.spoken().at(-1)).toBe('Pasta timer restarted for 12 minutes.');
  });

  it('a query kept open under a timer request does not swallow "make it ten minutes" as text', async () => {
    const r = await simulate(script('computer', 'tell the chef table four wants the fish', 'set a timer for eight minutes', 'make it ten minutes'), {
      drainMs: 20_000,
    });
    expect(r.actions().slice(0, 2)).toEqual([
      { name: 'timer.set', args: { seconds: 480 } },
      { name: 'timer.add', args: { seconds: 120, latest: true } },
    ]);
    expect(r.submissions()).toEqual([expect.objectContaining({ text: 'tell the chef table four wants the fish' })]);
  });

  it('a timer request without the wake word acts inside the window, and is ignored outside it', async () => {
    const r = await simulate(
      script('computer add eggs to the shopping list', 'set a timer for three minutes', { text: 'set a timer for four minutes', atMs: 30_000 }),
      { drainMs: 0 },
    );
    expect(r.actions().map((a) => a.name)).toEqual(['list.add', 'timer.set']);
    expect(r.of('ignored')).toEqual([expect.objectContaining({ text: 'set a timer for four minutes' })]);
  });

  it('talk between cooks inside the window stays ignored', async () => {
    // Said once hark has finished its answer (at 5 s; the window is open until 7 s): the router ignores it.
    const r = await simulate(script('computer add eggs to the shopping list', { text: 'did you see the game last night', atMs: 5000 }), { drainMs: 0 });
    expect(r.of('ignored')).toEqual([expect.objectContaining({ text: 'did you see the game last night' })]);
    expect(r.of('submit')).toEqual([]);
    expect(r.actions()).toHaveLength(1);
  });

  it("talk between cooks over hark's answer inside the window neither cuts hark off nor acts", async () => {
    const r = await simulate(script('computer add eggs to the shopping list', 'did you see the game last night'), { drainMs: 0 });
    expect(r.of('speak.stopped')).toEqual([]);
    expect(r.of('submit')).toEqual([]);
    expect(r.actions()).toHaveLength(1);
  });

  it('"no, the other one" after a question answers it', async () => {
    const r = await simulate(script('start inventory', 'apples', 'cancel', 'no, the other one'), { drainMs: 0 });
    expect(r.spoken().at(-1)).toBe('Kept 1 item.');
  });

  it('router.followUpMs: 0 turns it off', async () => {
    const r = await simulate(script('computer add eggs to the shopping list', 'and two pints of milk'), { yaml: 'router:\n  followUpMs: 0\n', drainMs: 0 });
    expect(r.actions()).toHaveLength(1);
    expect(r.of('follow-up')).toEqual([]);
  });
});

describe('the window, for other parts', () => {
  it('core.followUpOpen(), core.awaitingAnswer() and core.expectingWords()', () => {
    const h = harness();
    expect(h.core.followUpOpen()).toBe(false);
    h.say('computer add eggs to the shopping list', 1000);
    expect(h.core.followUpOpen()).toBe(true);
    h.clock.advanceTo(6999);
    expect(h.core.followUpOpen()).toBe(true);
    h.clock.advanceTo(7000);
    expect(h.core.followUpOpen()).toBe(false);
    expect(h.core.awaitingAnswer()).toBe(false);
    expect(h.core.expectingWords()).toBe(false);
    h.say('computer', 8000);
    expect(h.core.awaitingAnswer()).toBe(true);
    expect(h.core.expectingWords()).toBe(true);
  });

  it('the LED shows it: a double blip, below every other state', () => {
    const flags = new Set<LedFlag>(['followUp']);
    expect(ledState(flags)).toBe('follow-up');
    expect(patternFor('follow-up', 'heartbeat')).toBe('double-blip');
    expect(ledState(new Set<LedFlag>(['followUp', 'confirm']))).toBe('confirm');
    expect(ledState(new Set<LedFlag>(['followUp', 'speaking']))).toBe('speaking');
  });
});

describe('reading a follow-up', () => {
  const lang = new KitchenLanguage();
  const read = (words: readonly string[], last: LastRequest) => {
    const r = lang.read(words, { ...NOTHING_OWNED, last }, ['follow']);
    return r?.kind === 'follow-up' ? followUpStep(r.follow, last) : null;
  };
  it.each([
    [
      ['and', 'two', 'pints', 'of', 'milk'],
      { kind: 'list', op: 'add', list: 'shopping' },
      { action: 'list.add', args: { list: 'shopping', item: 'milk', quantity: 2, unit: 'pints' } },
    ],
    [['also', 'some', 'butter', 'please'], { kind: 'list', op: 'add', list: 'prep' }, { action: 'list.add', args: { list: 'prep', item: 'butter' } }],
    [['and', 'the', 'eggs'], { kind: 'list', op: 'remove', list: 'shopping' }, { action: 'list.remove', args: { list: 'shopping', item: 'eggs' } }],
    [['two', 'pints', 'of', 'milk'], { kind: 'list', op: 'add', list: 'shopping' }, null],
    [['make', 'it', 'ten', 'minutes'], { kind: 'timer', seconds: 300 }, { action: 'timer.add', args: { seconds: 300, latest: true }, length: 600 }],
    [['no', 'three', 'minutes'], { kind: 'timer', seconds: 300 }, { action: 'timer.remove', args: { seconds: 120, latest: true }, length: 180 }],
    [['make', 'it', 'ten'], { kind: 'timer', seconds: 300, label: 'rice' }, { action: 'timer.set', args: { seconds: 600, label: 'rice' }, length: 600 }],
    [['ten', 'minutes'], { kind: 'timer', seconds: 300 }, null],
    [['make', 'it', 'five', 'minutes'], { kind: 'timer', seconds: 300 }, { say: 'It is already set for that.' }],
    [['and', 'two', 'pints', 'of', 'milk'], { kind: 'timer', seconds: 300 }, null],
  ] as const)('%j after %j → %j', (words, last, expected) => {
    expect(read(words, last as LastRequest)).toEqual(expected);
  });
});
