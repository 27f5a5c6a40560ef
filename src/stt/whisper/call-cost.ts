/**
 * What a whisper.cpp call costs on this device right now, learnt from the last calls: a straight
 * line through (seconds of audio, ms of work). A call has a fixed part (the decoder, the prompt,
 * buffers) and a part that grows with the audio (the encoder's context is scaled to it), and both
 * move with the CPU's load — so the line is refitted on the recent calls, not configured. Pure.
 */
export class CallCost {
  private readonly calls: Array<{ sec: number; ms: number }> = [];

  constructor(
    /** Calls the line is fitted on (the most recent). */
    private readonly keep = 12,
    /** Fewer calls than this: no estimate (a first call on a cold model says little). */
    private readonly minCalls = 3,
  ) {}

  record(samples: number, ms: number, sampleRate = 16_000): void {
    this.calls.push({ sec: samples / sampleRate, ms });
    if (this.calls.length > this.keep) this.calls.shift();
  }

  /** Expected ms of work for a call on `samples`, or null before there is enough to go on. */
  expect(samples: number, sampleRate = 16_000): number | null {
    const n = this.calls.length;
    if (n < this.minCalls) return null;
    const sec = samples / sampleRate;
    let sx = 0;
    let sy = 0;
    for (const c of this.calls) {
      sx += c.sec;
      sy += c.ms;
    }
    const mx = sx / n;
    const my = sy / n;
    let sxx = 0;
    let sxy = 0;
    for (const c of this.calls) {
      sxx += (c.sec - mx) ** 2;
      sxy += (c.sec - mx) * (c.ms - my);
    }
    // All calls of one length (or nearly): the cost scales with the audio from there.
    if (sxx < 0.25) return mx > 0 ? Math.round((my * Math.max(sec, 0.5)) / Math.max(mx, 0.5)) : Math.round(my);
    let slope = sxy / sxx;
    let base = my - slope * mx;
    // Noise can tilt the line out of sense: work never shrinks with more audio, nor goes below zero.
    if (slope < 0) {
      slope = 0;
      base = my;
    } else if (base < 0) {
      base = 0;
      slope = my / mx;
    }
    return Math.round(base + slope * sec);
  }
}
