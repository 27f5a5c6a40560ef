import { describe, expect, it } from 'vitest';
import { assignment, events, pickOf, replies, scratch, simulate, spoken } from './sim.js';

/**
 * Voice-directed picking through `hark simulate`, as a picker works: sign on, and for each pick the
 * location, the check digits read from the slot, the quantity, the quantity picked.
 */
const A1 = {
  version: 1,
  type: 'assignment',
  id: 'A1',
  picks: [
    { id: 'P1', aisle: '4', slot: '12', checkDigits: '47', description: 'Tomato soup, twelve tins', quantity: 3, unit: 'case', unitPlural: 'cases' },
    { id: 'P2', aisle: '5', slot: '3', checkDigits: 'A12', quantity: 1, unit: 'case', unitPlural: 'cases' },
    { id: 'P3', aisle: '7', slot: '9', checkDigits: '08', quantity: 2, unit: 'box', unitPlural: 'boxes' },
  ],
};
const SIGN_ON = ['sign on', 'one two'];

describe('sign-on and one pick after another', () => {
  it('signs on by voice, says each location and quantity, never the check digits, and confirms every pick', async () => {
    const run = await simulate(scratch('walk'), [...SIGN_ON, 'forty seven', 'three', 'alpha one two', 'one', 'zero eight', 'two'], { assignments: [A1] });
    expect(run.code).toBe(0);
    expect(replies(run.lines)).toEqual([
      ['Operator number?'],
      ['Operator 1 2 signed on. New assignment, 3 picks. Aisle 4, slot 12.'],
      ['Pick 3 cases.'],
      ['Aisle 5, slot 3.'],
      ['Pick 1 case.'],
      ['Aisle 7, slot 9.'],
      ['Pick 2 boxes.'],
      ['Assignment complete. No assignment yet. Stand by.'],
    ]);
    expect(events(run.lines, 'confirmed').map((e) => [e.pick, e.picked, e.short, e.seq])).toEqual([
      ['P1', 3, false, 1],
      ['P2', 1, false, 2],
      ['P3', 2, false, 3],
    ]);
    // The digits printed at the slot are the picker's to read, never hark's to say.
    for (const t of spoken(run.lines)) expect(t).not.toMatch(/47|forty|A12|alpha|08/i);
  });

  it.each([['four seven'], ['forty-seven'], ['4 7'], ['47'], ['Forty seven.'], ['uh, four seven']])('reads "%s" as the check digits 47', async (said) => {
    const run = await simulate(scratch('digits'), [...SIGN_ON, said], { assignments: [A1] });
    expect(replies(run.lines).at(-1)).toEqual(['Pick 3 cases.']);
  });

  it('asks for a PIN when the operator has one, and refuses a wrong one or an unknown operator', async () => {
    const config = "picking:\n  enabled: true\n  operators:\n    - {id: '12', pin: '4321'}\n    - {id: '7'}\n";
    const run = await simulate(scratch('pin'), ['sign on', 'nine', 'one two', 'one one one one', 'one two', 'four three two one'], {
      assignments: [A1],
      config,
    });
    expect(replies(run.lines)).toEqual([
      ['Operator number?'],
      ['Operator 9 is not known. Operator number?'],
      ['PIN?'],
      ['Wrong PIN. Operator number?'],
      ['PIN?'],
      ['Operator 1 2 signed on. New assignment, 3 picks. Aisle 4, slot 12.'],
    ]);
  });
});

describe('assignments for one operator', () => {
  it('an assignment naming another operator waits for them; the one for anyone is started', async () => {
    const forSeven = { ...assignment('FOR7', 2), operator: '7' };
    const dir = scratch('operator');
    const run = await simulate(dir, [...SIGN_ON, '47', '3', 'alpha one two', '1', '08', '2'], { assignments: [forSeven, A1] });
    expect(events(run.lines, 'assignment-started')).toMatchObject([{ assignment: 'A1' }]);
    // Operator 12's work done, the one for 7 is not theirs.
    expect(replies(run.lines).at(-1)).toEqual(['Assignment complete. No assignment yet. Stand by.']);
    const seven = await simulate(dir, ['sign off', 'sign on', 'seven']);
    expect(replies(seven.lines).at(-1)).toEqual(['Operator 7 signed on. New assignment, 2 picks. Aisle 1, slot 11.']);
  });
});

describe('wrong check digits', () => {
  it('twice in a row: "wrong" and the location again each time, never the digits; the right ones go on', async () => {
    const run = await simulate(scratch('wrong'), [...SIGN_ON, 'four eight', 'seventy four', '47'], { assignments: [A1] });
    expect(replies(run.lines).slice(2)).toEqual([['Wrong. Aisle 4, slot 12.'], ['Wrong. Aisle 4, slot 12.'], ['Pick 3 cases.']]);
    expect(events(run.lines, 'wrong-check')).toHaveLength(2);
  });
});

describe('quantities and short picks', () => {
  it('a smaller quantity is a short pick, confirmed first ("short by one, correct?"), and sent as short', async () => {
    const run = await simulate(scratch('short'), [...SIGN_ON, '47', 'two', 'yes'], { assignments: [A1] });
    expect(replies(run.lines).slice(3)).toEqual([['Short by 1, correct?'], ['Aisle 5, slot 3.']]);
    expect(events(run.lines, 'confirmed')).toMatchObject([{ pick: 'P1', quantity: 3, picked: 2, short: true }]);
  });

  it('"no" to the short pick asks the quantity again; nothing is confirmed', async () => {
    const run = await simulate(scratch('short-no'), [...SIGN_ON, '47', 'two', 'no', 'three'], { assignments: [A1] });
    expect(replies(run.lines).slice(3)).toEqual([['Short by 1, correct?'], ['Pick 3 cases.'], ['Aisle 5, slot 3.']]);
    expect(events(run.lines, 'confirmed')).toMatchObject([{ pick: 'P1', picked: 3, short: false }]);
  });

  it('"short" asks how many were picked; zero is a short pick of all', async () => {
    const run = await simulate(scratch('short-cmd'), [...SIGN_ON, '47', 'short pick', 'zero', 'yes'], { assignments: [A1] });
    expect(replies(run.lines).slice(3)).toEqual([['Quantity picked?'], ['Short by 3, correct?'], ['Aisle 5, slot 3.']]);
    expect(events(run.lines, 'confirmed')).toMatchObject([{ pick: 'P1', picked: 0, short: true }]);
  });

  it('more than asked for is refused and the quantity said again', async () => {
    const run = await simulate(scratch('over'), [...SIGN_ON, '47', 'five', 'three'], { assignments: [A1] });
    expect(replies(run.lines).slice(3)).toEqual([['Only 3 cases to pick. Pick 3 cases.'], ['Aisle 5, slot 3.']]);
  });
});

describe('commands at any step', () => {
  it('"skip slot" sends the pick to the end of the assignment, where it comes back', async () => {
    const run = await simulate(scratch('skip'), [...SIGN_ON, 'skip slot', 'alpha one two', 'one', 'zero eight', 'two', 'four seven', 'three'], {
      assignments: [A1],
    });
    const r = replies(run.lines);
    expect(r[2]).toEqual(['Slot skipped. Aisle 5, slot 3.']);
    expect(r[6]).toEqual(['Aisle 4, slot 12.']);
    expect(events(run.lines, 'confirmed').map((e) => e.pick)).toEqual(['P2', 'P3', 'P1']);
    expect(events(run.lines, 'assignment-done')).toHaveLength(1);
  });

  it('the last slot cannot be skipped', async () => {
    const one = { ...A1, picks: [A1.picks[0]] };
    const run = await simulate(scratch('skip-last'), [...SIGN_ON, 'skip slot'], { assignments: [one] });
    expect(replies(run.lines).at(-1)).toEqual(['Last slot. It cannot be skipped.']);
  });

  it('"say again" at each step says that step\'s prompt again and changes nothing', async () => {
    const run = await simulate(
      scratch('say-again'),
      ['sign on', 'say again', 'one two', 'say again', '47', 'say again', 'two', 'say again', 'yes', 'take a break', 'say again', 'ready'],
      { assignments: [A1] },
    );
    expect(replies(run.lines)).toEqual([
      ['Operator number?'],
      ['Operator number?'],
      ['Operator 1 2 signed on. New assignment, 3 picks. Aisle 4, slot 12.'],
      ['Operator 1 2 signed on. New assignment, 3 picks. Aisle 4, slot 12.'],
      ['Pick 3 cases.'],
      ['Pick 3 cases.'],
      ['Short by 1, correct?'],
      ['Short by 1, correct?'],
      ['Aisle 5, slot 3.'],
      ['Break. Say ready to go on.'],
      ['Break. Say ready to go on.'],
      ['Aisle 5, slot 3.'],
    ]);
  });

  it('"how much more", "description" and "repeat last pick" answer without moving on', async () => {
    const run = await simulate(scratch('ask'), [...SIGN_ON, 'how much more', 'description', '47', 'three', 'repeat last pick', 'description', 'a12'], {
      assignments: [A1],
    });
    expect(replies(run.lines).slice(2)).toEqual([
      ['3 picks and 6 units left.'],
      ['Tomato soup, twelve tins.'],
      ['Pick 3 cases.'],
      ['Aisle 5, slot 3.'],
      ['Last pick: aisle 4, slot 12, 3 cases.'],
      ['No description.'],
      ['Pick 1 case.'],
    ]);
  });

  it('"undo" takes back the last pick before it is sent, and the picker does it again', async () => {
    const run = await simulate(scratch('undo'), [...SIGN_ON, '47', 'three', 'undo', '47', 'two', 'yes', 'undo', 'undo'], { assignments: [A1] });
    expect(replies(run.lines).slice(4)).toEqual([
      ['Undone. Aisle 4, slot 12.'],
      ['Pick 3 cases.'],
      ['Short by 1, correct?'],
      ['Aisle 5, slot 3.'],
      ['Undone. Aisle 4, slot 12.'],
      ['Nothing to undo.'],
    ]);
    expect(events(run.lines, 'undone')).toHaveLength(2);
  });

  it('"sign off" keeps the assignment; signing on again goes on at the first pick not done', async () => {
    const run = await simulate(scratch('sign-off'), [...SIGN_ON, '47', 'three', 'sign off', 'forty seven', ...SIGN_ON], { assignments: [A1] });
    const r = replies(run.lines);
    expect(r[4]).toEqual(['Signed off. The assignment is kept.']);
    // Signed off, the check digits are nobody's words: ignored, with why.
    expect(r[5]).toEqual([]);
    expect(run.lines.find((l) => l.type === 'ignored' && l.text === 'forty seven')).toMatchObject({
      frame: 'picking',
      reason: expect.stringContaining('picking'),
    });
    expect(r[7]).toEqual(['Operator 1 2 signed on. Resuming the assignment. Aisle 5, slot 3.']);
  });

  it('"faster" and "slower" change the operator\'s speaking rate, within bounds', async () => {
    const config = 'picking:\n  enabled: true\n  rate: {start: 170, min: 150, max: 190, step: 20}\n';
    const run = await simulate(scratch('rate'), [...SIGN_ON, 'faster', 'talk faster', 'slower', 'slower', 'slower'], { assignments: [A1], config });
    expect(replies(run.lines).slice(2)).toEqual([['Faster.'], ['That is as fast as I go.'], ['Slower.'], ['Slower.'], ['That is as slow as I go.']]);
    expect(events(run.lines, 'rate').map((e) => e.wpm)).toEqual([190, 170, 150]);
  });
});

describe('talk that is not for hark', () => {
  it('a colleague and the PA during a pick are ignored and logged as ignored; the pick goes on', async () => {
    const run = await simulate(
      scratch('talk'),
      [...SIGN_ON, 'are you on lunch at twelve', 'attention please, would the driver of the blue van come to reception', '47', 'can you pass me that', 'three'],
      { assignments: [A1] },
    );
    const r = replies(run.lines);
    expect(r.slice(2)).toEqual([[], [], ['Pick 3 cases.'], [], ['Aisle 5, slot 3.']]);
    const ignored = run.lines.filter((l) => l.type === 'ignored');
    expect(ignored.map((l) => l.text)).toEqual([
      'are you on lunch at twelve',
      'attention please, would the driver of the blue van come to reception',
      'can you pass me that',
    ]);
    expect(ignored.every((l) => l.frame === 'picking')).toBe(true);
    expect(events(run.lines, 'wrong-check')).toEqual([]);
  });
});

describe('a long assignment', () => {
  it('50 picks read through to the end: each confirmed once, in order, and the assignment complete', async () => {
    const said = [...SIGN_ON];
    for (let i = 1; i <= 50; i++) said.push(pickOf(i).check, String(pickOf(i).quantity));
    const run = await simulate(scratch('fifty'), said, { assignments: [assignment('A50', 50)] });
    const confirmed = events(run.lines, 'confirmed');
    expect(confirmed.map((e) => e.pick)).toEqual(Array.from({ length: 50 }, (_, k) => `P${k + 1}`));
    expect(confirmed.map((e) => e.seq)).toEqual(Array.from({ length: 50 }, (_, k) => k + 1));
    expect(events(run.lines, 'wrong-check')).toEqual([]);
    expect(spoken(run.lines).at(-1)).toBe('Assignment complete. No assignment yet. Stand by.');
  });
});
