import { normalizeText } from './clean-text.js';

export interface StabilizerOptions {
  /** Hypotheses compared (seed 000: 3). */
  windowSize: number;
  /** Word confidence below which a word is "low confidence" (seed 000: 0.6). */
  minConfidence: number;
  /** Low-confidence words become stable only once two hypotheses agree on them (else never from partials). */
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
 * Seed 000's stabilizer: the text a UI may show as settled while interim hypotheses still change.
 *
 * Within the span since the last final, a word is stable when every one of the last `windowSize`
 * hypotheses (fewer at the start) agrees on it and on every word before it (longest common prefix).
 * A single hypothesis settles only high-confidence words; a low-confidence word must have repeated,
 * i.e. at least two hypotheses agree on it. A final commits its words outright.
 *
 * Guarantee (property-tested): within one utterance the stable text never shrinks and never changes a
 * word it already showed — a later candidate that disagrees leaves it where it was until the
 * candidates catch up (words are compared without case and punctuation, so a final's "Lights." extends
 * an interim "lights").
 */
export class Stabilizer {
  private committed: Word[] = [];
  private window: Word[][] = [];
  private stable: Word[] = [];
  /** Candidates that disagreed with the stable text (the seed's stabilizer_lag signal). */
  revisions = 0;

  constructor(private readonly opts: StabilizerOptions) {}

  get text(): string {
    return this.stable.map((w) => w.text).join(' ');
  }

  get words(): StableWord[] {
    return this.stable.map((w) => ({ text: w.text, confidence: w.confidence }));
  }

  /** An interim hypothesis for the span since the last final. Returns the stable text. */
  partial(words: readonly StableWord[]): string {
    this.window.push(toWords(words));
    if (this.window.length > this.opts.windowSize) this.window.shift();
    this.publish([...this.committed, ...this.settled()]);
    return this.text;
  }

  /** A final for the span: its words are committed and the hypothesis window starts over. */
  final(words: readonly StableWord[]): string {
    this.committed.push(...toWords(words));
    this.window = [];
    this.publish(this.committed);
    return this.text;
  }

  reset(): void {
    this.committed = [];
    this.window = [];
    this.stable = [];
    this.revisions = 0;
  }

  private settled(): Word[] {
    const hyps = this.window;
    const latest = hyps[hyps.length - 1];
    if (!latest) return [];
    const out: Word[] = [];
    for (let i = 0; i < latest.length; i++) {
      const w = latest[i]!;
      if (!hyps.every((h) => h[i]?.norm === w.norm)) break;
      if (w.confidence < this.opts.minConfidence && !(this.opts.requireRepetition && hyps.length >= 2)) break;
      out.push(w);
    }
    return out;
  }

  private publish(candidate: Word[]): void {
    const prev = this.stable;
    if (candidate.length < prev.length || !prev.every((w, i) => w.norm === candidate[i]!.norm)) {
      if (candidate.length > 0) this.revisions++;
      return;
    }
    this.stable = candidate.slice();
  }
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
  return text.split(/\s+/).filter(Boolean).map((t) => ({ text: t, confidence }));
}
