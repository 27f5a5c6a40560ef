import { describe, expect, it } from 'vitest';
import { Stabilizer, textWords, type StableWord } from '../../src/stt/stabilizer.js';

const opts = { windowSize: 3, minConfidence: 0.6, requireRepetition: true };
const w = (text: string, confidence = 0.9): StableWord[] =>
  text
    .split(' ')
    .filter(Boolean)
    .map((t) => ({ text: t, confidence }));
const low = (text: string) => w(text, 0.3);

describe('stabilizer: settling interim hypotheses (LCP of the last 3, confidence 0.6, repetition)', () => {
  it('the worked example: the LCP of the last 3 hypotheses', () => {
    const s = new Stabilizer(opts);
    s.partial(w('What is a'));
    s.partial(w('What is a lock'));
    expect(s.partial(w('What is a lock statement'))).toBe('What is a');
  });

  it('takes the LCP of the last 3 hypotheses as they slide (interim words at low confidence)', () => {
    const s = new Stabilizer(opts);
    expect(s.partial(low('What'))).toBe('');
    expect(s.partial(low('What is'))).toBe('What');
    expect(s.partial(low('What is a'))).toBe('What');
    expect(s.partial(low('What is a lock'))).toBe('What is');
    expect(s.partial(low('What is a lock statement'))).toBe('What is a');
    expect(s.final(w('What is a lock'))).toBe('What is a lock');
    expect(s.partial(low('statement'))).toBe('What is a lock');
    expect(s.partial(low('statement used'))).toBe('What is a lock statement');
  });

  it('a single hypothesis settles nothing, however confident; a second that agrees settles the agreed prefix', () => {
    const s = new Stabilizer(opts);
    expect(s.partial(w('turn on the lights', 0.99))).toBe('');
    expect(s.words).toEqual([]);
    expect(s.partial(w('turn on the light', 0.99))).toBe('turn on the');
  });

  it('after a final the next single hypothesis settles nothing either', () => {
    const s = new Stabilizer(opts);
    s.final(w('set a timer'));
    expect(s.partial(w('for five minutes', 0.99))).toBe('set a timer');
    expect(s.partial(w('for five minutes', 0.99))).toBe('set a timer for five minutes');
  });

  it('windowSize 1 still needs two agreeing hypotheses (a word never settles from one)', () => {
    const s = new Stabilizer({ ...opts, windowSize: 1 });
    expect(s.partial(w('stop'))).toBe('');
    expect(s.partial(w('stop the music'))).toBe('stop');
  });

  it('a low-confidence word settles once it has repeated at its position', () => {
    const s = new Stabilizer(opts);
    expect(s.partial([...w('turn on'), ...low('delights')])).toBe('');
    expect(s.partial([...w('turn on'), ...low('the lights')])).toBe('turn on');
    expect(s.partial([...w('turn on'), ...low('the lights')])).toBe('turn on');
    expect(s.partial([...w('turn on'), ...low('the lights')])).toBe('turn on the lights');
  });

  it('without repetition, low-confidence words never settle from partials (the floor), only from a final', () => {
    const s = new Stabilizer({ ...opts, requireRepetition: false });
    s.partial([...w('set a'), ...low('timer')]);
    s.partial([...w('set a'), ...low('timer')]);
    s.partial([...w('set a'), ...low('timer')]);
    expect(s.text).toBe('set a');
    expect(s.final([...w('set a'), ...low('timer')])).toBe('set a timer');
  });

  it('partials never take back a word already shown: a disagreeing window holds the stable text until it agrees again', () => {
    const s = new Stabilizer(opts);
    s.partial(w('turn on the'));
    expect(s.partial(w('turn on the'))).toBe('turn on the');
    // The engine changes its mind about "the": the window disagrees, the shown text holds.
    expect(s.partial(w('turn on a lamp'))).toBe('turn on the');
    expect(s.partial(w('turn on'))).toBe('turn on the');
    // Back to agreeing with what was shown, and further: it grows again.
    s.partial(w('turn on the kitchen lights'));
    s.partial(w('turn on the kitchen lights'));
    expect(s.partial(w('turn on the kitchen lights'))).toBe('turn on the kitchen lights');
    expect(s.revisions).toBe(0);
  });
});

describe('stabilizer: finals are authoritative', () => {
  it('a final that disagrees with the stable text replaces it, counts a revision, and the text keeps growing', () => {
    const s = new Stabilizer(opts);
    s.partial(w('lights of'));
    expect(s.partial(w('lights of'))).toBe('lights of');
    expect(s.final(w('lights off'))).toBe('lights off');
    expect(s.revisions).toBe(1);
    s.partial(w('in the kitchen'));
    expect(s.partial(w('in the kitchen'))).toBe('lights off in the kitchen');
    expect(s.final(w('in the kitchen.'))).toBe('lights off in the kitchen.');
    expect(s.revisions).toBe(1);
  });

  it('a final shorter than the interim words shown takes the rest back (they come again with the next interims)', () => {
    const s = new Stabilizer(opts);
    s.partial(w('turn on the lights'));
    s.partial(w('turn on the lights'));
    expect(s.final(w('turn on'))).toBe('turn on');
    expect(s.revisions).toBe(1);
    s.partial(w('the lights'));
    expect(s.partial(w('the lights'))).toBe('turn on the lights');
  });

  it('a final that only adds case and punctuation is not a revision', () => {
    const s = new Stabilizer(opts);
    s.partial(w('lights off'));
    s.partial(w('lights off'));
    expect(s.final(w('Lights off.'))).toBe('Lights off.');
    expect(s.revisions).toBe(0);
  });

  it('words carry their text and confidence; lone punctuation is dropped', () => {
    const s = new Stabilizer(opts);
    s.final([...w('stop', 0.8), { text: '—', confidence: 0.5 }, ...w('now', 0.7)]);
    expect(s.words).toEqual([
      { text: 'stop', confidence: 0.8 },
      { text: 'now', confidence: 0.7 },
    ]);
  });

  it('reset starts a new utterance', () => {
    const s = new Stabilizer(opts);
    s.final(w('lights off'));
    s.partial(w('lights of'));
    s.reset();
    expect(s.text).toBe('');
    expect(s.revisions).toBe(0);
    expect(s.partial(w('stop'))).toBe('');
  });

  it('textWords splits plain text at full confidence', () => {
    expect(textWords(' set  a timer ')).toEqual(w('set a timer', 1));
    expect(textWords('stop', 0.5)).toEqual([{ text: 'stop', confidence: 0.5 }]);
  });
});
