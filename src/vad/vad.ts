/**
 * Voice activity detection: one 512-sample (32 ms) frame of 16 kHz s16 in, a speech probability out.
 * Implementations keep their own state between frames (Silero's recurrent state, WebRTC's carry),
 * so frames must be given in stream order; reset() starts a new stream.
 */
export interface Vad {
  readonly name: 'silero' | 'webrtc';
  /** Probability in [0, 1] that the frame holds speech. `frame.length` must be FRAME_SAMPLES. */
  process(frame: Int16Array): Promise<number>;
  reset(): void;
  /**
   * A second stream of the same engine (its own state, the model shared): the capture path's second
   * hearing while hark plays (talk-over-ear.ts). Closing it leaves this one open; absent: none.
   */
  twin?(): Vad;
  close(): Promise<void>;
}
