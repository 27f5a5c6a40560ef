import { packLanguage } from '../language/pack/english.js';

/**
 * The espeak-ng voice a reply in another language is said with: speech.voices' own for that
 * language, else its pack's `voice` (pack.yaml); undefined for a language with neither (the
 * device's voice says it). Packs are read once each (packLanguage keeps them).
 */
export function languageVoices(voices: Readonly<Record<string, string>>): (lang: string) => string | undefined {
  return (lang) => {
    if (Object.hasOwn(voices, lang)) return voices[lang];
    try {
      return packLanguage(lang).pack.meta.voice;
    } catch {
      return undefined;
    }
  };
}
