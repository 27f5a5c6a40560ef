import { normalizeText } from './clean-text.js';

export interface StabilizerOptions {
  /** Hypotheses compared (3); at least 2 are always compared. */
  windowSize: number;
  /** Word confidence below which a word is "low confidence" (0.6). */
  minConfidence: number;
  /**
   * Low-confidence words must repeat (appear at their position in two hypotheses) to settle; false makes
   * minConfidence a floor instead: low-confidence words never settle from partials, only from a final.
   */
  requireRepetition: boolean;
}

export interface StableWord {
  /** As shown (punctuated when the engine punctuates). */
  text: string;
  confidence: number;
}

interface Word {
  text: string;
  norm: string;
  confidence: number;
}

/**
 * Stabilizer: the text a UI may show as settled while interim hypotheses still change.
 *
 * The stable text is the words of the finals so far (committed) followed by the settled prefix of
 * the interim hypotheses since the last final (the span):
 *
 * - **Agreement.** The window is the last `max(windowSize, 2)` hypotheses of the span. Nothing
 *   settles until two have been seen: a word is never settled by one hypothesis, however confident.
 *   Then the settled prefix is the longest common prefix of the window (the LCP; words are
 *   compared without case and punctuation, shown as the latest hypothesis has them).
 * - **Confidence.** A word whose confidence in the latest hypothesis is below `minConfidence` is
 *   low-confidence. With `requireRepetition` (the seed's default) it must have repeated, i.e.
 *   appear at its position in at least two hypotheses; the agreement rule already demands that of
 *   every settled word, so a low-confidence word settles exactly like any other. Without
 *   `requireRepetition`, `minConfidence` is a floor: the prefix stops at the first low-confidence
 *   word, which only a final can commit.
 * - **Monotonic.** Partials never shrink the stable text and never change a word it shows: when
 *   the window's prefix is shorter than, or disagrees with, what is shown past the finals, the shown
 *   text holds; as soon as the window agrees on an extension of it, that is shown.
 * - **Finals are authoritative.** A final is the truth for its span: its words are committed, the
 *   window starts over, and the stable text becomes exactly the finals' words. When that changes or
 *   drops a word that was shown (compared without case and punctuation), it is one revision; the
 *   stable text then grows again from the next agreeing interims, so it never freezes.
 * Why: docs/decisions.md#settled-text-is-what-three-hypotheses-agree-on.
 */
export class Stabilizer {
  private committed: Word[] = [];
  private window: Word[][] = [];
  /** Settled interim words shown past the committed ones. */
  private pending: Word[] = [];
  /** Finals that changed or dropped a word already shown as stable (the seed's stabilizer lag signal). */
  revisions = 0;

  constructor(private readonly opts: StabilizerOptions) {}

  get text(): string {
    return this.shown()
      .map((w) => w.text)
      .join(' ');
  }

  get words(): StableWord[] {
    return this.shown().map((w) => ({ text: w.text, confidence: w.confidence }));
  }

  /** An interim hypothesis for the span since the last final. Returns the stable text. */
  partial(words: readonly StableWord[]): string {
    this.window.push(toWords(words));
    if (this.window.length > Math.max(this.opts.windowSize, 2)) this.window.shift();
    const settled = this.settled();
    if (isPrefix(this.pending, settled)) this.pending = settled;
    return this.text;
  }

  /** A final for the span: its words are committed, replacing what interims had shown, and the window starts over. */
  final(words: readonly StableWord[]): string {
    const before = this.shown();
    this.committed.push(...toWords(words));
    this.window = [];
    this.pending = [];
    if (!isPrefix(before, this.committed)) this.revisions++;
    return this.text;
  }

  reset(): void {
    this.committed = [];
    this.window = [];
    this.pending = [];
    this.revisions = 0;
  }

  private shown(): Word[] {
    return [...this.committed, ...this.pending];
  }

  private settled(): Word[] {
    const hyps = this.window;
    if (hyps.length < 2) return [];
    const latest = hyps[hyps.length - 1]!;
    const out: Word[] = [];
    for (let i = 0; i < latest.length; i++) {
      const w = latest[i]!;
      if (!hyps.every((h) => h[i]?.norm === w.norm)) break;
      if (w.confidence < this.opts.minConfidence && !this.opts.requireRepetition) break;
      out.push(w);
    }
    return out;
  }
}

/** `a` is a prefix of `b`, word by word, compared without case and punctuation. */
function isPrefix(a: readonly Word[], b: readonly Word[]): boolean {
  return a.length <= b.length && a.every((w, i) => w.norm === b[i]!.norm);
}

function toWords(words: readonly StableWord[]): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    const norm = normalizeText(w.text);
    // A lone punctuation token carries nothing to compare; it stays attached to nothing.
    if (norm) out.push({ text: w.text, norm, confidence: w.confidence });
  }
  return out;
}

/** Words from plain text (the Whisper path has no per-word timing), at full confidence. */
export function textWords(text: string, confidence = 1): StableWord[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((t) => ({ text: t, confidence }));
}
