import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { VirtualClock } from '../../src/core/clock.js';
import { said } from '../../src/language/text.js';
import { openDatabase } from '../../src/store/open.js';
import { checkAssignment, type Assignment } from '../../src/picking/assignment.js';
import { PickDialogue, type PickEvent, type StepName } from '../../src/picking/dialogue.js';
import { SqliteLedger } from '../../src/picking/sqlite-ledger.js';
import { englishWords } from '../../src/picking/words.js';
import { scratch } from './sim.js';

/**
 * The dialogue's steps one transition at a time (the state machine on its own, with a real ledger
 * file): from a step, what is taken, what hark says, where it goes; and what each step does not take.
 */
const A: Assignment = (
  checkAssignment({
    version: 1,
    type: 'assignment',
    id: 'A',
    picks: [
      { id: 'P1', aisle: '4', slot: '12', checkDigits: '47', description: 'Soup', quantity: 3, unit: 'case', unitPlural: 'cases' },
      { id: 'P2', aisle: '5', slot: '3', checkDigits: 'B2', quantity: 1, unit: 'case', unitPlural: 'cases' },
    ],
  }) as { value: Assignment }
).value;

function rig(operators: { id: string; pin?: string }[] = []) {
  const { db } = openDatabase(join(scratch('steps'), 'hark.db'), { recoverCorrupt: false });
  const ledger = new SqliteLedger(db, 'dock');
  const says: string[] = [];
  const events: PickEvent[] = [];
  const hooks: { onSay?: (t: string) => void } = {};
  const out = { say: (t: string) => (hooks.onSay?.(t), says.push(t)), event: (e: PickEvent) => events.push(e) };
  const d = new PickDialogue({ words: englishWords(), ledger, clock: new VirtualClock(0), operators, rate: { start: 170, min: 150, max: 190, step: 20 }, out });
  ledger.add(A);
  d.start();
  let n = 0;
  const hear = (text: string) => {
    says.length = 0;
    const taken = d.takes(said(text));
    d.hear(said(text), `u${++n}`);
    return { taken, says: [...says], step: d.stepName };
  };
  return { d, hear, events, ledger, db, hooks };
}

/** Words that bring the dialogue to each step, from a fresh start. */
const TO: Record<string, string[]> = {
  'signed-off': [],
  operator: ['sign on'],
  idle: [],
  location: ['sign on', '12'],
  quantity: ['sign on', '12', '47'],
  picked: ['sign on', '12', '47', 'short'],
  'confirm-short': ['sign on', '12', '47', '2'],
  break: ['sign on', '12', 'take a break'],
};

describe('each step: what it takes, what hark says, where it goes', () => {
  it.each<[string, string, string[], StepName]>([
    ['signed-off', 'sign on', ['Operator number?'], 'operator'],
    ['operator', 'one two', ['Operator 1 2 signed on. New assignment, 2 picks. Aisle 4, slot 12.'], 'location'],
    ['operator', 'say again', ['Operator number?'], 'operator'],
    ['location', 'forty seven', ['Pick 3 cases.'], 'quantity'],
    ['location', 'forty eight', ['Wrong. Aisle 4, slot 12.'], 'location'],
    ['location', 'skip slot', ['Slot skipped. Aisle 5, slot 3.'], 'location'],
    ['location', 'short', ['Quantity picked?'], 'picked'],
    ['location', 'description', ['Soup.'], 'location'],
    ['location', 'how much more', ['2 picks and 4 units left.'], 'location'],
    ['location', 'repeat last pick', ['No pick yet.'], 'location'],
    ['location', 'undo', ['Nothing to undo.'], 'location'],
    ['location', 'take a break', ['Break. Say ready to go on.'], 'break'],
    ['location', 'sign off', ['Signed off. The assignment is kept.'], 'signed-off'],
    ['location', 'faster', ['Faster.'], 'location'],
    ['quantity', 'three', ['Aisle 5, slot 3.'], 'location'],
    ['quantity', 'two', ['Short by 1, correct?'], 'confirm-short'],
    ['quantity', 'four', ['Only 3 cases to pick. Pick 3 cases.'], 'quantity'],
    ['quantity', 'say again', ['Pick 3 cases.'], 'quantity'],
    ['picked', 'one', ['Short by 2, correct?'], 'confirm-short'],
    ['picked', 'three', ['Aisle 5, slot 3.'], 'location'],
    ['confirm-short', 'yes', ['Aisle 5, slot 3.'], 'location'],
    ['confirm-short', 'no', ['Pick 3 cases.'], 'quantity'],
    ['confirm-short', 'say again', ['Short by 1, correct?'], 'confirm-short'],
    ['break', 'ready', ['Aisle 4, slot 12.'], 'location'],
    ['break', 'say again', ['Break. Say ready to go on.'], 'break'],
  ])('%s + "%s"', (from, text, says, to) => {
    const r = rig();
    for (const t of TO[from]!) r.hear(t);
    expect(r.d.stepName).toBe(from === 'idle' ? 'signed-off' : from);
    const got = r.hear(text);
    expect(got).toEqual({ taken: true, says, step: to });
    r.db.close();
  });

  it.each<[string, string]>([
    ['signed-off', 'forty seven'],
    ['signed-off', 'say again'],
    ['operator', 'hello'],
    ['operator', 'alpha one'],
    ['location', 'pass me the tape'],
    ['location', 'yes'],
    ['quantity', 'four seven'],
    ['quantity', 'alpha'],
    ['confirm-short', 'three'],
    ['confirm-short', 'skip slot'],
    ['break', 'forty seven'],
  ])('%s does not take "%s": nothing said, nothing changed', (from, text) => {
    const r = rig();
    for (const t of TO[from]!) r.hear(t);
    const before = r.d.stepName;
    expect(r.hear(text)).toEqual({ taken: false, says: [], step: before });
    r.db.close();
  });

  it('a confirmed pick is in the ledger (and its outbox row) before the next location is said', () => {
    const r = rig();
    for (const t of ['sign on', '12', '47']) r.hear(t);
    let keptWhenSaid: number | null = null;
    const count = () => (r.db.prepare('SELECT COUNT(*) AS n FROM pick_outbox').get() as { n: number }).n;
    // The next location's words, the moment they are said: the row is already there.
    r.hooks.onSay = () => (keptWhenSaid ??= count());
    r.hear('3');
    expect(keptWhenSaid).toBe(1);
    r.db.close();
  });

  it('a PIN: asked for an operator who has one, and checked', () => {
    const r = rig([{ id: '12', pin: '4321' }]);
    r.hear('sign on');
    expect(r.hear('12')).toEqual({ taken: true, says: ['PIN?'], step: 'pin' });
    expect(r.hear('1 2 3 4')).toEqual({ taken: true, says: ['Wrong PIN. Operator number?'], step: 'operator' });
    r.hear('12');
    expect(r.hear('4 3 2 1').step).toBe('location');
    r.db.close();
  });
});
