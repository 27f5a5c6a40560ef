import { describe, expect, it } from 'vitest';
import { script, simulate } from '../conversation/sim.js';

/**
 * More time taken off a timer than it has left ("verkürze meinen Timer um 5 Stunden" on a 10-minute
 * timer): the timer is up. Home Assistant clamps what is left at zero and finishes the timer; hark
 * does the same, says so, and rings then, not never and not at some time before it was asked.
 */
describe('taking more time off a timer than it has', () => {
  it.each([
    ['de', 'stell einen Timer auf 10 Minuten', 'verkürze meinen Timer um 5 Stunden', 'abgelaufen'],
    ['es', 'pon un temporizador de 10 minutos', 'quita 5 horas al temporizador', 'terminado'],
  ])('%s: "%s", then "%s": done at once, and said', async (lang, set, shorten, word) => {
    const yaml = `router:\n  mode: always-listen\nlanguage:\n  languages: [${lang}]\n`;
    const r = await simulate(script({ text: set, atMs: 1000 }, { text: shorten, atMs: 70_000 }, { atMs: 800_000 }), { yaml, drainMs: 0 });
    const t = r.of('timer');
    // What is left is kept at zero: the timer is due when it was shortened, not hours before it was set.
    expect(t.find((e) => e.event === 'changed')).toMatchObject({ bySeconds: -18_000, atMs: 70_000, dueAtMs: 70_000 });
    expect(t.filter((e) => e.event === 'done').map((e) => e.atMs)).toEqual([70_000]);
    expect(r.of('speak').find((e) => e.atMs === 70_000)?.text).toContain(word);
  });
});
