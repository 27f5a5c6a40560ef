import { cleanText } from './clean-text.js';
import { Stabilizer, type StabilizerOptions, type StableWord, textWords } from './stabilizer.js';
import type { AsrResult, AsrWord } from './types.js';

/** Two words closer than this (s) on the audio timeline are the same word re-timed. */
const EPSILON_S = 0.01;

/**
 * What a streaming engine has heard of one open segment so far: its finals in audio order, the
 * latest interim for the span after them, and the stabilized text. Only for showing and for
 * early decisions (barge-in, intent hints): the words acted on come from the engine's whole-segment
 * transcript when the segment closes, so nothing here can split, drop or repeat a command.
 *
 * Every result is placed by its words' times on the segment's audio (never by when it arrived):
 * a final that repeats audio an earlier final already covered adds nothing.
 *
 * Pure: no clock, no I/O.
 */
export class InterimTranscript {
  private readonly finals: { text: string; end: number }[] = [];
  private partial = '';
  private readonly stabilizer: Stabilizer;
  private coveredThrough = -1;

  constructor(stabilizer: StabilizerOptions) {
    this.stabilizer = new Stabilizer(stabilizer);
  }

  /** Take a result; true when the heard or stable text changed. */
  result(e: AsrResult): boolean {
    const before = `${this.rawText}\u0000${this.stableText}`;
    const words = e.words.filter((w) => w.end > this.coveredThrough + EPSILON_S);
    // A result made only of words a final already holds (a re-sent final) changes nothing.
    if (e.words.length > 0 && words.length === 0) return false;
    const text = words.length === e.words.length ? e.text.trim() : words.map((w) => w.punctuated ?? w.word).join(' ');
    const stable = stableWords(words, text);
    if (e.kind === 'final') {
      if (text) this.finals.push({ text, end: lastEnd(words, e) });
      this.coveredThrough = Math.max(this.coveredThrough, lastEnd(words, e));
      this.partial = '';
      this.stabilizer.final(stable);
    } else {
      this.partial = text;
      this.stabilizer.partial(stable);
    }
    return `${this.rawText}\u0000${this.stableText}` !== before;
  }

  /** Finals then the latest interim, as the engine wrote them. */
  get rawText(): string {
    return [...this.finals.map((f) => f.text), this.partial].filter(Boolean).join(' ');
  }

  /** Cleaned heard text (special tokens stripped). */
  get text(): string {
    return cleanText(this.rawText);
  }

  /** Settled text: what a display may show without it changing back. */
  get stableText(): string {
    return this.stabilizer.text;
  }

  /** The final chunks so far, in audio order (each a span the engine will not revise). */
  get finalChunks(): string[] {
    return this.finals.map((f) => f.text);
  }

  /** The interim hypothesis for the span after the last final ('' when none). */
  get partialText(): string {
    return this.partial;
  }

  /** Only what the engine has finalised: what an engine failing part-way had really heard. */
  get finalText(): string {
    return this.finals.map((f) => f.text).join(' ');
  }
}

function lastEnd(words: readonly AsrWord[], e: AsrResult): number {
  if (words.length > 0) return words[words.length - 1]!.end;
  return e.duration > 0 ? e.start + e.duration : -1;
}

function stableWords(words: readonly AsrWord[], text: string): StableWord[] {
  if (words.length === 0) return textWords(text);
  return words.map((w) => ({ text: w.punctuated ?? w.word, confidence: w.confidence }));
}
