import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../src/stt/clean-text.js';
import { Stabilizer, type StableWord } from '../../src/stt/stabilizer.js';

/**
 * What "monotonic" means for the stabilizer, checked over random streams:
 *
 * - partials never shrink the stable text and never change a word it shows (compared without case
 *   and punctuation);
 * - right after a final, the stable text is exactly the finals' words so far (a final is the truth
 *   for its span, so it may replace shown words: that is a revision);
 * - a word past the finals is only shown once at least two interim hypotheses of the span had it at
 *   its position, and when the hypotheses in the window agree on a longer prefix it is shown;
 * - it never freezes: whatever happened before, a final and then agreeing hypotheses extend it.
 */
const VOCAB = ['turn', 'on', 'off', 'the', 'lights', 'kitchen', 'timer', 'set', 'stop', 'five'];
const PUNCT = ['', '', '', '.', ',', '?'];

const token = fc.record({
  word: fc.constantFrom(...VOCAB),
  punct: fc.constantFrom(...PUNCT),
  upper: fc.boolean(),
  conf: fc.double({ min: 0, max: 1, noNaN: true }),
});
type Token = { word: string; punct: string; upper: boolean; conf: number };
const hypothesis = fc.array(token, { maxLength: 7 });

/** Steps: a fresh hypothesis, the previous one again (maybe extended), or a final. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('partial' as const), words: hypothesis }),
  fc.record({ kind: fc.constant('again' as const), words: fc.array(token, { maxLength: 3 }), relabel: fc.boolean() }),
  fc.record({ kind: fc.constant('final' as const), words: hypothesis }),
);
type Step = { kind: 'partial' | 'final'; words: Token[] } | { kind: 'again'; words: Token[]; relabel: boolean };

const options = fc.record({
  windowSize: fc.integer({ min: 1, max: 5 }),
  minConfidence: fc.double({ min: 0, max: 1, noNaN: true }),
  requireRepetition: fc.boolean(),
});

const toWords = (ts: readonly Token[]): StableWord[] =>
  ts.map((t) => ({ text: (t.upper ? t.word[0]!.toUpperCase() + t.word.slice(1) : t.word) + t.punct, confidence: t.conf }));
const norms = (ws: readonly StableWord[]): string[] => ws.map((x) => normalizeText(x.text)).filter(Boolean);
const isPrefix = (a: readonly string[], b: readonly string[]): boolean => a.length <= b.length && a.every((x, i) => x === b[i]);

/** Run the steps, calling `check` after each with what is needed to judge it. */
function drive(
  s: Stabilizer,
  steps: readonly Step[],
  check: (c: {
    kind: 'partial' | 'final';
    before: StableWord[];
    after: StableWord[];
    committed: StableWord[];
    span: StableWord[][];
    revisionsBefore: number;
    revisionsAfter: number;
  }) => void,
): void {
  let committed: StableWord[] = [];
  let span: StableWord[][] = [];
  for (const st of steps) {
    const before = s.words;
    const revisionsBefore = s.revisions;
    if (st.kind === 'final') {
      const words = toWords(st.words);
      s.final(words);
      committed = [...committed, ...words.filter((x) => normalizeText(x.text))];
      span = [];
      check({ kind: 'final', before, after: s.words, committed, span, revisionsBefore, revisionsAfter: s.revisions });
      continue;
    }
    let words: StableWord[];
    if (st.kind === 'again') {
      const prev = span[span.length - 1] ?? [];
      // The same hypothesis again, maybe with fresh confidences, maybe extended.
      words = [
        ...prev.map((x, i) => (st.relabel ? { ...x, confidence: st.words[i % Math.max(1, st.words.length)]?.conf ?? x.confidence } : x)),
        ...toWords(st.words),
      ];
    } else words = toWords(st.words);
    s.partial(words);
    span = [...span, words.filter((x) => normalizeText(x.text))];
    check({ kind: 'partial', before, after: s.words, committed, span, revisionsBefore, revisionsAfter: s.revisions });
  }
}

describe('stabilizer properties', () => {
  it('partials never shrink the stable text nor change a word it shows', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), options, (steps, o) => {
        drive(new Stabilizer(o), steps as Step[], (c) => {
          if (c.kind !== 'partial') return;
          expect(isPrefix(norms(c.before), norms(c.after))).toBe(true);
        });
      }),
      { numRuns: 400 },
    );
  });

  it("right after a final, the stable text is exactly the finals' words; a final that changes a shown word counts one revision", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), options, (steps, o) => {
        drive(new Stabilizer(o), steps as Step[], (c) => {
          if (c.kind !== 'final') return;
          expect(c.after).toEqual(c.committed.map((x) => ({ text: x.text, confidence: x.confidence })));
          const revised = !isPrefix(norms(c.before), norms(c.committed));
          expect(c.revisionsAfter - c.revisionsBefore).toBe(revised ? 1 : 0);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('a word past the finals is shown only after two hypotheses of the span had it there; the floor holds without repetition', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), options, (steps, o) => {
        drive(new Stabilizer(o), steps as Step[], (c) => {
          expect(isPrefix(norms(c.committed), norms(c.after))).toBe(true);
          const past = c.after.slice(c.committed.length);
          const pastNorms = norms(past);
          // Enough to check the whole shown tail: every prefix of it is then agreed by those same hypotheses.
          if (pastNorms.length > 0) expect(c.span.filter((h) => isPrefix(pastNorms, norms(h))).length).toBeGreaterThanOrEqual(2);
          if (!o.requireRepetition) for (const x of past) expect(x.confidence).toBeGreaterThanOrEqual(o.minConfidence);
        });
      }),
      { numRuns: 400 },
    );
  });

  it("when the window's hypotheses agree past what is shown, the agreed prefix is shown (LCP of the last max(windowSize, 2))", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), options, (steps, o) => {
        drive(new Stabilizer(o), steps as Step[], (c) => {
          if (c.kind !== 'partial' || c.span.length < 2) return;
          const win = c.span.slice(-Math.max(o.windowSize, 2));
          const latest = win[win.length - 1]!;
          let lcp = 0;
          while (lcp < latest.length && win.every((h) => normalizeText(h[lcp]?.text ?? '') === normalizeText(latest[lcp]!.text))) {
            if (!o.requireRepetition && latest[lcp]!.confidence < o.minConfidence) break;
            lcp++;
          }
          const shownPast = norms(c.before).slice(c.committed.length);
          const agreed = norms(latest.slice(0, lcp));
          if (isPrefix(shownPast, agreed)) expect(norms(c.after)).toEqual([...norms(c.committed), ...agreed]);
          else expect(norms(c.after)).toEqual(norms(c.before));
        });
      }),
      { numRuns: 400 },
    );
  });

  it('never freezes: after any history, a disagreeing final and then agreeing hypotheses keep it growing', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), options, hypothesis, fc.array(token, { minLength: 1, maxLength: 5 }), (steps, o, fin, more) => {
        const s = new Stabilizer(o);
        drive(s, steps as Step[], () => {});
        const shown = norms(s.words);
        // A final that disagrees with whatever is shown (when anything is).
        const finalWords = shown.length > 0 ? [{ text: shown[0] === 'stop' ? 'set' : 'stop', confidence: 1 }, ...toWords(fin)] : toWords(fin);
        s.final(finalWords);
        const afterFinal = norms(s.words);
        expect(isPrefix(norms(finalWords), afterFinal.slice(afterFinal.length - norms(finalWords).length))).toBe(true);
        const next = toWords(more).map((x) => ({ ...x, confidence: o.requireRepetition ? x.confidence : 1 }));
        for (let i = 0; i < Math.max(o.windowSize, 2); i++) s.partial(next);
        expect(norms(s.words)).toEqual([...afterFinal, ...norms(next)]);
      }),
      { numRuns: 400 },
    );
  });
});
