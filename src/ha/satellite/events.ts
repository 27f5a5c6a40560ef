declare module '../../core/bus.js' {
  interface HarkEvents {
    /** The native API is listening (port: the one bound, for `port: 0`). */
    'ha.satellite.listening': { port: number; encrypted: boolean; name: string };
    'ha.satellite.subscribed': { connection: number; apiAudio: boolean };
    /**
     * A segment went to Home Assistant: VoiceAssistantRequest{start} sent (or, in a continued
     * conversation, the run already open takes it; it names no phrase then). `samples` is what Home
     * Assistant gets: the segment from `cutMs` on, where the wake phrase ended (`cutBy` says how that
     * was found: 'word times', 'estimate' or 'none'); `wakeWordPhrase` is the phrase that woke hark.
     */
    'ha.satellite.request': { samples: number; why: string; conversationId: string | null; wakeWordPhrase: string | null; cutMs: number; cutBy: string };
    /** Its audio was sent, then VoiceAssistantAudio{end} (bytes of PCM). */
    'ha.satellite.audio': { bytes: number };
    /** A run Home Assistant was still working on was aborted (VoiceAssistantRequest{start: false}). */
    'ha.satellite.aborted': { why: string };
    /** VoiceAssistantAnnounceFinished sent for a run: Home Assistant's satellite entity goes idle. */
    'ha.satellite.finished': { success: boolean };
    /** hark's own rules took a segment that might have gone to Home Assistant, or it was not addressed. */
    'ha.satellite.local': { segment: number; why: string };
    /** A run event from Home Assistant (run-start, stt-end, intent-end, tts-end, run-end, error). */
    'ha.satellite.event': { event: string; data: Record<string, string> };
    'ha.satellite.played': { what: string; url: string; samples: number; outcome: string };
    /** A continued conversation: its run is requested at once, and the answer needs no wake phrase within `withinMs`. */
    'ha.satellite.follow-up': { withinMs: number };
    'ha.satellite.timer': { event: string; id: string; name: string | null; totalSeconds: number; secondsLeft: number };
    'ha.satellite.announced': { url: string; success: boolean };
    'ha.satellite.mute': { muted: boolean };
  }
}
export {};
