import { english } from '../language/pack/english.js';
import { cleanText, hasWords, nonSpeechMarkers, normalizeText } from './clean-text.js';

/**
 * Whisper's well-known inventions on silence and noise: subtitle credits from its training data and
 * lone filler, which differ by language (each pack's words.yaml hallucinations; English's here).
 * None of these is ever a command, so a transcript that is exactly one of them is dropped — with
 * the reason recorded, never silently.
 */
export const DEFAULT_HALLUCINATIONS: readonly string[] = english().pack.words.hallucinations;

export type DropCode = 'blank' | 'non-speech' | 'no-words' | 'hallucination';

export interface Drop {
  code: DropCode;
  /** One line for logs, records and `hark transcribe`: `hallucination "thanks for watching"`. */
  reason: string;
}

export interface FilterOptions {
  /** Dropped whatever the language (stt.filter.phrases). */
  phrases: readonly string[];
  /**
   * Each of the device's languages' own (its pack's `hallucinations`): a transcript that names its
   * language is checked against that language's, one that names none against all of them.
   */
  byLanguage?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Decide whether a transcript is kept. Pure: the same raw text always gets the same answer, so the
 * fallback policy and the utterance builder can both ask.
 */
export class HallucinationFilter {
  private readonly phrases: Set<string>;
  private readonly byLanguage = new Map<string, Set<string>>();
  /** Every language's phrases: for a transcript that names no language (or one the device lacks). */
  private readonly anyLanguage: Set<string>;
  constructor(opts: FilterOptions) {
    const norm = (list: readonly string[]) => list.map(normalizeText).filter((p) => p.length > 0);
    this.phrases = new Set(norm(opts.phrases));
    this.anyLanguage = new Set(this.phrases);
    for (const [code, list] of Object.entries(opts.byLanguage ?? {})) {
      const own = new Set([...this.phrases, ...norm(list)]);
      this.byLanguage.set(code, own);
      for (const p of own) this.anyLanguage.add(p);
    }
  }

  check(rawText: string, text = cleanText(rawText), language?: string): Drop | null {
    if (rawText.trim() === '') return { code: 'blank', reason: 'blank: no text' };
    if (text === '') {
      // Only markers: Whisper's way of saying it heard silence or music ([BLANK_AUDIO], (music)).
      const markers = nonSpeechMarkers(rawText);
      return { code: 'non-speech', reason: `non-speech: ${markers.join(' ') || JSON.stringify(rawText.trim())}` };
    }
    // Lone punctuation ("." or "...") is what Whisper says for a cough or a door.
    if (!hasWords(text)) return { code: 'no-words', reason: `no words: ${JSON.stringify(text)}` };
    const norm = normalizeText(text);
    const phrases = (language !== undefined ? this.byLanguage.get(language) : undefined) ?? this.anyLanguage;
    if (phrases.has(norm)) return { code: 'hallucination', reason: `hallucination: "${norm}"` };
    return null;
  }
}
