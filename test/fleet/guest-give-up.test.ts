import { afterEach, describe, expect, it, vi } from 'vitest';
import { fleetHooks } from '../../src/fleet/component.js';
import type { PathFront } from '../../src/path/plugins.js';
import { harness } from '../command/harness.js';

/**
 * A timer rung here for another device of the area (a guest ring) is the owner's ring: it gives up
 * when the owner's does (actions.timers.giveUpMs after it began ringing there), not that long after
 * this device began ringing it. The owner's state says since when it rings (wall time); the timers
 * keep their own clock, here a virtual one, and the wall clock is faked.
 */
const GIVE_UP_MS = 60_000;
function guestDevice() {
  const h = harness({ config: { device: { area: 'kitchen' }, actions: { timers: { ringEveryMs: 5000, giveUpMs: GIVE_UP_MS } } } });
  const hooks = fleetHooks(
    () => ({ timers: h.core.timers }) as unknown as PathFront,
    () => null,
  );
  return { h, hooks };
}
const events = (h: ReturnType<typeof harness>) => h.of('timer').map((t) => [t.event, t.atMs]);
const rungAt = (h: ReturnType<typeof harness>) =>
  h
    .of('speak')
    .filter((s) => s.earcon === 'timer')
    .map((s) => s.atMs);

afterEach(() => {
  vi.useRealTimers();
});

describe('a guest ring gives up with its owner', () => {
  it("joined 40 s into the owner's ring: it gives up 20 s later, as the owner does, and rings no more", () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-02T08:00:40Z'), toFake: ['Date'] });
    const { h, hooks } = guestDevice();
    hooks.ringGuest({ device: 'back', id: 4 }, 'fryer', { seconds: 300, since: '2026-12-02T08:00:00.000Z' });
    h.clock.advanceTo(19_000);
    expect(h.core.timers.ringing).toBe(true);
    h.clock.advanceTo(120_000);
    expect(events(h)).toEqual([
      ['done', 0],
      ['gave-up', 20_000],
    ]);
    expect(Math.max(...rungAt(h))).toBeLessThanOrEqual(20_000);
    expect(h.core.timers.view()).toEqual([]);
  });

  it('one that has rung at its owner as long as the owner rings is not begun here', () => {
    vi.useFakeTimers({ now: Date.parse('2026-12-02T08:01:00Z'), toFake: ['Date'] });
    const { h, hooks } = guestDevice();
    hooks.ringGuest({ device: 'back', id: 4 }, 'fryer', { seconds: 300, since: '2026-12-02T08:00:00.000Z' });
    h.clock.advanceTo(120_000);
    expect(events(h)).toEqual([]);
    expect(rungAt(h)).toEqual([]);
  });

  it('a guest ring whose owner gives no start counts from when it began here', () => {
    const { h } = guestDevice();
    h.core.timers.ringGuest({ device: 'back', id: 4 }, 'fryer');
    h.clock.advanceTo(120_000);
    expect(events(h)).toEqual([
      ['done', 0],
      ['gave-up', GIVE_UP_MS],
    ]);
  });
});
