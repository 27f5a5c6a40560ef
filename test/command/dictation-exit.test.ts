import { describe, expect, it } from 'vitest';
import type { Classifier, ClassifierVerdict } from '../../src/command/classifier.js';
import { nearPhrase } from '../../src/language/near.js';
import { harness } from './harness.js';

/** Open dictation, dictate `lines`, then say `exit`. */
function dictate(lines: string[], exit: string) {
  const h = harness();
  h.sayAll('start dictation', ...lines, exit);
  return h;
}

describe('dictation: a tolerant exit phrase', () => {
  // Each of these, said as the whole utterance, ends dictation and submits what was dictated.
  it.each([
    'end dictation',
    'and dictation', // the common mishearing
    'end the dictation.',
    'End dictation.',
    'End dictation, please.',
    'uh end dictation',
    'okay end dictation',
    'Okay, end dictation now.',
    'stop dictation',
    'end dictating',
    'and the dictation',
    'end my dictation',
    'finish dictation',
    'exit dictation',
    'end dictation mode',
    'stop dictating',
  ])('"%s" ends it and submits the text', (exit) => {
    const h = dictate(['First line.', 'Second line.'], exit);
    expect(h.submits()).toEqual([{ frame: 'dictation', target: 'file', text: 'First line. Second line.' }]);
    expect(h.stack()).toEqual(['base']);
    expect(h.of('earcon').map((e) => e.name)).toContain('sent');
  });

  // Ordinary dictated text that merely mentions dictation stays text.
  it.each([
    'I wrote about dictation software yesterday and it was great',
    'and dictation software', // a fragment after a pause: two words away from the exit
    'Dictation.', // the exit's key word alone is not the exit
    'end', // nor its first word
    'The end.',
    'we will end dictation for today after this paragraph',
    'in dictation',
    'good dictation',
  ])('"%s" is kept as dictated text', (line) => {
    const h = harness();
    h.sayAll('start dictation', 'Alpha.', line);
    expect(h.stack()).toEqual(['base', 'dictation']);
    expect(h.submits()).toEqual([]);
    h.say('end dictation', h.clock.now() + 1000);
    expect(h.submits().map((s) => s.text)).toEqual([`Alpha. ${line}`]);
  });

  it('applies inside the dictation frame only: in the base frame "and dictation" is nothing special', () => {
    const h = harness();
    h.sayAll('and dictation', 'end the dictation.');
    expect(h.stack()).toEqual(['base']);
    expect(h.submits()).toEqual([]);
    expect(h.ignored().map((i) => i.frame)).toEqual(['base', 'base']);
  });

  it('does not leak into a query: "and dictation" there is query text', () => {
    const h = harness();
    h.sayAll('computer', 'and dictation', 'go');
    expect(h.submits()).toEqual([{ frame: 'query', target: 'file', text: 'and dictation' }]);
  });

  it('a bare "stop" or "computer" stays text (verbatim), and hark says how to leave', () => {
    const h = harness();
    h.sayAll('start dictation', 'Stop.', 'computer');
    expect(h.stack()).toEqual(['base', 'dictation']);
    expect(h.spoken().slice(1)).toEqual(['Still dictating. Say end dictation, or tap the button.', 'Still dictating. Say end dictation, or tap the button.']);
    h.say('and dictation', h.clock.now() + 1000);
    expect(h.submits().map((s) => s.text)).toEqual(['Stop. computer']);
    expect(h.actions()).toEqual([]);
  });

  it('reports the near rule that took it, with its kind, for technicians', () => {
    const h = dictate(['words'], 'and dictation');
    expect(h.of('matched').at(-1)).toEqual(expect.objectContaining({ frame: 'dictation', kind: 'near', text: 'and dictation' }));
  });
});

describe('near rule: configurable', () => {
  function withDictationRules(rules: unknown[]) {
    return harness({ config: { router: { frames: { dictation: { rules } } } } });
  }

  it("takes the installer's own exit phrases", () => {
    const h = withDictationRules([
      { near: ['that is all'], do: ['submit', 'pop'] },
      { 'catch-all': true, do: 'append' },
    ]);
    h.sayAll('start dictation', 'words', 'end dictation', 'That is all, then.');
    expect(h.submits().map((s) => s.text)).toEqual(['words end dictation']);
  });

  it('maxEdits: 0 asks for the phrase itself (skip words and punctuation aside)', () => {
    const h = withDictationRules([
      { near: ['end dictation'], maxEdits: 0, do: ['submit', 'pop'] },
      { 'catch-all': true, do: 'append' },
    ]);
    h.sayAll('start dictation', 'words', 'and dictation', 'um, end the dictation.');
    expect(h.submits().map((s) => s.text)).toEqual(['words and dictation']);
  });

  it('skip replaces the words that may come and go around the phrase', () => {
    const h = withDictationRules([
      { near: ['end dictation'], maxEdits: 0, skip: ['hark'], do: ['submit', 'pop'] },
      { 'catch-all': true, do: 'append' },
    ]);
    h.sayAll('start dictation', 'words', 'okay end dictation', 'hark end dictation');
    expect(h.submits().map((s) => s.text)).toEqual(['words okay end dictation']);
  });
});

describe('nearPhrase', () => {
  const phrases = ['end dictation', 'stop dictation'].map((p) => p.split(' '));
  const skip = new Set(['the', 'okay', 'um']);
  it.each([
    ['end dictation', 'end dictation', 0],
    ['and dictation', 'end dictation', 1],
    ['okay um end the dictation', 'end dictation', 0],
    ['stop dictating', 'stop dictation', 1],
    ['end dictation mode', 'end dictation', 1],
  ])('%s → %s (%i edits)', (text, phrase, edits) => {
    expect(nearPhrase(text.split(' '), phrases, { maxEdits: 1, skip })).toEqual({ phrase, edits });
  });
  it.each(['dictation', 'and dictation software', 'the the the', '', 'end diction please now'])('%s → no match', (text) => {
    expect(nearPhrase(text ? text.split(' ') : [], phrases, { maxEdits: 1, skip })).toBeNull();
  });
  it('prefers the closer phrase', () => {
    expect(
      nearPhrase(
        ['stop', 'dictation'],
        [
          ['end', 'dictation'],
          ['stop', 'dictation'],
        ],
        { maxEdits: 2, skip },
      ),
    ).toEqual({ phrase: 'stop dictation', edits: 0 });
  });
});

describe('button tap', () => {
  it('dictation keeps its entry prompt short, so it does not talk over the first dictated words', () => {
    const h = harness();
    h.say('start dictation');
    expect(h.spoken()).toEqual(['Dictating. Say end dictation when you are done.']);
  });

  it('in dictation: submits what was dictated and pops, exactly as the spoken exit does', () => {
    const spoken = dictate(['First line.', 'Second line.'], 'end dictation');
    const h = harness();
    h.sayAll('start dictation', 'First line.', 'Second line.');
    expect(h.tap()).toBe(true);
    expect(h.submits()).toEqual([{ frame: 'dictation', target: 'file', text: 'First line. Second line.' }]);
    expect(h.stack()).toEqual(['base']);
    const effects = (x: typeof h) => x.effects.filter((e) => e.type !== 'matched').map(({ atMs: _t, ...e }) => e);
    expect(effects(h)).toEqual(effects(spoken));
    expect(h.of('matched').at(-1)).toEqual(expect.objectContaining({ frame: 'dictation', kind: 'button', text: '[tap]' }));
  });

  it('in dictation with nothing dictated: says so and closes, like the spoken exit', () => {
    const h = harness();
    h.say('start dictation');
    expect(h.tap()).toBe(true);
    expect(h.spoken().at(-1)).toBe('Nothing was dictated.');
    expect(h.stack()).toEqual(['base']);
  });

  it('in the base frame: not consumed, nothing happens (the daemon keeps its own tap)', () => {
    const h = harness();
    expect(h.core.router.handlesButton('tap')).toBe(false);
    expect(h.tap()).toBe(false);
    expect(h.effects).toEqual([]);
  });

  it('in a query: not consumed (a query ends on its own silence)', () => {
    const h = harness();
    h.sayAll('computer', 'soup');
    h.clear();
    expect(h.tap()).toBe(false);
    expect(h.stack()).toEqual(['base', 'query']);
    expect(h.effects).toEqual([]);
  });

  it('in inventory: saves the items and closes, like "save"', () => {
    const h = harness();
    h.sayAll('start inventory', 'flour', 'sugar');
    expect(h.core.router.handlesButton('tap')).toBe(true);
    expect(h.tap()).toBe(true);
    expect(h.of('submit')).toEqual([expect.objectContaining({ frame: 'inventory', target: 'inventory', items: ['flour', 'sugar'] })]);
    expect(h.spoken().at(-1)).toBe('Saved 2 items.');
    expect(h.stack()).toEqual(['base']);
  });

  it('goes to the top frame only: a confirm question over inventory does not save behind it', () => {
    const h = harness();
    h.sayAll('start inventory', 'flour', 'cancel');
    expect(h.stack()).toEqual(['base', 'inventory', 'confirm']);
    expect(h.tap()).toBe(false);
    expect(h.stack()).toEqual(['base', 'inventory', 'confirm']);
    expect(h.of('submit')).toEqual([]);
  });

  it('is configurable per frame ({button: tap, do: [...]}), and honours when', () => {
    const h = harness({
      config: {
        router: {
          frames: {
            base: {
              rules: [
                { button: 'tap', when: 'always-listen', do: { say: 'tapped' } },
                { exact: 'listen', do: { mode: 'always-listen' } },
              ],
            },
          },
        },
      },
    });
    expect(h.tap()).toBe(false);
    h.say('listen');
    expect(h.tap()).toBe(true);
    expect(h.spoken()).toEqual(['Always listening.', 'tapped']);
  });

  it('waits behind an utterance the router is still classifying, and aims at the frame that was on top', async () => {
    const calls: ((v: ClassifierVerdict | null) => void)[] = [];
    const fake: Classifier = { classify: () => new Promise((r) => calls.push(r)) };
    const h = harness({
      classifiers: { fake },
      config: {
        router: {
          frames: {
            dictation: {
              rules: [
                { button: 'tap', do: ['submit', 'pop'] },
                { classifier: 'fake', timeoutMs: 5000, do: { say: 'classified' } },
                { 'catch-all': true, do: 'append' },
              ],
            },
          },
        },
      },
    });
    h.say('start dictation');
    h.say('last words');
    expect(h.core.router.busy).toBe(true);
    expect(h.tap()).toBe(true);
    expect(h.stack()).toEqual(['base', 'dictation']);
    calls[0]!(null);
    await h.core.idle();
    expect(h.submits().map((s) => s.text)).toEqual(['last words']);
    expect(h.stack()).toEqual(['base']);
  });
});

describe('config validation of the new rule kinds', () => {
  it('normalises near phrases and skip words like exact phrases, and keeps the rest as written', async () => {
    const { parseConfigText } = await import('../../src/config/load.js');
    const cfg = parseConfigText(
      'router:\n  frames:\n    dictation:\n      rules:\n        - near: ["End Dictation!", "That\'s all."]\n          maxEdits: 2\n          skip: [Okay]\n          do: [submit, pop]\n        - button: tap\n          do: [submit, pop]\n',
      'hark.yaml',
    );
    expect(cfg.router.frames.dictation!.rules).toEqual([
      { near: ['end dictation', 'thats all'], maxEdits: 2, skip: ['okay'], do: ['submit', 'pop'] },
      { button: 'tap', do: ['submit', 'pop'] },
    ]);
  });

  it('names each problem by path', async () => {
    const { validateConfig } = await import('../../src/config/load.js');
    let message = '';
    try {
      validateConfig(
        {
          router: {
            frames: {
              dictation: {
                rules: [
                  { near: [], do: ['submit', 'pop'] },
                  { near: 'end dictation', maxEdits: 5, do: ['submit', 'pop'] },
                  { near: 'end dictation', skip: 'the', do: ['submit', 'pop'] },
                  { button: 'hold', do: ['submit', 'pop'] },
                  { button: 'tap', do: ['append'] },
                  { exact: 'x', maxEdits: 1, do: 'pop' },
                  { 'catch-all': true, do: 'append' },
                ],
              },
            },
          },
        },
        'test config',
      );
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('router.frames.dictation.rules.0.near: must be a phrase or a non-empty list of phrases');
    expect(message).toContain('router.frames.dictation.rules.1.maxEdits: must be a whole number from 0 to 3');
    expect(message).toContain('router.frames.dictation.rules.2.skip: must be a list of words');
    expect(message).toContain('router.frames.dictation.rules.3.button: must be one of: tap');
    expect(message).toContain('router.frames.dictation.rules.4.do.0: "append" needs words; a button rule has none');
    expect(message).toContain('router.frames.dictation.rules.5.maxEdits: only near rules have this setting');
  });
});
