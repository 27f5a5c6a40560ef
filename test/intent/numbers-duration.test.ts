import { describe, expect, it } from 'vitest';
import { parseNumber, readNumber } from '../../src/language/numbers.js';
import { parseDuration, readDuration, sayDuration } from '../../src/language/duration.js';
import { parseTimerRequest } from '../../src/language/timer-request.js';
import { normalise } from '../../src/language/text.js';

const words = (s: string) => normalise(s).split(' ').filter(Boolean);

describe('numbers', () => {
  it.each([
    ['0', 0],
    ['7', 7],
    ['1.5', 1.5],
    ['zero', 0],
    ['seven', 7],
    ['thirteen', 13],
    ['twenty', 20],
    ['twenty five', 25],
    ['twenty-five', 25],
    ['ninety nine', 99],
    ['one hundred', 100],
    ['a hundred', null],
    ['one hundred and twenty', 120],
    ['two thousand three hundred', 2300],
    ['three thousand six hundred', 3600],
    ['five five', null],
    ['ten five', null],
    ['pasta', null],
  ] as const)('"%s" → %s', (text, value) => {
    expect(parseNumber(words(text))).toBe(value);
  });

  it('stops at the first word that is not part of the number', () => {
    expect(readNumber(words('twenty five minutes'), 0)).toEqual({ value: 25, next: 2 });
    expect(readNumber(words('one minute and thirty seconds'), 0)).toEqual({ value: 1, next: 1 });
  });
});

describe('durations', () => {
  it.each([
    ['ten minutes', 600],
    ['10 minutes', 600],
    ['2 minutes', 120],
    ['1 minute', 60],
    ['ninety seconds', 90],
    ['90 secs', 90],
    ['an hour', 3600],
    ['a minute', 60],
    ['half an hour', 1800],
    ['half a minute', 30],
    ['an hour and a half', 5400],
    ['a minute and a half', 90],
    ['one and a half hours', 5400],
    ['two and a half minutes', 150],
    ['one minute and a half', 90],
    ['1.5 hours', 5400],
    ['one minute and thirty seconds', 90],
    ['1 hour 30 minutes', 5400],
    ['two hours and fifteen minutes', 8100],
    ['an hour and twenty minutes', 4800],
    ['a quarter of an hour', 900],
    ['quarter of an hour', 900],
    ['three quarters of an hour', 2700],
    ['a couple of minutes', 120],
    ['1:30', 90],
    ['1:00:00', 3600],
    ['twenty-five mins', 1500],
    ['5 hrs', 18_000],
    ['one hundred and twenty seconds', 120],
    ['ten', null],
    ['minutes', null],
    ['half', null],
    ['a while', null],
  ] as const)('"%s" → %s s', (text, seconds) => {
    expect(parseDuration(words(text))).toBe(seconds);
  });

  it('says where the duration ended, so a label can follow', () => {
    expect(readDuration(words('ten minutes for the rice'), 0)).toEqual({ seconds: 600, next: 2 });
  });

  it.each([
    [600, '10 minutes'],
    [90, '1 minute and 30 seconds'],
    [3600, '1 hour'],
    [3661, '1 hour, 1 minute and 1 second'],
    [0, '0 seconds'],
    [5400, '1 hour and 30 minutes'],
  ] as const)('says %i s as "%s"', (s, text) => {
    expect(sayDuration(s)).toBe(text);
  });
});

describe('timer requests', () => {
  it.each([
    ['a timer for ten minutes', { seconds: 600 }],
    ['a pasta timer for 8 minutes', { seconds: 480, label: 'pasta' }],
    ['a ten minute timer', { seconds: 600 }],
    ['a ten minute pasta timer', { seconds: 600, label: 'pasta' }],
    ['a timer for 12 minutes for the rice', { seconds: 720, label: 'rice' }],
    ['the timer for 5 minutes called soft eggs', { seconds: 300, label: 'soft eggs' }],
    ['a timer for ten minutes please', { seconds: 600 }],
    ['timer 3 minutes', { seconds: 180 }],
    ['ten minutes', { seconds: 600 }],
    ['a timer', null],
    ['a timer for the rice', null],
  ] as const)('"%s"', (text, expected) => {
    expect(parseTimerRequest(words(text))).toEqual(expected);
  });
});
