/**
 * Which language Whisper is told, and what is made of the one it names. Pure.
 *
 * smart-whisper's addon passes `language` to whisper_full and reads back whisper_full_lang_id (each
 * result's `lang`); with `auto`, whisper_full picks the most probable of all of Whisper's languages
 * in the same pass. Restricting that choice to the device's languages needs the per-language
 * probabilities (whisper_lang_auto_detect's lang_probs), which the addon does not expose, and asking
 * for them is a second encoder run. So no second inference: one language is forced; several are
 * detected, and a language outside the device's is read as its first (the words were decoded in the
 * detected language; the router reads them in every configured language anyway).
 */

/** What whisper_full is told: stt.whisper.language when set, else the device's one language, else auto. */
export function whisperLanguage(configured: string, languages: readonly string[]): string {
  if (configured) return configured;
  return languages.length === 1 ? languages[0]! : 'auto';
}

/** The language a transcript carries, from what Whisper named: held to the device's languages. */
export function heardLanguage(sent: string, detected: string | undefined, languages: readonly string[]): { language?: string; outside?: string } {
  if (sent !== 'auto') return { language: sent };
  if (!detected) return {};
  if (!languages.length || languages.includes(detected)) return { language: detected };
  return { language: languages[0]!, outside: detected };
}
