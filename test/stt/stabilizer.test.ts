import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../src/stt/clean-text.js';
import { Stabilizer, type StableWord } from '../../src/stt/stabilizer.js';

const opts = { windowSize: 3, minConfidence: 0.6, requireRepetition: true };
const w = (text: string, confidence = 0.9): StableWord[] => text.split(' ').filter(Boolean).map((t) => ({ text: t, confidence }));
const low = (text: string) => w(text, 0.3);

describe('stabilizer', () => {
  it("takes the LCP of the last 3 hypotheses (seed 000's algorithm; interim words at low confidence)", () => {
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

  it('settles a high-confidence word from one hypothesis, a low-confidence one only once repeated', () => {
    const s = new Stabilizer(opts);
    expect(s.partial([...w('turn on'), ...low('delights')])).toBe('turn on');
    expect(s.partial([...w('turn on'), ...low('the lights')])).toBe('turn on');
    expect(s.partial([...w('turn on'), ...low('the lights')])).toBe('turn on');
    expect(s.partial([...w('turn on'), ...low('the lights')])).toBe('turn on the lights');
  });

  it('without repetition, low-confidence words never settle from partials (the floor), only from a final', () => {
    const s = new Stabilizer({ ...opts, requireRepetition: false });
    s.partial([...w('set a'), ...low('timer')]);
    s.partial([...w('set a'), ...low('timer')]);
    expect(s.text).toBe('set a');
    expect(s.final([...w('set a'), ...low('timer')])).toBe('set a timer');
  });

  it('a final that disagrees with the stable text does not take a word back', () => {
    const s = new Stabilizer(opts);
    s.partial(w('lights of'));
    expect(s.text).toBe('lights of');
    s.final(w('lights off'));
    expect(s.text).toBe('lights of');
    expect(s.revisions).toBe(1);
  });

  it('a final that only adds case and punctuation extends the stable text', () => {
    const s = new Stabilizer(opts);
    s.partial(w('lights off'));
    expect(s.final(w('Lights off.'))).toBe('Lights off.');
  });

  it('property: within an utterance the stable text never shrinks and never rewrites a word it showed', () => {
    const vocab = ['turn', 'on', 'off', 'the', 'lights', 'kitchen', 'timer', 'set', 'stop', 'five'];
    const hypothesis = fc.array(fc.record({ word: fc.constantFrom(...vocab), conf: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 8 });
    const step = fc.record({ final: fc.boolean(), words: hypothesis });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.boolean(), (steps, windowSize, minConfidence, requireRepetition) => {
        const s = new Stabilizer({ windowSize, minConfidence, requireRepetition });
        let prev: string[] = [];
        for (const st of steps) {
          const words = st.words.map((x) => ({ text: x.word, confidence: x.conf }));
          if (st.final) s.final(words);
          else s.partial(words);
          const now = s.text.split(' ').filter(Boolean).map(normalizeText);
          expect(now.length).toBeGreaterThanOrEqual(prev.length);
          expect(now.slice(0, prev.length)).toEqual(prev);
          prev = now;
        }
      }),
      { numRuns: 500 },
    );
  });
});
