declare module '../../core/bus.js' {
  interface HarkEvents {
    /** The native API is listening (port: the one bound, for `port: 0`). */
    'ha.satellite.listening': { port: number; encrypted: boolean; name: string };
    'ha.satellite.subscribed': { connection: number; apiAudio: boolean };
    /** A segment went to Home Assistant: VoiceAssistantRequest{start} sent. */
    'ha.satellite.request': { samples: number; why: string; conversationId: string | null };
    /** Its audio was sent (bytes of PCM, pre-roll first). */
    'ha.satellite.audio': { bytes: number };
    /** hark's own rules took a segment that might have gone to Home Assistant, or it was not addressed. */
    'ha.satellite.local': { segment: number; why: string };
    /** A run event from Home Assistant (run-start, stt-end, intent-end, tts-end, run-end, error). */
    'ha.satellite.event': { event: string; data: Record<string, string> };
    'ha.satellite.played': { what: string; url: string; samples: number; outcome: string };
    'ha.satellite.follow-up': { withinMs: number };
    'ha.satellite.timer': { event: string; id: string; name: string | null; totalSeconds: number; secondsLeft: number };
    'ha.satellite.announced': { url: string; success: boolean };
    'ha.satellite.mute': { muted: boolean };
  }
}
export {};
