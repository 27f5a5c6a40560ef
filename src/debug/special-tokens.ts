import { nonSpeechMarkers } from '../stt/clean-text.js';

/**
 * Raw transcript text split into plain text and Whisper's non-speech markers ([BLANK_AUDIO],
 * [MUSIC], (music), <|endoftext|>, ...), so the page can highlight them. The markers are whatever
 * the speech-to-text cleaner strips (src/stt/clean-text.ts): one rule, so what the page highlights
 * is exactly what was taken out of the cleaned text.
 */
export interface TextSpan {
  text: string;
  /** Set on markers: `blank` for [BLANK_AUDIO] (the one that silently drops an utterance). */
  special?: 'blank' | 'token';
}

export function splitSpecialTokens(raw: string): TextSpan[] {
  const spans: TextSpan[] = [];
  let last = 0;
  // Markers come back in order; the pattern has no lookaround, so the next occurrence of a marker's
  // text at or after `last` is where it matched.
  for (const marker of nonSpeechMarkers(raw)) {
    const at = raw.indexOf(marker, last);
    if (at > last) spans.push({ text: raw.slice(last, at) });
    spans.push({ text: marker, special: /^\[\s*BLANK_AUDIO\s*\]$/i.test(marker) ? 'blank' : 'token' });
    last = at + marker.length;
  }
  if (last < raw.length) spans.push({ text: raw.slice(last) });
  return spans;
}
