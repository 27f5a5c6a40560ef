/**
 * When the person stopped speaking, from how the segment closed. The response cascade counts its
 * timers from that moment, so the device and `hark replay` must work it out the same way: the device
 * with the hangover in force when the segment closed (shorter while a frame waits for a short
 * answer), replay from what the device stored with the segment
 * (docs/decisions.md#speechendat-is-stored-with-the-segment).
 */

/** What decides the silence a close waited out. */
export interface CloseSilence {
  /** The VAD hangover in force when the segment closed. */
  hangoverMs: number;
  /** The pause at which an early transcript was started (stt.preemptiveMs). */
  preemptiveMs: number;
}

/**
 * The silence at the end of a segment between the last word and the close: a hangover for a VAD
 * close; for an early close on a whole command, the pause that started the transcript it acted on;
 * none for a release, a split or the end of the input.
 */
export function trailingSilenceMs(closeReason: string | null | undefined, s: CloseSilence): number {
  if (closeReason === 'hangover') return s.hangoverMs;
  if (closeReason === 'complete-command') return s.preemptiveMs;
  return 0;
}

/** The moment the words ended: the close, less its trailing silence. */
export function speechEndAt(closedAt: number, trailingMs: number): number {
  return closedAt - trailingMs;
}
