import { englishFillers } from '../../src/language/pack/english.js';
import { describe, expect, it } from 'vitest';
import { said } from '../../src/language/text.js';
import { wholeImperatives } from '../../src/language/imperatives.js';
import { harness } from '../command/harness.js';
import { script, simulate } from './sim.js';

/**
 * Imperatives, as the README promises them, wired through detectIntent
 * in the default frames: "can you repeat that", "say that again", "repeat number 3", "computer
 * please stop", "stop. actually continue"; continue resumes the answer that was stopped, start over
 * restarts a read-back.
 */
const fillers = new Set(englishFillers());
const read = (t: string) => wholeImperatives(said(t), fillers);

describe('whole imperatives', () => {
  it.each([
    ['can you repeat that', [{ name: 'repeat' }]],
    ['say that again', [{ name: 'repeat' }]],
    ['Could you say that again, please?', [{ name: 'repeat' }]],
    ['repeat number 3', [{ name: 'repeat', reference: 'number 3' }]],
    [
      'repeat number three. No, number five.',
      [
        { name: 'repeat', reference: 'number 3' },
        { name: 'repeat', reference: 'number 5' },
      ],
    ],
    ['please stop', [{ name: 'stop' }]],
    ['stop. actually continue', [{ name: 'stop' }, { name: 'continue' }]],
    ['stop actually continue', [{ name: 'stop' }, { name: 'continue' }]],
    ['keep going', [{ name: 'continue' }]],
    ['start over', [{ name: 'start-over' }]],
    ['uh, from the beginning', [{ name: 'start-over' }]],
  ])('%j → %j', (text, expected) => {
    expect(read(text)).toEqual(expected);
  });

  it.each([
    'next table wants the fish',
    'stop the fryer',
    'reset the fryer',
    'continue the sauce on low',
    'give me twenty questions',
    'what did the chef say about table four',
  ])("%j is a kitchen's words, not an imperative", (text) => {
    expect(read(text)).toBeNull();
  });
});

describe("the README's examples, through hark simulate", () => {
  const LIST = ['computer add eggs to the shopping list', 'computer add milk to the shopping list', 'computer add oats to the shopping list'];

  it('"can you repeat that", "say that again", "repeat number 3"', async () => {
    const r = await simulate(
      script(
        ...LIST,
        { text: "computer what's on the shopping list", atMs: 20_000 },
        'can you repeat that',
        { text: 'say that again', atMs: 24_000 },
        { text: 'repeat number 3', atMs: 28_000 },
      ),
      { drainMs: 0 },
    );
    const answer = 'The shopping list: eggs, milk and oats.';
    expect(r.spoken().slice(3)).toEqual([answer, answer, answer, 'oats']);
    expect(r.actions().filter((a) => a.name === 'repeat')).toEqual([
      { name: 'repeat', args: {} },
      { name: 'repeat', args: {} },
      { name: 'repeat', args: { reference: 'number 3' } },
    ]);
    expect(r.of('submit')).toEqual([]);
  });

  it('"computer please stop" stops hark and is not submitted as a query', async () => {
    const r = await simulate(script("computer what's on the shopping list", 'computer please stop'), { drainMs: 10_000 });
    expect(r.actions().map((a) => a.name)).toEqual(['list.read', 'stop']);
    expect(r.of('stop-speaking')).toHaveLength(1);
    expect(r.of('submit')).toEqual([]);
  });

  it('"stop. actually continue": stop acts, continue supersedes it and resumes the answer that was stopped', async () => {
    const r = await simulate(
      script(...LIST, { text: "computer what's on the shopping list", atMs: 20_000 }, { text: 'stop. actually continue', atMs: 20_500 }),
      { drainMs: 0 },
    );
    expect(r.actions().slice(-2)).toEqual([
      { name: 'stop', args: {} },
      { name: 'continue', args: {} },
    ]);
    expect(r.of('action.superseded')).toEqual([expect.objectContaining({ name: 'stop', by: 'continue' })]);
    expect(r.spoken().at(-1)).toBe('The shopping list: eggs, milk and oats.');
  });

  it('"start over" restarts the last read-back; continue with nothing stopped says so', async () => {
    const r = await simulate(
      script(
        'computer add eggs to the shopping list',
        { text: "computer what's on the shopping list", atMs: 10_000 },
        { text: 'computer set a timer for 5 minutes', atMs: 20_000 },
        { text: 'start over', atMs: 30_000 },
        { text: 'continue', atMs: 40_000 },
      ),
      { drainMs: 0 },
    );
    expect(r.spoken().slice(-2)).toEqual(['The shopping list: eggs.', 'Nothing to continue.']);
  });

  it('in always-listen mode, "next table wants the fish" is a query, not "continue"', async () => {
    const r = await simulate(script('next table wants the fish'), { yaml: 'router:\n  mode: always-listen\n', drainMs: 10_000 });
    expect(r.actions()).toEqual([]);
    expect(r.submissions()).toEqual([expect.objectContaining({ text: 'next table wants the fish' })]);
  });
});

describe('"repeat number 3. no, number 5" with the default frames', () => {
  const READ = [
    'computer add eggs to the shopping list',
    'computer add milk to the shopping list',
    'computer add oats to the shopping list',
    'computer add rice to the shopping list',
    'computer add flour to the shopping list',
  ];
  it.each([
    ['in one breath', ['repeat number 3. no, number 5']],
    ['across a pause', ['repeat number three', 'no, number five']],
  ])('%s: 3 is stopped, 5 is said', (_how, lines) => {
    const h = harness();
    h.sayAll(...READ);
    h.say("computer what's on the shopping list", 20_000);
    h.clear();
    h.say(lines[0]!, 25_000);
    if (lines[1]) h.say(lines[1], 25_800);
    expect(h.spoken()).toEqual(['oats', 'flour']);
    expect(h.of('action.superseded')).toEqual([expect.objectContaining({ name: 'repeat', args: { reference: 'number 3' }, by: 'repeat' })]);
    expect(h.of('stop-speaking')).toHaveLength(1);
  });
});

describe('continue and start over in the command core', () => {
  it('"continue" after a plain "stop" resumes the stopped answer', () => {
    const h = harness();
    h.sayAll('computer add eggs to the shopping list', "computer what's on the shopping list", 'stop');
    h.say('continue', h.clock.now() + 3000);
    expect(h.spoken().at(-1)).toBe('The shopping list: eggs.');
    expect(h.of('speak').at(-1)).toEqual(expect.objectContaining({ answer: true }));
  });
});
