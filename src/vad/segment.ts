/**
 * Why a segment ended. 'capture-lost': the recorder died or stalled mid-segment; the audio after its
 * restart is another stream and is never glued on.
 */
export type CloseReason = 'hangover' | 'max-duration' | 'ptt-release' | 'end-of-stream' | 'capture-lost' | 'complete-command';

/**
 * One stretch of speech, ready for speech-to-text.
 *
 * Sample positions are absolute indices into the capture stream (0 = first sample captured).
 * Invariants the splice must keep (an off-by-one-window splice makes Whisper answer
 * `[BLANK_AUDIO]`):
 *   pcm.length === endSample - startSample
 *   prerollSamples === vadStartSample - startSample
 *   pcm is byte-identical to the stream from startSample to endSample.
 */
export interface Segment {
  /** 0-based, in order of closing, per stream. */
  index: number;
  pcm: Int16Array;
  prerollSamples: number;
  startSample: number;
  /** Where live speech began (the first speech frame, or the PTT press). */
  vadStartSample: number;
  /** Exclusive. */
  endSample: number;
  closeReason: CloseReason;
  /** Highest VAD probability seen inside the segment. */
  maxProb: number;
  openedBy: 'vad' | 'ptt';
  /**
   * Set only for a segment heard while hark played with the echo canceller in force: the
   * raw microphone over the same samples as `pcm` (which is the cleaned signal), and the stretches
   * where hark's sound was expected in it, in samples from the segment's first sample.
   */
  echo?: EchoTrack;
}

/** The second track of a segment heard over hark's own playback (see Segment.echo). */
export interface EchoTrack {
  raw: Int16Array;
  playback: Array<{ start: number; end: number }>;
}
