import { describe, expect, it } from 'vitest';
import { HarkError } from '../../src/core/errors.js';
import { formatAction, formatSummary, judge, summarise, whyNoAction } from '../../src/replay/compare.js';
import { emptyNewOutcome, type ActionOutcome, type Heard, type NewOutcome, type SegmentReplay } from '../../src/replay/outcome.js';
import { parseSince } from '../../src/replay/since.js';

const heard = (text: string | null): Heard =>
  text === null ? { texts: [], dropped: 'blank audio', engine: 'whisper' } : { texts: [text], dropped: null, engine: 'whisper' };

function replay(old: { text: string | null; actions?: ActionOutcome[] }, neu: Partial<NewOutcome> & { text: string | null }): SegmentReplay {
  const { text, ...rest } = neu;
  return {
    id: 7,
    startedAt: 0,
    input: 'audio',
    note: null,
    skipped: null,
    old: { heard: heard(old.text), actions: old.actions ?? [] },
    new: { ...emptyNewOutcome(heard(text)), ...rest },
  };
}

const timer = (seconds: number, outcome = 'ok'): ActionOutcome => ({ name: 'timer.set', args: { seconds }, outcome });

describe('judging a replayed segment', () => {
  it.each([
    ['the same words and actions', replay({ text: 'Set a timer.', actions: [timer(60)] }, { text: 'Set a timer.', actions: [timer(60)] }), []],
    ['case and punctuation only (the router cannot tell them apart)', replay({ text: 'Set a timer.' }, { text: 'set a timer' }), []],
    ['other words', replay({ text: 'Set a timer for ten minutes.' }, { text: 'Set a timer for two minutes.' }), ['text']],
    ['words heard where nothing was', replay({ text: null }, { text: 'hello' }), ['text']],
    ['other args', replay({ text: 'x', actions: [timer(600)] }, { text: 'x', actions: [timer(300)] }), ['actions']],
    [
      'the same args in another key order',
      replay(
        { text: 'x', actions: [{ name: 'a', args: { p: 1, q: 2 }, outcome: 'ok' }] },
        { text: 'x', actions: [{ name: 'a', args: { q: 2, p: 1 }, outcome: 'ok' }] },
      ),
      [],
    ],
    ['fired then, dropped by a cooldown now', replay({ text: 'x', actions: [timer(60)] }, { text: 'x', actions: [timer(60, 'cooldown')] }), ['actions']],
    [
      'a failed action: only the outcome counts, not the error text',
      replay(
        { text: 'x', actions: [{ name: 'a', args: null, outcome: 'error', error: 'one' }] },
        { text: 'x', actions: [{ name: 'a', args: null, outcome: 'error', error: 'two' }] },
      ),
      [],
    ],
    ['the VAD splits it', replay({ text: 'x' }, { text: 'x', vad: { result: 'split', pieces: 2 } }), ['vad']],
    ['the VAD keeps it', replay({ text: 'x' }, { text: 'x', vad: { result: 'kept', pieces: 1 } }), []],
  ] as const)('%s', (_name, r, differences) => {
    const v = judge(r);
    expect(v.differences).toEqual(differences);
    expect(v.status).toBe(differences.length ? 'differs' : 'same');
  });

  it('a skipped segment is neither same nor different', () => {
    const r: SegmentReplay = { ...replay({ text: null }, { text: null }), new: null, skipped: 'push-to-talk cancelled' };
    expect(judge(r)).toEqual(expect.objectContaining({ status: 'skipped', differences: [] }));
  });
});

describe('saying it', () => {
  it.each([
    [timer(600), 'timer.set{seconds=600}'],
    [{ name: 'stop', args: {}, outcome: 'ok' }, 'stop'],
    [{ name: 'repeat', args: {}, outcome: 'cooldown' }, 'repeat[cooldown]'],
    [{ name: 'timer.set', args: null, outcome: 'error', error: 'bad seconds' }, 'timer.set[error: bad seconds]'],
    [{ name: 'timer.done', args: { seconds: 60, label: 'pasta' }, outcome: 'ok', later: true }, 'timer.done{seconds=60,label=pasta} (later)'],
  ] as [ActionOutcome, string][])('%j → %s', (a, text) => {
    expect(formatAction(a)).toBe(text);
  });

  it('explains a missing action by what the new run did instead, most telling first', () => {
    const base = emptyNewOutcome(heard('soup'));
    expect(whyNoAction({ ...base, vad: { result: 'dropped', pieces: 0 } })).toBe('the VAD drops the segment');
    expect(whyNoAction(emptyNewOutcome(heard(null)))).toBe('nothing heard: blank audio');
    expect(
      whyNoAction({ ...base, submissions: [{ frame: 'query', target: 'file', text: 'soup' }], ignored: [{ frame: 'base', text: 'x', reason: 'r' }] }),
    ).toBe('submitted to file: "soup"');
    expect(whyNoAction({ ...base, ignored: [{ frame: 'base', text: 'soup', reason: 'wake-word mode and no wake phrase' }] })).toBe(
      'ignored: wake-word mode and no wake phrase',
    );
    expect(whyNoAction({ ...base, stacks: [['base', 'query']] })).toBe('base > query frame open');
    expect(whyNoAction(base)).toBeNull();
  });

  it('sums up, naming skip reasons and kinds of difference', () => {
    const vs = [
      judge(replay({ text: 'a' }, { text: 'b' })),
      judge(replay({ text: 'a', actions: [timer(1)] }, { text: 'b' })),
      judge(replay({ text: 'a' }, { text: 'a' })),
      judge({ ...replay({ text: null }, { text: null }), new: null, skipped: 'nothing was heard' }),
    ];
    const s = summarise(vs);
    expect(s).toEqual({
      replayed: 3,
      differ: 2,
      same: 1,
      skipped: 1,
      skippedBy: { 'nothing was heard': 1 },
      fromText: 0,
      differences: { vad: 0, text: 2, actions: 1 },
    });
    expect(formatSummary(s, 'full')).toBe('3 segments replayed: 2 differ [text 2, actions 1], 1 same; 1 skipped (1 nothing was heard)');
    expect(formatSummary(summarise([vs[2]!]), 'text-only')).toBe('1 segment replayed (text only): 0 differ, 1 same');
  });
});

describe('--since', () => {
  const now = Date.UTC(2026, 2, 14, 12, 0, 0);
  it.each([
    ['30m', now - 30 * 60_000],
    ['1h', now - 3_600_000],
    ['1h30m', now - 5_400_000],
    ['2d', now - 2 * 86_400_000],
    ['1w', now - 7 * 86_400_000],
    ['90s', now - 90_000],
    ['2026-03-14T09:30:00Z', Date.UTC(2026, 2, 14, 9, 30)],
    ['2026-03-14T09:30:00.250Z', Date.UTC(2026, 2, 14, 9, 30, 0, 250)],
    ['2026-03-14T09:30+01:00', Date.UTC(2026, 2, 14, 8, 30)],
    // A bare date is local midnight, like a date-time without a zone.
    ['2026-03-14', new Date(2026, 2, 14).getTime()],
  ])('%s', (text, ms) => {
    expect(parseSince(text, now)).toBe(ms);
  });

  it.each(['yesterday', '10', '-1h', '1 h', '2026-13-45', 'March 7'])('refuses %j with exit code 2', (text) => {
    expect(() => parseSince(text, now)).toThrow(HarkError);
    try {
      parseSince(text, now);
    } catch (err) {
      expect((err as HarkError).exitCode).toBe(2);
      expect((err as Error).message).toContain(JSON.stringify(text));
    }
  });
});
