/**
 * The two clocks' skew: how much faster hark's speaker counts its samples than its microphone
 * (ppm; positive: the speaker is fast, and hark's echo comes a little sooner every second). A USB
 * microphone with the Pi's headphone jack, HDMI or an I2S board, or a second USB card, are two
 * crystals, typically 20-200 ppm apart: the echo's delay slides by ppm × time, and a filter learnt a
 * minute ago meets hark's sound moved by a few samples.
 *
 * Two witnesses, both fitted as straight lines over time:
 *  - the echo's own lag, measured to a fraction of a sample while hark plays (fine-lag.ts): its slope
 *    is the skew itself. Each run (from a new aplay process, a card restart, a move of the delay) has
 *    its own offset; the slope is fitted across all of them, so what was measured is kept across
 *    restarts;
 *  - the capture's and the playback's sample counts against the monotonic clock: each card's own
 *    rate against the host's. Their difference is the skew as the counts see it; hark's long-lived
 *    aplay is fed by the host's clock, so playback's count shows the speaker's rate only where the
 *    card makes it (a player that blocks on a slow card).
 *
 * Pure: times (ms) come in as arguments.
 */

export interface SkewOptions {
  /** Lags older than this (ms of microphone time) are forgotten: a crystal's rate moves with its temperature. */
  windowMs: number;
  /** At most this many lags are kept (the oldest go first). */
  maxPoints: number;
  /** Lags and span (ms) before a slope is given at all. */
  minPoints: number;
  minSpanMs: number;
  /** Standard error (ppm) under which the skew counts as settled. */
  settledPpm: number;
}

export const SKEW_DEFAULTS: SkewOptions = { windowMs: 600_000, maxPoints: 600, minPoints: 5, minSpanMs: 4000, settledPpm: 0.3 };

interface Point {
  t: number;
  y: number;
  run: number;
  /** The skew (ppm) the lag was read at (fine-lag.ts, stretchedReference); absent: 0 (the counts). */
  readAt?: number;
}

/**
 * A lag read on a clock this far (ppm) from the skew now known is left out of the fit, once enough
 * lags read nearer it are there: read against the reference as played at 200 ppm, a lag sat up to
 * 1.6 samples off the line (the echo slid 3.2 samples under its second), and the first half minute
 * of them held the skew 2-12 ppm low. At 20 ppm off, the slide under a second is 0.3 of a sample.
 */
const READ_AT_TOLERANCE_PPM = 20;

/** A fitted slope (y per t) with its standard error, from points in runs that each have their own offset. */
export interface Slope {
  slope: number;
  stdError: number;
  points: number;
  spanMs: number;
}

/**
 * Least squares of y on t with one offset per run and one slope for all (the within-run slope), once,
 * then again without the points whose residual is more than four robust deviations out (a lag that
 * locked onto another reflection for one search).
 */
export function pooledSlope(points: readonly Point[], minResidual = 0): Slope | null {
  const fit = (pts: readonly Point[]) => {
    const runs = new Map<number, { n: number; t: number; y: number }>();
    for (const p of pts) {
      const r = runs.get(p.run) ?? { n: 0, t: 0, y: 0 };
      r.n++;
      r.t += p.t;
      r.y += p.y;
      runs.set(p.run, r);
    }
    let sxx = 0;
    let sxy = 0;
    for (const p of pts) {
      const r = runs.get(p.run)!;
      const dt = p.t - r.t / r.n;
      sxx += dt * dt;
      sxy += dt * (p.y - r.y / r.n);
    }
    if (sxx <= 0) return null;
    const slope = sxy / sxx;
    const residuals = pts.map((p) => {
      const r = runs.get(p.run)!;
      return p.y - r.y / r.n - slope * (p.t - r.t / r.n);
    });
    const dof = pts.length - runs.size - 1;
    const ss = residuals.reduce((s, v) => s + v * v, 0);
    return { slope, residuals, stdError: dof > 0 ? Math.sqrt(ss / dof / sxx) : Infinity };
  };
  const first = fit(points);
  if (!first) return null;
  const sorted = first.residuals.map(Math.abs).sort((a, b) => a - b);
  const mad = sorted[Math.floor(sorted.length / 2)]! * 1.4826;
  const limit = Math.max(4 * mad, minResidual);
  const kept = points.filter((_, i) => Math.abs(first.residuals[i]!) <= limit);
  const second = kept.length < points.length ? fit(kept) : first;
  const best = second ?? first;
  const ts = (second ? kept : points).map((p) => p.t);
  return { slope: best.slope, stdError: best.stdError, points: ts.length, spanMs: Math.max(...ts) - Math.min(...ts) };
}

/** Points on a line over time, in runs, the oldest forgotten: what both witnesses keep. */
class Line {
  private points: Point[] = [];
  private run = 0;

  constructor(private readonly o: SkewOptions) {}

  add(t: number, y: number, readAt = 0): void {
    this.points.push({ t, y, run: this.run, readAt });
    const from = t - this.o.windowMs;
    if (this.points.length > this.o.maxPoints || this.points[0]!.t < from)
      this.points = this.points.filter((p, i) => p.t >= from && i >= this.points.length - this.o.maxPoints);
  }

  /** What follows has its own offset (the slope carries on). */
  breakRun(): void {
    this.run++;
  }

  fit(minResidual: number, keep?: (p: Point) => boolean): Slope | null {
    const points = keep ? this.points.filter(keep) : this.points;
    if (points.length < this.o.minPoints) return null;
    const s = pooledSlope(points, minResidual);
    return s && s.points >= this.o.minPoints && s.spanMs >= this.o.minSpanMs ? s : null;
  }
}

export interface SkewReading {
  /** The speaker against the microphone (ppm; positive: the speaker is fast), from the echo's lag; null before it can be said. */
  ppm: number | null;
  /** Its standard error (ppm), and whether that is under settledPpm. */
  errorPpm: number | null;
  settled: boolean;
  /** Fine lags it rests on. */
  lags: number;
  /** The second witness: the capture's and the playback's rates against the monotonic clock (ppm), null before a span of them. */
  captureVsClockPpm: number | null;
  playbackVsClockPpm: number | null;
}

export class SkewEstimator {
  private readonly o: SkewOptions;
  private readonly lags: Line;
  private readonly capture: Line;
  private readonly playback: Line;
  private cached: Slope | null = null;
  private dirty = false;
  /** The counts' rates, fitted again only after a new count (status is read every frame). */
  private rates: { capture: number | null; playback: number | null } = { capture: null, playback: null };
  private ratesDirty = false;
  private countsSeen = 0;

  constructor(opts: Partial<SkewOptions> = {}) {
    this.o = { ...SKEW_DEFAULTS, ...opts };
    this.lags = new Line(this.o);
    // The counts' lines: one point a period; their windows are the lags' (the same crystals).
    this.capture = new Line({ ...this.o, maxPoints: 4 * this.o.maxPoints, minPoints: 20 });
    this.playback = new Line({ ...this.o, maxPoints: 4 * this.o.maxPoints, minPoints: 20 });
  }

  /**
   * hark's sound was found `lagMs` after it was played, in the microphone at `atMs` (ms of its
   * timeline), read against the reference on a clock `readAtPpm` off the microphone's.
   */
  lag(atMs: number, lagMs: number, readAtPpm = 0): void {
    this.lags.add(atMs, lagMs, readAtPpm);
    this.dirty = true;
  }

  /** The echo path's offset changed (a new aplay process, the card restarted, the delay moved): the slope carries on. */
  breakRun(): void {
    this.lags.breakRun();
  }

  /**
   * The capture stream had delivered `samples` (since it started) when a period reached hark at
   * `atMs` on the monotonic clock. A restarted recorder starts a new run.
   */
  captured(samples: number, atMs: number, sampleRate: number): void {
    // Arrival minus what the samples say: a line whose slope is the clock's rate against the card's.
    this.capture.add(atMs, atMs - (samples * 1000) / sampleRate);
    this.ratesDirty = true;
  }

  capturedRestart(): void {
    this.capture.breakRun();
  }

  /** The player handed over `samples` (since its process started), due to sound at `atMs`. A new process starts a new run. */
  playedOut(samples: number, atMs: number, sampleRate: number): void {
    this.playback.add(atMs, atMs - (samples * 1000) / sampleRate);
    this.ratesDirty = true;
  }

  playbackRestart(): void {
    this.playback.breakRun();
  }

  /** Ppm the speaker is off the microphone, rounded to what the filter would notice; 0 before it is known. */
  get ratioPpm(): number {
    return this.reading().ppm ?? 0;
  }

  reading(): SkewReading {
    if (this.dirty) {
      // A lag is good to a few hundredths of a sample; a residual under 0.01 ms is never an outlier.
      const all = this.lags.fit(0.01);
      // Again on the lags read near the skew it gives, if there are enough of them.
      const ppm = all ? -all.slope * 1e6 : 0;
      const near = all && this.lags.fit(0.01, (p) => Math.abs((p.readAt ?? 0) - ppm) <= READ_AT_TOLERANCE_PPM);
      this.cached = near ?? all;
      this.dirty = false;
    }
    const s = this.cached;
    // A card fast against the clock delivers its samples ahead of it: the line falls. Refitted at
    // most every 40th reading (status is read every frame): the witness is coarse, and a fit of
    // 2400 counts is not free.
    const rate = (line: Line) => {
      const f = line.fit(1);
      return f ? -f.slope * 1e6 : null;
    };
    if (this.ratesDirty && (this.countsSeen++ % 40 === 0 || this.rates.capture === null)) {
      this.rates = { capture: rate(this.capture), playback: rate(this.playback) };
      this.ratesDirty = false;
    }
    return {
      // The lag shrinks when the speaker is fast: −slope (ms per ms) in ppm.
      ppm: s ? -s.slope * 1e6 : null,
      errorPpm: s ? s.stdError * 1e6 : null,
      settled: s !== null && s.stdError * 1e6 <= this.o.settledPpm,
      lags: s?.points ?? 0,
      captureVsClockPpm: this.rates.capture,
      playbackVsClockPpm: this.rates.playback,
    };
  }
}
