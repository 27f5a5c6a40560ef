import { describe, expect, it } from 'vitest';
import { harness } from '../command/harness.js';
import { script, simulate } from './sim.js';

/**
 * The confirm frame takes a kitchen's everyday yes and no, tolerant of fillers,
 * and says "yes or no?" once when something else is heard. Asked here by inventory's discard
 * ("Discard 1 item?"), which needs no model.
 */
const YES = ['okay', 'sure', 'yup', 'yeah', 'correct', "that's right", 'go ahead', 'do it', 'uh yes', 'yes please', 'Yeah, sure.', 'um okay thanks'];
const NO = ['no', 'nope', "don't", 'cancel', 'never mind', 'nah', 'no, the other one', 'uh no thanks'];

function rounds(answers: readonly string[]): string {
  const lines: string[] = [];
  for (const a of answers) lines.push('start inventory', 'apples', 'cancel', a, 'cancel', 'yes');
  return script(...lines);
}

describe("the confirm frame hears a kitchen's yes and no", () => {
  it.each(YES)('%j is yes', (answer) => {
    const h = harness();
    h.sayAll('start inventory', 'apples', 'cancel', answer);
    expect(h.spoken().at(-1)).toBe('Discarded 1 item.');
    expect(h.stack()).toEqual(['base']);
  });

  it.each(NO)('%j is no', (answer) => {
    const h = harness();
    h.sayAll('start inventory', 'apples', 'cancel', answer);
    expect(h.spoken().at(-1)).toBe('Kept 1 item.');
    expect(h.stack()).toEqual(['base', 'inventory']);
  });

  it.each(['okay no', 'yes no', 'maybe later', 'no problem'])('%j is neither: "Yes or no?"', (answer) => {
    const h = harness();
    h.sayAll('start inventory', 'apples', 'cancel', answer);
    expect(h.spoken().at(-1)).toBe('Yes or no?');
    expect(h.stack()).toEqual(['base', 'inventory', 'confirm']);
  });

  it('through hark simulate: each answer acts, something else gets "Yes or no?" once, and no answer still times out', async () => {
    const r = await simulate(rounds(['sure', 'nope']) + script('start inventory', 'apples', 'cancel', 'what was that', 'hang on', 'yup'), { drainMs: 0 });
    const said = r.spoken();
    expect(said.filter((t) => t === 'Discarded 1 item.')).toHaveLength(3);
    expect(said.filter((t) => t === 'Kept 1 item.')).toHaveLength(1);
    expect(said.filter((t) => t === 'Yes or no?')).toHaveLength(1);
    expect(said).not.toContain('No answer, so I did nothing.');
    expect(r.lines.at(-1)).toEqual(expect.objectContaining({ type: 'end', stack: ['base'] }));
  });
});
