import type { RawHistory } from './raw-history.js';

/** What a catch-up pass needs of the stage: the filter, the raw microphone and the reference at the alignment now in use. */
export interface CatchUpSource {
  frameSamples: number;
  /** Ms of raw microphone to run through the filter again. */
  catchUpMs: number;
  perMs: number;
  history: RawHistory;
  /** Samples processed since the recorder (re)started: a catch-up never reaches back past that (another timing). */
  processed: number;
  /** Clock ms of pipeline sample 0 since that restart (the earliest mapping, EchoStage.arrived). */
  anchorMs: number;
  /** Fill `out` with the reference for the microphone frame at pipeline position p and clock time atMs; false if nothing was played there. */
  render(atMs: number, p: number, out: Int16Array): boolean;
  process(mic: Int16Array, ref: Int16Array, out: Int16Array): void;
}

/**
 * Run the last catchUpMs of raw microphone, with the reference at the alignment now in use, through
 * the filter once more, up to the frame being processed (the one that ends at the raw history's end,
 * processed live right after). The output is thrown away; what the filter learns stays. From cold
 * this gets hark's first answer's second second cancelled 19-20 dB instead of 9
 * (test/echo/echo-stage.test.ts). Costs catchUpMs of canceller work at once, once.
 */
export function catchUp(s: CatchUpSource): void {
  const f = s.frameSamples;
  const rawEnd = s.history.end;
  const end = rawEnd - f;
  // Not past the raw history's start, nor before the recorder's restart (another timing).
  const start = Math.max(end - Math.round(s.catchUpMs * s.perMs), rawEnd - s.history.capacity, rawEnd - s.processed);
  if (end - start < f) return;
  const mic = new Int16Array(f);
  const ref = new Int16Array(f);
  const out = new Int16Array(f);
  for (let p = end - Math.floor((end - start) / f) * f; p + f <= end; p += f) {
    // That frame's clock time: the same mapping as now, rawEnd - p samples earlier.
    const atMs = s.anchorMs + (s.processed - (rawEnd - p)) / s.perMs;
    if (!s.render(atMs, p, ref)) continue;
    s.history.read(p, mic);
    s.process(mic, ref, out);
  }
}
