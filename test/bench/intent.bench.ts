import { bench, describe } from 'vitest';
import { DEFAULT_INTENTS } from '../../src/intent/intent-spec.js';
import { readProposal } from '../../src/intent/proposal.js';
import { fillSlots, proposalSlots } from '../../src/intent/proposal-slots.js';

/**
 * What hark adds to each model reply: validating it, reading the object's parts and phrasing the
 * yes/no question. Pure and per reply; on the Pi the model's own time (hundreds of ms) dwarfs it,
 * and this says whether hark's part ever matters (measured here: ~15-30 µs).
 */
describe('intent pass: hark-side cost per reply', () => {
  const reply = '{"verb": "add_to_list", "object": "3 cases of milk"}';
  bench('validate + read slots + phrase the question', () => {
    const p = readProposal(reply, DEFAULT_INTENTS);
    if (p.status !== 'PROPOSED') throw new Error('expected a proposal');
    fillSlots(p.intent.ask, proposalSlots(p.intent, p.target, 'add three cases of milk to the order list'));
  });
});
