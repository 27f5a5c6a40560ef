import { describe, expect, it } from 'vitest';
import { checkAssignment } from '../../src/picking/assignment.js';
import { assignment, events, replies, scratch, simulate } from './sim.js';

const good = () => assignment('A1', 2) as { picks: Record<string, unknown>[] } & Record<string, unknown>;

describe('assignment messages (version 1)', () => {
  it('accepts a well-formed one, the check digits in capitals without spaces', () => {
    const a = good();
    a.picks[0]!.checkDigits = 'a 12';
    const r = checkAssignment(a);
    expect(r.ok && r.value.picks[0]!.checkDigits).toBe('A12');
  });

  it.each([
    [(a: ReturnType<typeof good>) => (a.version = 2), 'version: must be 1 (this hark reads version 1 messages)'],
    [(a: ReturnType<typeof good>) => delete a.id, 'id: must be a string'],
    [(a: ReturnType<typeof good>) => (a.picks = []), 'picks: must hold at least one pick'],
    [(a: ReturnType<typeof good>) => (a.picks[1]!.quantity = 0), 'picks.1.quantity: must be at least 1'],
    [(a: ReturnType<typeof good>) => (a.picks[1]!.quantity = 2.5), 'picks.1.quantity: must be a whole number'],
    [(a: ReturnType<typeof good>) => (a.picks[0]!.checkDigits = '4-7'), 'picks.0.checkDigits: must be 1 to 8 letters or digits'],
    [(a: ReturnType<typeof good>) => (a.picks[1]!.id = 'P1'), 'picks.1.id: "P1" is the id of an earlier pick (each pick needs its own)'],
    [(a: ReturnType<typeof good>) => (a.picks[0]!.colour = 'red'), 'picks.0: Unrecognized key: "colour"'],
    [(a: ReturnType<typeof good>) => delete a.picks[0]!.aisle, 'picks.0.aisle: must be a string'],
    [(a: ReturnType<typeof good>) => (a.operator = 'Bob'), 'operator: must be 1 to 12 digits'],
  ])('refuses a malformed one, naming the field (%#)', (spoil, problem) => {
    const a = good();
    spoil(a);
    const r = checkAssignment(a);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems).toContain(problem);
  });

  it('a malformed assignment file stops simulate (exit 2) with the field named, and changes nothing kept', async () => {
    const dir = scratch('malformed');
    const first = await simulate(dir, ['sign on', 'one two'], { assignments: [assignment('A1', 2)] });
    expect(first.code).toBe(0);
    const bad = good();
    bad.id = 'A2';
    bad.picks[1]!.quantity = -3;
    const second = await simulate(dir, [], { assignments: [bad] });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('picks.1.quantity: must be at least 1');
    // The assignment kept before is still there, and the picker goes on with it.
    const third = await simulate(dir, ['say again']);
    expect(replies(third.lines)).toEqual([['Resuming the assignment. Aisle 1, slot 11.']]);
  });

  it('an assignment already kept (a repeat delivery) changes nothing: it is not started twice', async () => {
    const dir = scratch('repeat-delivery');
    const run = await simulate(dir, ['sign on', 'one two'], { assignments: [assignment('A1', 2), assignment('A1', 2)] });
    expect(events(run.lines, 'assignment-started')).toHaveLength(1);
  });

  it('not JSON: refused with the file and why', async () => {
    const run = await simulate(scratch('not-json'), [], { raw: ['{"version": 1,'] });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--assignment .*raw-0\.json: .*JSON/);
  });
});
