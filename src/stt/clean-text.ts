/**
 * Whisper writes what it thinks is not speech as bracketed text ([BLANK_AUDIO], [MUSIC], [ Silence ],
 * (upbeat music), *laughs*) and sometimes control tokens (<|endoftext|>) or ♪. They are kept in the
 * raw text (a silent [BLANK_AUDIO] drop must stay visible) and removed from the cleaned text.
 * Same pattern as the debug page's highlighter (src/debug/special-tokens.ts), so both agree.
 * Why: docs/decisions.md#whispers-blank-is-not-believed-on-clear-speech-a-cloud-engines-is.
 */
// Parentheses only around words, as in (upbeat music) or (laughs): "(1)" or "(2 cases)" is speech.
const NON_SPEECH = /\[[^\]\n]{1,40}\]|<\|[^|\n]{0,40}\|>|\((?=[^)\n]*[A-Za-z])[^)\n\d]{1,40}\)|\*[^*\n]{1,40}\*|♪+/g;

export function nonSpeechMarkers(raw: string): string[] {
  return [...raw.matchAll(NON_SPEECH)].map((m) => m[0]);
}

export function cleanText(raw: string): string {
  return raw.replace(NON_SPEECH, ' ').replace(/\s+/g, ' ').trim();
}

/** Lower case, letters/digits/apostrophes only, single spaces: for comparing phrases and words. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function hasWords(text: string): boolean {
  return /[\p{L}\p{N}]/u.test(text);
}
