import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreTimerKeeper } from '../../src/command/actions/timer-keeper.js';
import { validateConfig } from '../../src/config/load.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { StoreListBook } from '../../src/command/lists.js';
import { CommandCore } from '../../src/command/core.js';
import type { TimedEffect } from '../../src/core/effects.js';
import { Store } from '../../src/store/store.js';

/**
 * Timers and lists across a restart, with a real SQLite file: one "boot" of hark's command core
 * sets timers and is shut down; a second, on a fresh process clock (it starts at 0 again) and a
 * wall clock that has moved on, finds them. Wall time is a variable here, so "hark was off for 3
 * minutes" takes no time.
 */
function boot(path: string, wall: { now: number }, languages: string[] = ['en']) {
  const clock = new VirtualClock(0);
  const log = memoryLogger();
  const store = new Store({ path, wallNow: () => wall.now, backgroundCheckpoint: false });
  const cfg = validateConfig({ router: { mode: 'always-listen' }, language: { languages } }, 'test');
  const effects: TimedEffect[] = [];
  const keeper = new StoreTimerKeeper(store.timers(), clock, log, () => wall.now);
  const core = new CommandCore({
    clock,
    router: cfg.router,
    actions: cfg.actions,
    log,
    timerKeeper: keeper,
    lists: new StoreListBook(store),
    language: cfg.language,
    onEffect: (e) => effects.push({ ...e, atMs: clock.now() }),
  });
  let n = 0;
  return {
    clock,
    core,
    effects,
    say: (text: string) => core.dispatch({ id: `u${++n}`, text, rawText: text, engine: 'text', atMs: clock.now() }),
    advance: (ms: number) => {
      clock.advanceBy(ms);
      wall.now += ms;
    },
    restore: () => core.timers.restore(keeper.load()),
    spoken: () => effects.filter((e) => e.type === 'speak').map((e) => (e as { text: string }).text),
    shutdown: () => {
      core.dispose();
      store.close();
    },
  };
}

describe('timers survive a restart', () => {
  it('a timer set in Spanish on an [en, es] device rings in Spanish after a restart', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hark-timers-')), 'hark.db');
    const wall = { now: 1_800_000_000_000 };
    const first = boot(path, wall, ['en', 'es']);
    first.say('pon un temporizador de arroz de dos minutos');
    first.say('set a pasta timer for 3 minutes');
    first.shutdown();
    // Off for 5 minutes: both came due while hark was off; each says so in its own language.
    wall.now += 300_000;
    const second = boot(path, wall, ['en', 'es']);
    second.restore();
    expect(second.spoken()).toEqual(['El temporizador de arroz sonó hace 3 minutos.', 'The pasta timer went off 2 minutes ago.']);
    second.shutdown();
  });

  it('restores running and paused timers; one due while hark was off rings saying how long ago', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hark-timers-')), 'hark.db');
    const wall = { now: 1_800_000_000_000 };
    const first = boot(path, wall);
    first.say('set a pasta timer for 2 minutes');
    first.say('set a roast timer for 1 hour');
    first.say('set a rice timer for 10 minutes');
    first.advance(60_000);
    first.say('pause the rice timer');
    first.shutdown();

    // Off for 3 minutes: the pasta timer came due a minute... and then some.
    wall.now += 180_000;
    const second = boot(path, wall);
    second.restore();
    expect(second.effects.filter((e) => e.type === 'timer' && e.event === 'restored').map((e) => (e as { label?: string }).label)).toEqual([
      'pasta',
      'roast',
      'rice',
    ]);
    expect(second.spoken()).toEqual(['The pasta timer went off 2 minutes ago.']);
    expect(second.core.timers.ringing).toBe(true);
    second.say('thanks');
    expect(second.core.timers.ringing).toBe(false);

    second.say('how much time is left on the roast timer');
    expect(second.spoken().at(-1)).toBe('56 minutes left on the roast timer.');
    second.say('how much time is left on the rice timer');
    expect(second.spoken().at(-1)).toBe('The rice timer is paused with 9 minutes left.');
    // The paused one does not ring; resumed, it runs its 9 minutes from now.
    second.advance(600_000);
    const doneLater = () => second.effects.filter((e) => e.type === 'timer' && e.event === 'done' && e.atMs > 0);
    expect(doneLater()).toEqual([]);
    second.say('resume the rice timer');
    second.advance(540_000);
    expect(doneLater().map((e) => [(e as { label?: string }).label, e.atMs])).toEqual([['rice', 1_140_000]]);
    second.shutdown();

    // The stopped pasta timer is gone from the store; the others are still kept.
    const third = boot(path, wall);
    third.restore();
    expect(third.core.timers.list().map((t) => [t.label, t.state])).toEqual([
      ['rice', 'ringing'],
      ['roast', 'running'],
    ]);
    third.shutdown();
  });

  it('a command for later that came due while hark was off is reported, not done late', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hark-timers-')), 'hark.db');
    const wall = { now: 1_800_000_000_000 };
    const first = boot(path, wall);
    first.say('in 5 minutes turn off the oven');
    first.shutdown();
    wall.now += 600_000;
    const second = boot(path, wall);
    second.restore();
    expect(second.spoken()).toEqual(['While I was off, it came time to: turn off the oven. I did not do it.']);
    expect(second.core.timers.list()).toEqual([]);
    second.shutdown();
  });

  it('lists by rule are kept in the store, where the intent pass reads them too', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'hark-lists-')), 'hark.db');
    const wall = { now: 1_800_000_000_000 };
    const first = boot(path, wall);
    first.say('add apples to my shopping list');
    first.say('put olive oil on the list');
    first.say('add sugar to the trader joes list');
    first.shutdown();
    const second = boot(path, wall);
    second.say("what's on the shopping list");
    expect(second.spoken().at(-1)).toBe('The shopping list: apples and olive oil.');
    second.say('take apples off the list');
    second.say('read me the shopping list');
    expect(second.spoken().at(-1)).toBe('The shopping list: olive oil.');
    second.say('clear the trader joes list');
    second.say("what's on the trader joes list");
    expect(second.spoken().at(-1)).toBe('The trader joes list is empty.');
    // What the debug page and the lists API are to show: every list and what is on it now.
    expect(second.core.lists.names()).toEqual(['shopping', 'trader joes']);
    expect(second.core.lists.lines('shopping').map((l) => l.item)).toEqual(['olive oil']);
    second.shutdown();
  });
});
