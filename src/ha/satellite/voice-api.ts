/**
 * The voice-assistant side of ESPHome's api.proto as hark uses it (numbers and bits from api.proto
 * and aioesphomeapi's model.py), and what the satellite needs of the rest of hark.
 */

/** ESPHome's VoiceAssistantFeature bits (aioesphomeapi): what Home Assistant may use on this device. */
export const FEATURES = { voiceAssistant: 1, speaker: 2, apiAudio: 4, timers: 8, announce: 16, startConversation: 32 } as const;
export const OUR_FEATURES = FEATURES.voiceAssistant | FEATURES.apiAudio | FEATURES.timers | FEATURES.announce | FEATURES.startConversation;

/** VoiceAssistantEvent numbers from api.proto. */
export const EVENT = {
  ERROR: 0,
  RUN_START: 1,
  RUN_END: 2,
  STT_START: 3,
  STT_END: 4,
  INTENT_START: 5,
  INTENT_END: 6,
  TTS_START: 7,
  TTS_END: 8,
  STT_VAD_START: 11,
  STT_VAD_END: 12,
} as const;
export const EVENT_NAME: Record<number, string> = Object.fromEntries(Object.entries(EVENT).map(([k, v]) => [v, k.toLowerCase().replaceAll('_', '-')]));
export const TIMER_EVENT = ['started', 'updated', 'cancelled', 'finished'] as const;

/** The mute switch's entity key (a fixed32 Home Assistant echoes in commands). */
export const MUTE_KEY = 0x6d757465; // "mute"

/**
 * VoiceAssistantRequest.audio_settings as an ESPHome device sends them by default (voice_assistant
 * __init__.py: no noise suppression, no auto gain, volume multiplier 1.0): hark's audio is already
 * echo-cancelled and denoised, and a request without them reads as volume 0.0 (aioesphomeapi
 * VoiceAssistantCommand.from_pb), which an older Home Assistant multiplies the audio by. The
 * request's flags stay 0: ESPHome sets USE_WAKE_WORD for Home Assistant to find the wake word in the
 * stream and USE_VAD for its silence detection; hark's audio starts after the wake phrase and is a
 * closed segment, ended by VoiceAssistantAudio{end}.
 */
export const AUDIO_SETTINGS = { noiseSuppressionLevel: 0, autoGain: 0, volumeMultiplier: 1.0 } as const;

/** Samples per VoiceAssistantAudio message: 64 ms, as ESPHome devices send. */
export const CHUNK_SAMPLES = 1024;

/** What the satellite needs of hark: its speaker, its mute, its ring, its router. */
export interface SatelliteHooks {
  /** Play decoded audio through hark's speech queue (barge-in applies); resolves with how it ended. */
  play(pcm: Int16Array, text: string): Promise<string>;
  earcon(name: string): void;
  muted(): boolean;
  setMuted(muted: boolean): void;
  /** A Home Assistant timer is done: ring it as one of hark's. */
  ring(label: string | undefined): void;
  /** Fetch and decode a TTS/announcement URL to hark's playback format. */
  media(url: string): Promise<Int16Array>;
}
