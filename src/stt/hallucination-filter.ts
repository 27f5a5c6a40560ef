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
  phrases: readonly string[];
}

/**
 * Decide whether a transcript is kept. Pure: the same raw text always gets the same answer, so the
 * fallback policy and the utterance builder can both ask.
 */
export class HallucinationFilter {
  private readonly phrases: Set<string>;
  constructor(opts: FilterOptions) {
    this.phrases = new Set(opts.phrases.map(normalizeText).filter((p) => p.length > 0));
  }

  check(rawText: string, text = cleanText(rawText)): Drop | null {
    if (rawText.trim() === '') return { code: 'blank', reason: 'blank: no text' };
    if (text === '') {
      // Only markers: Whisper's way of saying it heard silence or music ([BLANK_AUDIO], (music)).
      const markers = nonSpeechMarkers(rawText);
      return { code: 'non-speech', reason: `non-speech: ${markers.join(' ') || JSON.stringify(rawText.trim())}` };
    }
    // Lone punctuation ("." or "...") is what Whisper says for a cough or a door.
    if (!hasWords(text)) return { code: 'no-words', reason: `no words: ${JSON.stringify(text)}` };
    const norm = normalizeText(text);
    if (this.phrases.has(norm)) return { code: 'hallucination', reason: `hallucination: "${norm}"` };
    return null;
  }
}
