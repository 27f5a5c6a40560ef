import { describe, expect, it } from 'vitest';
import { completeCommand } from '../../src/command/complete.js';
import { validateConfig } from '../../src/config/load.js';
import { script, simulate } from './sim.js';

/**
 * A request said into an open query must not throw the query away. The kitchen
 * request is carried out; the query keeps what it holds and sends it on its silence.
 */
describe('a request said into an open query', () => {
  it('wake-word mode: the timer is set and the query text is still submitted', async () => {
    const r = await simulate(script('computer', 'tell the chef table four wants the fish', { text: 'set a timer for five minutes', atMs: 5000 }), {
      drainMs: 20_000,
    });
    expect(r.status).toBe(0);
    expect(r.actions()).toContainEqual({ name: 'timer.set', args: { seconds: 300 } });
    expect(r.of('submit')).toEqual([expect.objectContaining({ frame: 'query', text: 'tell the chef table four wants the fish' })]);
    expect(r.submissions()).toEqual([expect.objectContaining({ text: 'tell the chef table four wants the fish' })]);
    // The query closed on its silence, after the timer, with the 'sent' earcon.
    expect(r.of('earcon').map((e) => e.name)).toContain('sent');
    expect(r.lines.at(-1)).toEqual(expect.objectContaining({ type: 'end', stack: ['base'] }));
  });

  it("always-listen: two requests within the query's 4 s do not collide", async () => {
    const r = await simulate(script({ text: 'table four wants the fish', atMs: 1000 }, { text: 'set a timer for five minutes', atMs: 3000 }), {
      yaml: 'router:\n  mode: always-listen\n',
      drainMs: 20_000,
    });
    expect(r.actions()).toContainEqual({ name: 'timer.set', args: { seconds: 300 } });
    expect(r.submissions()).toEqual([expect.objectContaining({ text: 'table four wants the fish' })]);
  });

  it('"cancel" still drops the query, and an empty query still closes on a kitchen request', async () => {
    const r = await simulate(script('computer', 'the fish for table four', 'cancel', 'computer set a timer for five minutes'), { drainMs: 20_000 });
    expect(r.of('submit')).toEqual([]);
    expect(r.of('stack').at(-1)).toEqual(expect.objectContaining({ frames: ['base'], atMs: 4000 }));
  });
});

/** Lesser: an exact phrase closes the segment early only when nothing longer in the frame starts with it. */
describe('closing a segment early on a whole command', () => {
  const frames = validateConfig({}, 'test').router.frames;
  it.each([
    // "cancel" … "the rice timer" said into a query must not cancel the query
    ['query', 'cancel', false],
    ['query', 'stop', false],
    ['query', 'go', true],
    ['query', 'read back', true],
    ['confirm', 'yes', true],
    ['confirm', 'no', true],
    ['confirm', 'sure', true],
    ['base', 'repeat', true],
    ['inventory', 'cancel', true],
    ['inventory', 'save', true],
  ] as const)('%s: %j → %s', (top, text, complete) => {
    expect(completeCommand(frames, top, text)).toBe(complete);
  });
});
