import { describe, expect, it } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { parseConfigText } from '../../src/config/load.js';
import { DEFAULT_IGNORE_LIST, IgnoreMatcher } from '../../src/turn/ignore-list.js';
import { InterruptionFilter, validateInterruptionSettings } from '../../src/turn/interruption.js';
import { createBargeIn } from '../../src/turn/wiring.js';

const SETTINGS = { enabled: true, ignoreList: DEFAULT_IGNORE_LIST, caseSensitive: false, bufferMs: 500 };
const make = (over: Partial<typeof SETTINGS> = {}) =>
  new InterruptionFilter({ settings: { ...SETTINGS, ...over }, clock: new VirtualClock(), isSpeaking: () => true });

describe('interruption filter decisions while hark speaks', () => {
  it.each([
    ['yeah', 'filter'],
    ['Yeah.', 'filter'],
    ['uh-huh', 'filter'],
    ['Uh huh,', 'filter'],
    ['mm hmm', 'filter'],
    ['yeah yeah ok', 'filter'],
    ['go on', 'filter'],
    ['I see.', 'filter'],
    ['got it, thanks', 'allow'],
    ['yeah wait', 'allow'],
    ['stop', 'allow'],
    ['wait', 'allow'],
    ['go', 'allow'],
    ['on', 'allow'],
    ['right go on', 'filter'],
    ['no', 'allow'],
    ['', 'filter'],
    ['  ...  ', 'filter'],
  ])('"%s" → %s', (text, action) => {
    expect(make().decide(text, true).action).toBe(action);
  });

  it('says why, naming the words that interrupted', () => {
    expect(make().decide('yeah wait', true).reason).toBe('mixed input: "wait" is not a backchannel');
    expect(make().decide('stop now', true).reason).toBe('command words: "stop now"');
    expect(make().decide('uh huh', true).reason).toBe('backchannel only ("uh huh")');
  });

  it('the seed default list is there exactly, multi-word entries included', () => {
    expect(DEFAULT_IGNORE_LIST).toEqual([
      'yeah',
      'yep',
      'yes',
      'yup',
      'ok',
      'okay',
      'hmm',
      'mhm',
      'mm',
      'mmm',
      'uh-huh',
      'uh huh',
      'ah',
      'aha',
      'oh',
      'ooh',
      'um',
      'uh',
      'er',
      'erm',
      'right',
      'sure',
      'alright',
      'got it',
      'go on',
      'continue',
      'i see',
    ]);
    const m = new IgnoreMatcher(DEFAULT_IGNORE_LIST);
    for (const e of ['uh huh', 'got it', 'go on', 'i see', 'erm', 'alright']) expect(m.has(e)).toBe(true);
  });

  it('a custom ignore list replaces the default; case-sensitive when asked', () => {
    const f = make({ ignoreList: ['Oui', 'da'], caseSensitive: true });
    expect(f.decide('Oui', true).action).toBe('filter');
    expect(f.decide('oui', true).action).toBe('allow');
    expect(f.decide('yeah', true).action).toBe('allow');
  });

  it('disabled, everything interrupts', () => {
    const d = make({ enabled: false, ignoreList: [] }).decide('yeah', true);
    expect(d).toMatchObject({ action: 'allow', reason: 'interruption filter disabled: any speech interrupts' });
  });

  it('a phrase still forming waits: "go" then "go on" is filtered', () => {
    const f = make();
    expect(f.transcript({ id: 'a', text: 'go', final: false }, true).action).toBe('pending');
    expect(f.transcript({ id: 'a', text: 'go on', final: true }, true).action).toBe('filter');
  });

  it('a decided utterance keeps its decision: a command word in a partial, then the final, reports once', () => {
    const bus = new Bus();
    const seen: string[] = [];
    bus.on('interruption.allowed', (e) => seen.push(`allowed:${e.text}`));
    bus.on('interruption.filtered', (e) => seen.push(`filtered:${e.text}`));
    let stops = 0;
    const f = createBargeIn({ settings: SETTINGS, clock: new VirtualClock(), bus, targets: { isSpeaking: () => true, stopSpeaking: () => stops++ } });
    f.transcript({ id: 'u', text: 'wait', final: false }, true);
    expect(f.transcript({ id: 'u', text: 'wait a second', final: true }, true).action).toBe('allow');
    expect(seen).toEqual(['allowed:wait']);
    expect(stops).toBe(1);
  });

  it('a pending decision times out to allow, through the bus, and stops hark', () => {
    const clock = new VirtualClock();
    const bus = new Bus();
    const events: unknown[] = [];
    bus.onAny((type, p) => events.push({ type, ...(p as object) }));
    const stopped: string[] = [];
    const cascade: string[] = [];
    const f = createBargeIn({
      settings: SETTINGS,
      clock,
      bus,
      targets: { isSpeaking: () => true, stopSpeaking: (r) => stopped.push(r), interruptCascade: (r) => cascade.push(r) },
    });
    f.transcript({ id: 'u', text: 'yeah', final: false }, true);
    clock.advanceBy(499);
    expect(stopped).toEqual([]);
    clock.advanceBy(1);
    expect(stopped).toEqual(['barge-in']);
    expect(cascade).toEqual(['barge-in']);
    expect(events).toEqual([
      { type: 'interruption.pending', text: 'yeah', reason: 'only backchannel so far ("yeah"): waiting for the final transcript', utteranceId: 'u' },
      {
        type: 'interruption.allowed',
        text: 'yeah',
        reason: 'no final transcript within 500 ms: the person gets the floor',
        utteranceId: 'u',
        final: false,
        confidence: 0,
      },
    ]);
  });

  it('if hark finished speaking while a partial waited, it is ordinary input and nothing is stopped', () => {
    const clock = new VirtualClock();
    let speaking = true;
    let stops = 0;
    const f = createBargeIn({ settings: SETTINGS, clock, bus: new Bus(), targets: { isSpeaking: () => speaking, stopSpeaking: () => stops++ } });
    f.transcript({ id: 'u', text: 'yes', final: false }, true);
    speaking = false;
    expect(f.transcript({ id: 'u', text: 'yes', final: true }, false)).toMatchObject({ action: 'allow', reason: 'hark is not speaking: ordinary input' });
    clock.advanceBy(1000);
    expect(stops).toBe(0);
  });

  it('bufferMs 0 gives the floor on the next tick; forget() drops a wait', () => {
    const clock = new VirtualClock();
    const decided: string[] = [];
    const f = new InterruptionFilter({ settings: { ...SETTINGS, bufferMs: 0 }, clock, isSpeaking: () => true, onDecision: (d) => decided.push(d.action) });
    f.transcript({ id: 'a', text: 'mm', final: false }, true);
    clock.advanceBy(0);
    expect(decided).toEqual(['pending', 'allow']);
    const g = new InterruptionFilter({ settings: SETTINGS, clock, isSpeaking: () => true, onDecision: (d) => decided.push(d.action) });
    g.transcript({ id: 'b', text: 'mm', final: false }, true);
    g.forget('b');
    clock.advanceBy(1000);
    expect(decided).toEqual(['pending', 'allow', 'pending']);
    expect(g.pendingCount).toBe(0);
  });

  it('a failing isSpeaking at timeout counts as speaking: the person gets the floor', () => {
    const clock = new VirtualClock();
    const decided: string[] = [];
    const f = new InterruptionFilter({
      settings: SETTINGS,
      clock,
      isSpeaking: () => {
        throw new Error('state unknown');
      },
      onDecision: (d) => decided.push(d.action),
    });
    f.transcript({ id: 'a', text: 'ok', final: false }, true);
    clock.advanceBy(500);
    expect(decided).toEqual(['pending', 'allow']);
  });
});

describe('interruption config validation', () => {
  const problems = (yaml: string) => {
    try {
      parseConfigText(yaml, 'hark.yaml');
    } catch (err) {
      return (err as Error).message
        .split('\n')
        .slice(1)
        .map((l) => l.trim());
    }
    return [];
  };

  it('defaults to the seed list, enabled, 500 ms', () => {
    const c = parseConfigText('', 'hark.yaml');
    expect(c.interruption).toEqual({ enabled: true, ignoreList: [...DEFAULT_IGNORE_LIST], caseSensitive: false, bufferMs: 500 });
  });

  it('rejects an empty ignore list while enabled, a buffer outside 0-2 s, and blank entries', () => {
    expect(problems('interruption:\n  ignoreList: []\n')).toEqual([
      'interruption.ignoreList: must not be empty while interruption.enabled is true (set enabled: false to let every word interrupt)',
    ]);
    expect(problems('interruption:\n  enabled: false\n  ignoreList: []\n')).toEqual([]);
    expect(problems('interruption:\n  bufferMs: 2500\n')).toEqual(['interruption.bufferMs: must be a whole number between 0 and 2000']);
    expect(problems('interruption:\n  ignoreList: ["yeah", "  "]\n')).toEqual(['interruption.ignoreList.1: must not be empty']);
  });

  it('settings built in code are checked too', () => {
    expect(() => validateInterruptionSettings({ ...SETTINGS, bufferMs: -1 })).toThrow(/bufferMs must be between 0 and 2000/);
    expect(() => validateInterruptionSettings({ ...SETTINGS, ignoreList: [' '] })).toThrow(/must not be empty/);
  });
});
