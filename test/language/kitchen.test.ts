import { describe, expect, it } from 'vitest';
import { KitchenLanguage } from '../../src/language/kitchen.js';
import { NOTHING_OWNED, type Situation } from '../../src/language/situation.js';
import { said } from '../../src/language/text.js';
import { ownedThing, readImperatives, readRequest } from '../../src/language/understand.js';
import { opensImperative } from '../../src/path/opening.js';

/**
 * The kitchen language reads words against what hark owns: the same words are a request while a
 * timer of that name runs, and a cook's words otherwise.
 */
const lang = new KitchenLanguage();
const running: Situation = {
  timers: [
    { label: 'brisket', seconds: 1200, state: 'running' },
    { label: 'rice', seconds: 600, state: 'running' },
  ],
  lists: [
    { name: 'shopping', items: ['eggs', 'lemons'] },
    { name: 'stores', items: ['flour'] },
  ],
  ringing: false,
  area: 'kitchen',
};
/** The reading, without the language that won (English here: the tests below are about what it asks). */
const read = (text: string, s: Situation = running) => {
  const r = readRequest(lang, said(text), s);
  if (!r) return r;
  expect(r.lang).toBe('en');
  const { lang: _l, ...rest } = r;
  return rest;
};

describe('names hark owns', () => {
  it('"give the brisket five more minutes" adds to the brisket timer while one runs; with none, it is no request', () => {
    expect(read('give the brisket five more minutes')).toEqual({
      kind: 'timer',
      command: { op: 'add', seconds: 300, pick: { name: 'brisket' } },
      question: false,
    });
    expect(read('give the brisket five more minutes', NOTHING_OWNED)).toBeNull();
  });

  it('"two minutes on the lamb" called across the kitchen is no request, with or without timers', () => {
    expect(read('two minutes on the lamb')).toBeNull();
    expect(read('how long on table six')).toBeNull();
  });

  it("a verb is never read as a timer's name", () => {
    for (const text of ['scrap the rice timer', 'bin the rice timer', 'knock the rice timer off', 'knock off the rice timer']) {
      expect(read(text), text).toEqual({ kind: 'timer', command: { op: 'cancel', pick: { name: 'rice' }, all: false }, question: false });
    }
    // An unknown verb leaves the words unread rather than making a timer called "frobnicate rice".
    expect(read('frobnicate the rice timer')).toBeNull();
  });

  it('"take the lemons off" finds the lemons on the list they are on', () => {
    expect(read('take the lemons off')).toEqual({ kind: 'list', command: { op: 'remove', list: 'shopping', items: [{ item: 'lemons' }] }, question: false });
    expect(read('take the flour off')).toEqual({ kind: 'list', command: { op: 'remove', list: 'stores', items: [{ item: 'flour' }] }, question: false });
    expect(read('take the eggs off the heat')).toBeNull();
  });

  it('questions are marked so: the follow-up window does not take them from talk', () => {
    expect(read('what timers do we have')).toMatchObject({ kind: 'timer', command: { op: 'status' }, question: true });
    expect(read("what's on the stores list")).toMatchObject({ kind: 'list', command: { op: 'read', list: 'stores' }, question: true });
    expect(read('cancel the rice timer')).toMatchObject({ question: false });
  });
});

describe('imperatives are the whole of what is said', () => {
  const imp = (text: string) => readImperatives(lang, said(text), running);
  it.each([
    ['alright, carry on', [{ name: 'continue' }]],
    ['ok continue', [{ name: 'continue' }]],
    ['go on then', [{ name: 'continue' }]],
    ['wait', [{ name: 'stop' }]],
    ['stop, stop', [{ name: 'stop' }]],
    ['repeat the last one', [{ name: 'repeat', reference: 'last' }]],
    ['stop. actually continue', [{ name: 'stop' }, { name: 'continue' }]],
  ])('%j → %j', (text, expected) => {
    expect(imp(text)).toEqual(expected);
  });

  it.each([
    'repeat order for table two',
    'continue with the prep',
    'stop the fryer',
    'next table wants the fish',
    'start again from the top, chef wants it plated differently',
  ])("%j is a kitchen's words", (text) => {
    expect(imp(text)).toBeNull();
  });
});

describe('follow-ups only with something to follow', () => {
  it('"and two pints of milk" is more of the list request just made; on its own it is nothing', () => {
    const after = { ...running, last: { kind: 'list' as const, op: 'add' as const, list: 'shopping' } };
    expect(readRequest(lang, said('and two pints of milk'), after, ['follow'])).toEqual({
      kind: 'follow-up',
      follow: { kind: 'more', items: [{ item: 'milk', quantity: 2, unit: 'pints' }] },
      lang: 'en',
    });
    expect(readRequest(lang, said('and two pints of milk'), running, ['follow'])).toBeNull();
  });
});

describe('what a request that cannot be read names', () => {
  it.each([
    ['the chips timer sideways', 'the chips timer'],
    ['the brisket is on fire', 'the brisket timer'],
    ['the stores list is upside down', 'the stores list'],
    ['the veg list is a mess', 'the veg list'],
    ['did the timer go off', 'the timer'],
    ['tell me a joke', null],
  ])('%j → %j', (text, thing) => {
    expect(ownedThing(said(text), running)).toBe(thing);
  });

  it('the alarm, while one rings', () => {
    expect(ownedThing(said('what is that alarm'), { ...running, ringing: true })).toBe('the alarm');
    expect(ownedThing(said('what is that alarm'), running)).toBeNull();
  });
});

describe('the opening check asks the same language (a long segment, its first seconds only)', () => {
  it.each([
    ['stop', true],
    ['alright, carry', true],
    ['could you say that', true],
    ['ok continue', true],
    ['repeat number', true],
    ['and so the old', false],
    ['the old man walked', false],
    ['repeat order for', false],
    ['continue with the', false],
  ])('%j may begin an imperative: %s', (opening, yes) => {
    expect(opensImperative(opening, lang)).toBe(yes);
  });
});
