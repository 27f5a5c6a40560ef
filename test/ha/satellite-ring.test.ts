import { describe, expect, it } from 'vitest';
import { KitchenTimers, type KitchenTimer } from '../../src/command/actions/timers.js';
import { VirtualClock } from '../../src/core/clock.js';
import type { Effect } from '../../src/core/effects.js';

/** Home Assistant's finished timer rings as one of hark's own (KitchenTimers.ringNow). */
describe('ringNow', () => {
  function timers() {
    const clock = new VirtualClock();
    const effects: Effect[] = [];
    const done: KitchenTimer[] = [];
    const t = new KitchenTimers({
      clock,
      emit: (e) => effects.push(e),
      settings: { ringIntervalMs: 6000, giveUpMs: 60_000 },
      onDone: (x) => done.push(x),
      onCommand: () => {},
    });
    return { clock, effects, done, t };
  }

  it('rings at once, with no "set" said, and again every interval until stopped', () => {
    const { clock, effects, done, t } = timers();
    t.ringNow('pasta');
    expect(done.map((d) => d.label)).toEqual(['pasta']);
    expect(effects.filter((e) => e.type === 'speak')).toEqual([]);
    expect(effects.find((e) => e.type === 'timer')).toMatchObject({ event: 'done', label: 'pasta' });
    expect(t.ringing).toBe(true);
    clock.advanceTo(clock.now() + 6000);
    expect(effects.filter((e) => e.type === 'speak').map((e) => (e as { text: string }).text)).toEqual([expect.stringMatching(/pasta/i)]);
    expect(t.stopRinging('voice')).toBe(true);
    expect(t.ringing).toBe(false);
    clock.advanceTo(clock.now() + 12_000);
    expect(effects.filter((e) => e.type === 'speak')).toHaveLength(1);
  });

  it('gives up like any other ring', () => {
    const { clock, effects, t } = timers();
    t.ringNow();
    clock.advanceTo(clock.now() + 60_000);
    expect(effects.some((e) => e.type === 'timer' && e.event === 'gave-up')).toBe(true);
    expect(t.ringing).toBe(false);
  });
});
