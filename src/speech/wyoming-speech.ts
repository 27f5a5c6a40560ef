import type { WyomingVoiceConfig } from '../wyoming/config.js';
import type { Logger } from '../core/log.js';
import { parseServerUrl } from '../wyoming/server-url.js';
import type { AplayPlayer } from './aplay.js';
import type { EspeakTts } from './espeak.js';
import type { SpeechOutput } from './item.js';
import { WyomingOutput } from './wyoming-output.js';
import { WyomingTts, WyomingVoice } from './wyoming-voice.js';

/** What the cascade renders with and the voice picker sets: espeak-ng, or a Wyoming voice with espeak-ng behind it. */
export interface SpeechTts {
  /**
   * A reply in another of the device's languages: `lang` is its code, and each engine finds that
   * language's voice itself (espeak-ng's in speech.voices or the pack, a Wyoming server's in
   * speech.wyoming.voices).
   */
  render(text: string, opts?: { lang?: string }): Promise<Int16Array>;
  setVoice(voice: string): void;
}

/** A voice the picker offers: its id and what a person says to choose it. */
export interface VoiceChoice {
  id: string;
  say: string[];
}

/**
 * The Wyoming voice from speech.wyoming, when a server is set: the output that streams it (espeak-ng
 * behind), the tts the cascade renders with, and the server's voices for the picker. Null without a server.
 */
export function createWyomingSpeech(
  cfg: WyomingVoiceConfig,
  deps: { espeak: EspeakTts; player: AplayPlayer; fallback: SpeechOutput; logger?: Logger },
): { tts: SpeechTts; output: SpeechOutput; voices: () => Promise<VoiceChoice[]>; voice: WyomingVoice } | null {
  if (!cfg.server) return null;
  const parsed = parseServerUrl(cfg.server);
  // The config schema already refused a bad address; this is only for a caller that skipped it.
  if ('error' in parsed) throw new Error(`speech.wyoming.server: ${parsed.error}`);
  const logger = deps.logger?.child({ component: 'wyoming-voice' });
  const voice = new WyomingVoice({
    server: parsed.server,
    voice: cfg.voice,
    connectTimeoutMs: cfg.connectTimeoutMs,
    firstChunkTimeoutMs: cfg.firstChunkTimeoutMs,
    chunkGapTimeoutMs: cfg.chunkGapTimeoutMs,
    ...(logger ? { logger } : {}),
  });
  const voiceFor = (lang: string): string | undefined => (Object.hasOwn(cfg.voices, lang) ? cfg.voices[lang] : undefined);
  return {
    voice,
    tts: new WyomingTts(voice, deps.espeak, logger, voiceFor),
    output: new WyomingOutput({ voice, player: deps.player, fallback: deps.fallback, voiceFor, ...(logger ? { logger } : {}) }),
    voices: async () => {
      try {
        return voiceChoices((await voice.describe()).voices.map((v) => v.name));
      } catch (err) {
        logger?.warn('cannot ask the Wyoming voice server for its voices', { error: err instanceof Error ? err.message : String(err) });
        return [];
      }
    },
  };
}

/**
 * Piper's voice names (en_US-lessac-medium) as a cook would say them: "lessac", and "lessac medium".
 * Other names: their words.
 */
export function voiceChoices(names: readonly string[]): VoiceChoice[] {
  return names.map((id) => {
    const piper = /^[a-z]{2,3}_[A-Z]{2}-(.+?)-(x_low|low|medium|high)$/.exec(id);
    const words = (s: string) => s.replace(/[_-]+/g, ' ').toLowerCase().trim();
    const say = piper ? [words(piper[1]!), `${words(piper[1]!)} ${words(piper[2]!)}`] : [words(id)];
    return { id, say: [...new Set(say)] };
  });
}
