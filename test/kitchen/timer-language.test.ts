import { describe, expect, it } from 'vitest';
import { parseTimerCommand, type TimerCommand } from '../../src/language/timer-language.js';
import { said } from '../../src/language/text.js';

const parse = (text: string, area?: string): TimerCommand | null => parseTimerCommand(said(text).words, area ? { area } : {});

/** Phrasings beyond the Home Assistant set: the language should generalise, not list sentences. */
describe('the timer language: starting a timer', () => {
  const table: [string, number, string?][] = [
    ['set a timer for ten minutes', 600],
    ['ten minute timer', 600],
    ['a 10 min timer please', 600],
    ['put a timer on for ten minutes', 600],
    ['can you set me a timer for twenty-five minutes', 1500],
    ['timer for an hour and a half', 5400],
    ['set a timer for 5 and a half minutes', 330],
    ['set a timer for 1/2 a minute', 30],
    ['set a timer for three quarters of an hour', 2700],
    ['set a timer for one hour, 15 minutes, and 30 seconds', 4530],
    ['start a 2 hour 5 minute timer', 7500],
    ['set a timer for 1:30', 90],
    ['set a timer for 90 seconds', 90],
    ['give me a 3 minute timer', 180],
    ['add a timer for 4 minutes', 240],
    ['pizza timer for 12 minutes', 720, 'pizza'],
    ['set a timer named boiled eggs for 7 minutes', 420, 'boiled eggs'],
    ['set a timer for 7 minutes called boiled eggs', 420, 'boiled eggs'],
    ['start a timer for the roast for 2 hours', 7200, 'roast'],
    ['set a 12 minute rice timer', 720, 'rice'],
    ['set a timer for ten minutes, no, five minutes', 300],
    ['set a timer for ten minutes sorry I mean fifteen minutes', 900],
    ['set the kitchen timer for 5 minutes', 300],
    ['countdown 5 minutes', 300],
    ['remind me in 10 minutes', 600],
    ['remind me to check the oven in 10 minutes', 600, 'check the oven'],
  ];
  it.each(table)('"%s" → %i s %s', (text, seconds, name) => {
    expect(parse(text, 'kitchen')).toEqual(name ? { op: 'start', seconds, name } : { op: 'start', seconds });
  });

  it('"remind me to ... in ..." is a timer named for it', () => {
    expect(parse('in an hour and a half remind me to water the plants')).toEqual({ op: 'start', seconds: 5400, name: 'water the plants' });
  });

  it.each([
    [
      'set a 10 minute pasta timer and a 5 minute sauce timer',
      [
        { seconds: 600, name: 'pasta' },
        { seconds: 300, name: 'sauce' },
      ],
    ],
    ['set a timer for 10 minutes and another for 5 minutes', [{ seconds: 600 }, { seconds: 300 }]],
  ] as const)('several at once: "%s"', (text, timers) => {
    expect(parse(text)).toEqual({ op: 'start-many', timers });
  });

  it('one timer of "1 hour and 15 minutes" stays one', () => {
    expect(parse('set a timer for 1 hour and 15 minutes and call it roast')).toEqual({ op: 'start', seconds: 4500, name: 'roast' });
  });

  it('asks for a duration it did not hear', () => {
    expect(parse('set a timer')).toEqual({ op: 'start', seconds: null });
  });
});

describe('the timer language: acting on a timer', () => {
  const table: [string, TimerCommand][] = [
    ['cancel the pasta timer', { op: 'cancel', pick: { name: 'pasta' }, all: false }],
    ['get rid of the 5 minute timer', { op: 'cancel', pick: { startSeconds: 300 }, all: false }],
    ['kill all my timers', { op: 'cancel', pick: {}, all: true }],
    ['cancel the timers', { op: 'cancel', pick: {}, all: true }],
    ['how much time is left', { op: 'status', pick: {}, all: false }],
    ['how long until the bread timer goes off', { op: 'status', pick: { name: 'bread' }, all: false }],
    ['what timers are running', { op: 'status', pick: {}, all: false }],
    ['hold the rice timer', { op: 'pause', pick: { name: 'rice' }, all: false }],
    ['pause all timers', { op: 'pause', pick: {}, all: true }],
    ['unpause the timer', { op: 'resume', pick: {}, all: false }],
    ['add two minutes to the pizza timer', { op: 'add', seconds: 120, pick: { name: 'pizza' } }],
    ['give the pizza timer 2 more minutes', { op: 'add', seconds: 120, pick: { name: 'pizza' } }],
    ['take 30 seconds off the timer', { op: 'remove', seconds: 30, pick: {} }],
    ['knock a minute off the 10 minute timer', { op: 'remove', seconds: 60, pick: { startSeconds: 600 } }],
    ['cancel the last timer', { op: 'cancel', pick: { latest: true }, all: false }],
    ['cancel the kitchen timer', { op: 'cancel', pick: { area: { room: 'kitchen', here: true } }, all: false }],
    ['stop the timer in the garage', { op: 'cancel', pick: { area: { room: 'garage', here: false } }, all: false }],
    ['turn the timer off', { op: 'cancel', pick: {}, all: false }],
    ['take off 2 minutes from the timer', { op: 'remove', seconds: 120, pick: {} }],
    ['when will the pizza timer go off', { op: 'status', pick: { name: 'pizza' }, all: false }],
    ['is my timer still running', { op: 'status', pick: {}, all: false }],
    ['start the pizza timer again', { op: 'resume', pick: { name: 'pizza' }, all: false }],
  ];
  it.each(table)('"%s"', (text, command) => {
    expect(parse(text, 'kitchen')).toEqual(command);
  });

  it("a room word that is not a place is a name on another room's device", () => {
    expect(parse('cancel the garage timer', 'kitchen')).toEqual({ op: 'cancel', pick: { name: 'garage' }, all: false });
  });
});

describe('the timer language: a command for later', () => {
  it.each([
    ['in 5 minutes, turn off the oven', 300, 'turn off the oven'],
    ['turn off the oven in 5 minutes', 300, 'turn off the oven'],
  ] as const)('"%s"', (text, seconds, command) => {
    expect(parse(text)).toEqual({ op: 'delay', seconds, command });
  });
});

describe('the timer language leaves other things alone', () => {
  it.each(['add milk to the shopping list', 'stop', 'what time is it', 'the meeting is in the kitchen', 'read back'])('"%s"', (text) => {
    expect(parse(text)).toBeNull();
  });
});
