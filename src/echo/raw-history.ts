/**
 * The raw microphone by pipeline position, as it was before the canceller, with a mark on each frame
 * where hark's sound was expected (a segment heard while hark played can store both
 * tracks). A ring of `historyMs`; the canceller also reads it back to learn the room at once when it
 * first finds the delay (EchoStage.catchUp).
 * Why: docs/decisions.md#a-segment-heard-over-hark-keeps-the-raw-microphone.
 */
export class RawHistory {
  private readonly raw: Int16Array;
  private readonly played: Uint8Array;
  private rawEnd = 0;

  constructor(
    private readonly frameSamples: number,
    historySamples: number,
  ) {
    const frames = Math.ceil(historySamples / frameSamples);
    this.raw = new Int16Array(frames * frameSamples);
    this.played = new Uint8Array(frames);
  }

  /** The pipeline position just past the newest sample kept. */
  get end(): number {
    return this.rawEnd;
  }

  /** Samples the ring holds. */
  get capacity(): number {
    return this.raw.length;
  }

  /** Keep a frame whose first sample sits at `position` (not marked as played until mark()). */
  keep(frame: Int16Array, position: number): void {
    const cap = this.raw.length;
    const at = position % cap;
    if (at + frame.length <= cap) this.raw.set(frame, at);
    else for (let i = 0; i < frame.length; i++) this.raw[(position + i) % cap] = frame[i]!;
    const f = this.frameSamples;
    for (let p = Math.floor(position / f); p * f < position + frame.length; p++) this.played[p % this.played.length] = 0;
    this.rawEnd = position + frame.length;
  }

  /** hark's sound was expected in the frame at `position`. */
  mark(position: number): void {
    this.played[Math.floor(position / this.frameSamples) % this.played.length] = 1;
  }

  /** Copy the kept samples from `position` into `out` (the caller keeps within the ring). */
  read(position: number, out: Int16Array): void {
    const cap = this.raw.length;
    for (let i = 0; i < out.length; i++) out[i] = this.raw[(position + i) % cap]!;
  }

  /** Raw microphone over [from, to) and the frames in it where hark's sound was expected, or null if none was. */
  track(from: number, to: number): { raw: Int16Array; playback: Array<{ start: number; end: number }> } | null {
    const f = this.frameSamples;
    const cap = this.raw.length;
    if (to <= from || to > this.rawEnd || from < this.rawEnd - cap) return null;
    const playback: Array<{ start: number; end: number }> = [];
    for (let p = Math.floor(from / f) * f; p < to; p += f) {
      if (!this.played[(p / f) % this.played.length]) continue;
      const s = Math.max(from, p) - from;
      const e = Math.min(to, p + f) - from;
      const last = playback[playback.length - 1];
      if (last && last.end === s) last.end = e;
      else playback.push({ start: s, end: e });
    }
    if (playback.length === 0) return null;
    const raw = new Int16Array(to - from);
    this.read(from, raw);
    return { raw, playback };
  }
}
