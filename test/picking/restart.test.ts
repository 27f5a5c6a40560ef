import { describe, expect, it } from 'vitest';
import { assignment, events, pickOf, replies, scratch, simulate } from './sim.js';

describe('a restart mid-assignment (a second simulate on the same ledger)', () => {
  it('goes on at the first unconfirmed pick, with none confirmed twice', async () => {
    const dir = scratch('resume');
    const said = ['sign on', 'one two'];
    for (let i = 1; i <= 3; i++) said.push(pickOf(i).check, String(pickOf(i).quantity));
    said.push(pickOf(4).check); // pick 4's digits read, its quantity not yet said
    const first = await simulate(dir, said, { assignments: [assignment('A6', 6)] });
    expect(events(first.lines, 'confirmed').map((e) => e.pick)).toEqual(['P1', 'P2', 'P3']);

    const rest: string[] = [];
    for (let i = 4; i <= 6; i++) rest.push(pickOf(i).check, String(pickOf(i).quantity));
    const second = await simulate(dir, rest);
    // Signed on still; asked again for pick 4 from its location (its digits were never confirmed).
    expect(second.lines.find((l) => l.type === 'speak')?.text).toBe('Resuming the assignment. Aisle 4, slot 14.');
    expect(events(second.lines, 'confirmed').map((e) => [e.pick, e.seq])).toEqual([
      ['P4', 4],
      ['P5', 5],
      ['P6', 6],
    ]);
    expect(replies(second.lines).at(-1)).toEqual(['Assignment complete. No assignment yet. Stand by.']);
  });
});
