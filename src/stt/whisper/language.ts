/**
 * Which language Whisper is told, which it may choose from, and what is made of the one it names. Pure.
 *
 * One language is forced. With several, whisper_full is told `auto` and given the device's languages:
 * hark's smart-whisper addon runs whisper.cpp's language detection itself (the encoder pass and the
 * one decoder step that `auto` costs anyway), takes the most probable of the device's languages, and
 * runs whisper_full with that one forced. So a transcript is decoded in, and labelled with, one of the
 * device's languages, with no second inference.
 */

/** What whisper_full is told: stt.whisper.language when set, else the device's one language, else auto. */
export function whisperLanguage(configured: string, languages: readonly string[]): string {
  if (configured) return configured;
  return languages.length === 1 ? languages[0]! : 'auto';
}

/** whisper.cpp reads an empty language as `auto` too. */
export function isAuto(sent: string): boolean {
  return sent === '' || sent === 'auto';
}

/** The languages `auto` may choose from: the device's, or none (any of Whisper's) when it has none. */
export function allowedLanguages(sent: string, languages: readonly string[]): string[] {
  return isAuto(sent) ? [...languages] : [];
}

/**
 * Every code Whisper is given must be one it knows (whisper.cpp's short codes: en, es, de, ...): an
 * unknown forced code would decode with a wrong start token, and an unknown allowed one would fail
 * every call. The message names the config key and the code.
 */
export function unknownLanguage(sent: string, languages: readonly string[], known: readonly string[]): string | null {
  const knows = new Set(known);
  if (!isAuto(sent) && !knows.has(sent)) {
    return `stt.whisper.language: '${sent}' is not a language Whisper knows (its codes: ${known.join(', ')})`;
  }
  for (const code of allowedLanguages(sent, languages)) {
    if (!knows.has(code))
      return `language.languages: '${code}' is not a language Whisper knows, so Whisper cannot be told to listen for it (its codes: ${known.join(', ')})`;
  }
  return null;
}

/** What the addon says detection found (smart-whisper's LanguageDetection). */
export interface DetectedLanguage {
  language: string;
  p: number;
  top: readonly { language: string; p: number }[];
}

/**
 * The language a transcript carries: the forced one, else the one detection chose (the words were
 * decoded in it). `outside` names a chosen language the device does not hear, which the addon's
 * restriction rules out: it is said, not relabelled.
 */
export function heardLanguage(sent: string, detected: DetectedLanguage | undefined, languages: readonly string[]): { language?: string; outside?: string } {
  if (!isAuto(sent)) return { language: sent };
  if (!detected?.language) return {};
  if (languages.length && !languages.includes(detected.language)) return { outside: detected.language };
  return { language: detected.language };
}
