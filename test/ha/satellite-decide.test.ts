import { describe, expect, it } from 'vitest';
import { addressedBeforeRules, decide, type LocalTurn } from '../../src/ha/satellite/decide.js';
import type { Effect } from '../../src/core/effects.js';

const KINDS = { base: 'base', query: 'query', dictation: 'dictation', confirm: 'confirm' };
const m = (frame: string, kind: string): Effect => ({ type: 'matched', frame, rule: 0, kind, text: '' });
const ign = (frame: string): Effect => ({ type: 'ignored', frame, text: 'x', reason: 'r' });
const turn = (t: Partial<LocalTurn>): LocalTurn => ({ fate: 'dispatched', openedBy: 'vad', effects: [], actions: [], followUp: false, ...t });

describe('localFirst: which segments go to Home Assistant', () => {
  it.each<[string, Partial<LocalTurn>, 'local' | 'ha']>([
    ['"computer turn on the fan": wake phrase, then only the query catch-all', { effects: [m('base', 'prefix'), m('query', 'catch-all')] }, 'ha'],
    ['"computer set a timer": the kitchen rule took it', { effects: [m('base', 'prefix'), m('query', 'kitchen')], actions: ['timer.set'] }, 'local'],
    ["a kitchen match that fired nothing yet is still hark's", { effects: [m('base', 'prefix'), m('query', 'kitchen')] }, 'local'],
    ['"computer stop": the base frame via check-parent', { effects: [m('base', 'prefix'), m('base', 'exact')] }, 'local'],
    ['chatter in wake-word mode: not addressed', { effects: [ign('base')] }, 'local'],
    ['chatter, but HA asked a question back: the answer', { effects: [ign('base')], followUp: true }, 'ha'],
    ['the button, nothing of hark took it', { openedBy: 'ptt', effects: [ign('base')] }, 'ha'],
    ['dictation keeps its words', { effects: [m('dictation', 'catch-all')] }, 'local'],
    ['a dropped segment', { fate: 'dropped' }, 'local'],
    ["a backchannel filtered over hark's voice", { fate: 'filtered', effects: [] }, 'local'],
    ['always-listen: the base catch-all pushed the query, whose catch-all kept it', { effects: [m('base', 'catch-all'), m('query', 'catch-all')] }, 'ha'],
    ["a yes to hark's own question", { effects: [m('confirm', 'exact')] }, 'local'],
  ])('%s', (_what, t, to) => {
    expect(decide(turn(t), KINDS).to).toBe(to);
  });
});

describe('localFirst off: addressed before hark rules see it', () => {
  const wakePhrases = ['computer', 'hey computer'];
  it.each<[string, { norm: string; openedBy: 'vad' | 'ptt'; followUp: boolean }, boolean]>([
    ['the wake phrase', { norm: 'computer set a timer for five minutes', openedBy: 'vad', followUp: false }, true],
    ['only the wake phrase', { norm: 'hey computer', openedBy: 'vad', followUp: false }, true],
    ['a word that starts like it', { norm: 'computers are great', openedBy: 'vad', followUp: false }, false],
    ['kitchen chatter', { norm: 'pass the salt', openedBy: 'vad', followUp: false }, false],
    ['the button', { norm: 'pass the salt', openedBy: 'ptt', followUp: false }, true],
    ["the answer to Home Assistant's question", { norm: 'the living room', openedBy: 'vad', followUp: true }, true],
  ])('%s', (_what, o, to) => {
    expect(addressedBeforeRules({ ...o, wakePhrases }) !== null).toBe(to);
  });
});
