import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { said } from '../../src/language/text.js';
import { openDatabase } from '../../src/store/open.js';
import { checkAssignment, type Assignment } from '../../src/picking/assignment.js';
import { PickDialogue } from '../../src/picking/dialogue.js';
import { SqliteLedger } from '../../src/picking/sqlite-ledger.js';
import { wordsOf } from '../../src/picking/words.js';
import { scratch } from './sim.js';

/**
 * A device with two languages: hark speaks its first until a picker speaks the other, then answers
 * in that one (and says so, so the line is spoken with its voice), as the kitchen answers a request
 * in the language it was said in. A real ledger file.
 */
const A = (
  checkAssignment({
    version: 1,
    type: 'assignment',
    id: 'A',
    picks: [{ id: 'P1', aisle: '4', slot: '12', checkDigits: '47', quantity: 3, unit: 'caja', unitPlural: 'cajas' }],
  }) as { value: Assignment }
).value;

function rig(languages: string[]) {
  const { db } = openDatabase(join(scratch('langs'), 'hark.db'), { recoverCorrupt: false });
  const ledger = new SqliteLedger(db, 'dock');
  const lines: { text: string; language: string }[] = [];
  const [first, ...others] = wordsOf(languages);
  const d = new PickDialogue({
    words: first!,
    others,
    ledger,
    clock: new VirtualClock(0),
    operators: [],
    rate: { start: 170, min: 150, max: 190, step: 20 },
    out: { say: (text, _rate, language) => lines.push({ text, language }), event: () => {} },
  });
  ledger.add(A);
  d.start();
  const hear = (text: string, language?: string) => {
    lines.length = 0;
    d.hear(said(text, language), 'u');
    return [...lines];
  };
  return { hear, d };
}

describe('picking on a device of two languages', () => {
  it('a picker speaking the second language is answered in it, and in the first again when they go back', () => {
    const { hear } = rig(['en', 'es']);
    expect(hear('conectar')).toEqual([{ text: '¿Número de operario?', language: 'es' }]);
    expect(hear('uno dos').map((l) => l.language)).toEqual(['es']);
    expect(hear('cuatro siete')).toEqual([{ text: 'Recoja 3 cajas.', language: 'es' }]);
    // The prompt again as it was said, with its own voice; what follows is in English.
    expect(hear('say again')).toEqual([{ text: 'Recoja 3 cajas.', language: 'es' }]);
    expect(hear('short')).toEqual([{ text: 'Quantity picked?', language: 'en' }]);
  });

  it('the language speech-to-text names is read first', () => {
    // "no" is a no in English and in Spanish: named Spanish, it is answered in Spanish.
    const { hear, d } = rig(['en', 'es']);
    hear('sign on');
    hear('one two');
    hear('four seven');
    hear('two');
    expect(d.stepName).toBe('confirm-short');
    expect(hear('no', 'es')).toEqual([{ text: 'Recoja 3 cajas.', language: 'es' }]);
  });

  it('words of a language the device does not have are not heard', () => {
    const { hear, d } = rig(['en']);
    expect(hear('conectar')).toEqual([]);
    expect(d.stepName).toBe('signed-off');
  });
});
