import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { HARK_BIN } from '../support/paths.js';

/**
 * Everyday wording a cook uses that hark once let slip, each through a real `hark simulate` (the
 * router, frames, timers, lists and the interruption filter on a virtual clock), judged by what a
 * person would notice: what was set, what is on the list, what hark said back.
 */
type Ev = { type: string; atMs: number } & Record<string, unknown>;

function simulate(lines: (string | { text?: string; atMs: number })[]): Promise<Ev[]> {
  const input = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [HARK_BIN, 'simulate', '--drain-ms', '0'], { timeout: 20_000 }, (err, stdout, stderr) => {
      if (err && !stdout) return reject(new Error(`${err.message}\n${stderr}`));
      resolve(
        stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as Ev),
      );
    });
    child.stdin!.end(input);
  });
}

const spoken = (evs: Ev[]) => evs.filter((e) => e.type === 'speak').map((e) => String(e.text));
const actions = (evs: Ev[], name: string) => evs.filter((e) => e.type === 'action' && e.name === name).map((e) => e.args as Record<string, unknown>);

describe('possessives stay whole', () => {
  it('keeps "bird\'s eye chillies" as said, reads it back so, and takes it off by either spelling', async () => {
    const evs = await simulate([
      "computer add bird's eye chillies to the list",
      "computer what's on the list",
      'computer take the birds eye chillies off the list',
      "computer what's on the list",
    ]);
    expect(actions(evs, 'list.add')).toEqual([{ list: 'shopping', item: "bird's eye chillies" }]);
    const said = spoken(evs);
    expect(said).toContain("The shopping list: bird's eye chillies.");
    expect(said.join(' ')).not.toContain('bird is');
    expect(said.at(-1)).toBe('The shopping list is empty.');
  });

  it('still reads the contractions the sentences rely on: "let\'s", "what\'s", and "\'s" as "is"', async () => {
    const evs = await simulate([
      "computer let's put shepherd's pie mix and two chef's knives on the stores list",
      "computer what's on the stores list",
      'computer set a rice timer for 10 minutes',
      "computer how much time's left on the rice timer",
    ]);
    expect(actions(evs, 'list.add')).toEqual([{ list: 'stores', items: [{ item: "shepherd's pie mix" }, { item: "chef's knives", quantity: 2 }] }]);
    expect(spoken(evs)).toContain("The stores list: shepherd's pie mix and two chef's knives.");
    expect(actions(evs, 'timer.status')).toEqual([{ label: 'rice' }]);
    expect(spoken(evs).at(-1)).toBe('9 minutes and 59 seconds left on the rice timer.');
  });
});

describe('a correction whose first number has no unit', () => {
  it('sets the corrected time: "twenty, no, twenty-five minutes", "35 no 40 minutes", "ten minutes, no, five"', async () => {
    const evs = await simulate([
      'computer yorkshires timer, twenty, no, twenty-five minutes',
      'computer pie timer for 35 no 40 minutes',
      'computer set a timer for ten minutes, no, five',
    ]);
    expect(actions(evs, 'timer.set')).toEqual([{ seconds: 1500, label: 'yorkshires' }, { seconds: 2400, label: 'pie' }, { seconds: 300 }]);
    expect(spoken(evs)).toEqual(['Yorkshires timer set for 25 minutes.', 'Pie timer set for 40 minutes.', 'Timer set for 5 minutes.']);
  });

  it('changes the timer just set by a bare correction in the follow-up window: "make it ten, no, twelve"', async () => {
    const evs = await simulate(['computer chips timer for 6 minutes', 'make it ten, no, twelve']);
    expect(actions(evs, 'timer.set')).toEqual([
      { seconds: 360, label: 'chips' },
      { seconds: 720, label: 'chips' },
    ]);
  });

  it('takes no number and "no" for a correction unless a duration follows: an order called out, a number left hanging', async () => {
    const evs = await simulate([
      { text: 'two burgers no onion table four', atMs: 1000 },
      { text: 'computer table twenty, no onions, ten minutes', atMs: 2000 },
      { text: 'computer pie timer for twenty, no', atMs: 20_000 },
      { atMs: 40_000 },
    ]);
    expect(actions(evs, 'timer.set')).toEqual([]);
    expect(evs.filter((e) => e.type === 'timer')).toEqual([]);
  });
});

describe('a list said in one breath', () => {
  const order = 'put 4 pints of stock, 2 kilos of shallots, a tub of duck fat, three bunches of thyme and a case of eggs on the order list';

  it('adds five items that each carry a quantity, in both listening modes', async () => {
    for (const [mode, w] of [
      ['wake-word', 'computer '],
      ['always-listen', ''],
    ] as const) {
      const evs = await simulate([...(mode === 'always-listen' ? ['computer always listen'] : []), w + order, `${w}what's on the order list`]);
      expect(actions(evs, 'list.add')).toEqual([
        {
          list: 'order',
          items: [
            { item: 'stock', quantity: 4, unit: 'pints' },
            { item: 'shallots', quantity: 2, unit: 'kilos' },
            { item: 'duck fat', quantity: 1, unit: 'tub' },
            { item: 'thyme', quantity: 3, unit: 'bunches' },
            { item: 'eggs', quantity: 1, unit: 'case' },
          ],
        },
      ]);
      expect(spoken(evs).at(-1)).toBe(
        'The order list: four pints of stock, two kilos of shallots, one tub of duck fat, three bunches of thyme and one case of eggs.',
      );
    }
  });

  it('has no length limit: ten items with quantities, 44 words of them', async () => {
    const evs = await simulate([
      'computer put 4 pints of stock, 2 kilos of shallots, a tub of duck fat, three bunches of thyme, a case of eggs, 6 litres of milk, two bags of flour, a box of lemons, 3 tins of tomatoes and a sack of onions on the order list',
    ]);
    const items = (actions(evs, 'list.add')[0]?.items ?? []) as { item: string }[];
    expect(items.map((i) => i.item)).toEqual(['stock', 'shallots', 'duck fat', 'thyme', 'eggs', 'milk', 'flour', 'lemons', 'tomatoes', 'onions']);
  });

  it('reads what can be read and says what could not, instead of dropping the list', async () => {
    const evs = await simulate([
      'computer put 4 pints of stock, shallots 2 kilos, a tub of duck fat and a case of eggs on the order list',
      "computer what's on the order list",
    ]);
    expect(actions(evs, 'list.add')).toEqual([
      {
        list: 'order',
        items: [
          { item: 'stock', quantity: 4, unit: 'pints' },
          { item: 'duck fat', quantity: 1, unit: 'tub' },
          { item: 'eggs', quantity: 1, unit: 'case' },
        ],
        unread: ['shallots 2 kilos'],
      },
    ]);
    expect(spoken(evs)).toEqual([
      "Added four pints of stock, one tub of duck fat and one case of eggs to the order list. I didn't catch shallots two kilos.",
      'The order list: four pints of stock, one tub of duck fat and one case of eggs.',
    ]);
  });
});

describe('a follow-up said while hark still answers', () => {
  const first = { text: 'computer garlic bread timer one and a half minutes', atMs: 1000 };

  it('is said to hark: "and a 4 minute timer for the wings" 3 s later cuts the answer off and sets the timer', async () => {
    const evs = await simulate([first, { text: 'and a 4 minute timer for the wings', atMs: 4000 }, { atMs: 10_000 }]);
    const decision = evs.find((e) => e.type === 'interruption' && e.text === 'and a 4 minute timer for the wings');
    expect(decision?.decision).toBe('allow');
    expect(evs.find((e) => e.type === 'speak.stopped')?.text).toBe('Garlic bread timer set for 1 minute and 30 seconds.');
    expect(actions(evs, 'timer.set')).toEqual([
      { seconds: 90, label: 'garlic bread' },
      { seconds: 240, label: 'wings' },
    ]);
    expect(spoken(evs).at(-1)).toBe('Wings timer set for 4 minutes.');
  });

  it('is the same answer when hark has finished speaking, and after a list: a timer, not an item', async () => {
    const evs = await simulate([
      { text: 'computer add eggs to the shopping list', atMs: 1000 },
      { text: 'and a 4 minute timer for the wings', atMs: 5000 },
      { text: "computer what's on the shopping list", atMs: 8000 },
    ]);
    expect(evs.filter((e) => e.type === 'interruption' && e.text === 'and a 4 minute timer for the wings')).toEqual([]);
    expect(actions(evs, 'timer.set')).toEqual([{ seconds: 240, label: 'wings' }]);
    expect(spoken(evs).at(-1)).toBe('The shopping list: eggs.');
  });

  it("cuts hark off only where it then acts: over the voice frame's question the window takes nothing, so hark talks on", async () => {
    const evs = await simulate([
      { text: 'computer add eggs to the shopping list', atMs: 1000 },
      { text: 'computer switch voice', atMs: 2000 },
      { text: 'a 4 minute timer for the wings', atMs: 2500 },
      { atMs: 20_000 },
    ]);
    expect(evs.find((e) => e.type === 'interruption' && e.text === 'a 4 minute timer for the wings')?.decision).toBe('filter');
    expect(evs.filter((e) => e.type === 'speak.stopped').map((e) => e.text)).toEqual(['Added eggs to the shopping list.']);
    expect(actions(evs, 'timer.set')).toEqual([]);
  });

  it('is ignored once the window has closed, as any words without the wake phrase', async () => {
    const evs = await simulate([first, { text: 'and a 4 minute timer for the wings', atMs: 20_000 }, { atMs: 25_000 }]);
    expect(actions(evs, 'timer.set')).toEqual([{ seconds: 90, label: 'garlic bread' }]);
    expect(evs.find((e) => e.type === 'ignored')?.reason).toBe('wake-word mode and no wake phrase');
  });
});
