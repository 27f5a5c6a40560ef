/**
 * One thing for the speaker to play. Errors and confirmations go before ordinary speech, long
 * read-backs last; within a priority, first come first served.
 */
export type Priority = 'alert' | 'confirm' | 'normal' | 'readback';
export const PRIORITIES: readonly Priority[] = ['alert', 'confirm', 'normal', 'readback'];
export const PRIORITY_RANK: Record<Priority, number> = { alert: 0, confirm: 1, normal: 2, readback: 3 };

/** speech: text to render; clip: already-rendered audio (the cascade's answer); earcon: a named sound. */
export type SpeechKind = 'speech' | 'clip' | 'earcon';

export interface SpeechItem {
  readonly id: number;
  readonly kind: SpeechKind;
  /** What is said (speech, clip) or the earcon's name. */
  readonly text: string;
  /** 16 kHz mono s16, for a clip. */
  readonly pcm?: Int16Array;
  readonly priority: Priority;
  /** Where to start, in ms into the item: non-zero when a read-back resumes after a preemption. */
  offsetMs: number;
  /** A timer's ring: played this many dB over the voice (AlarmLevel); absent for everything else. */
  readonly gainDb?: number;
  /**
   * Speech only: words a minute for this item (espeak-ng -s), within SPEED_MIN..SPEED_MAX; absent:
   * speech.speed. A Wyoming voice ignores it (wyoming-piper takes no rate in `synthesize`).
   */
  readonly rate?: number;
  /** The language it is said in, when not the device's first: spoken with that language's voice. */
  readonly lang?: string;
}

/** How an item left the queue. */
export type SpeechOutcome = 'ended' | 'stopped' | 'error' | 'dropped';

export interface OutputCallbacks {
  /** Sound is coming out; `durationMs` is the length still to play. */
  started(durationMs: number): void;
  /** Played to the end, or failed (with a reason a person can read). */
  finished(error?: string): void;
}

export interface PlaybackHandle {
  /** Silence it now. Callbacks after this are ignored by the queue. */
  stop(): void;
}

/**
 * Where the queue sends items: the speaker (espeak-ng → aplay) or, in `hark simulate` and tests,
 * a model of playback time on a virtual clock.
 */
export interface SpeechOutput {
  play(item: SpeechItem, cb: OutputCallbacks): PlaybackHandle;
}
