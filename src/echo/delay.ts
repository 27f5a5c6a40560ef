/**
 * Finds how late hark's own sound reaches the microphone (the sound card's output + input buffering,
 * aplay's start-up, the air): the lag at which the reference best correlates with the microphone.
 *
 * Both signals are decimated (mean of `decimation` samples: 2 kHz by default, where most of speech's
 * and a ring's energy is) and kept for `windowMs`; the normalised cross-correlation is searched over
 * 0..maxLagMs. A lag is only believed when the peak is clear (minCorrelation) and two estimates in a
 * row agree, so near-end speech or a noisy stretch does not move the canceller's alignment.
 * Pure and allocation-free per frame; one search costs (window x lags) multiply-adds (1.2 M at the
 * defaults), run at most once per `everyMs` of reference.
 */
export interface DelayEstimatorOptions {
  sampleRate: number;
  decimation: number;
  windowMs: number;
  maxLagMs: number;
  everyMs: number;
  minCorrelation: number;
  /** Two estimates agree when within this many ms. */
  agreeMs: number;
}

/** A lag this close to the best correlation (as a fraction of it), earlier, is preferred to it... */
const EARLIEST_WITHIN = 0.85;
/**
 * ...when it is an arrival of its own: between it and the best, the correlation falls below this
 * fraction of the best for DIP_MS in a row. A tone keyed on and off (the timer's beeps) correlates
 * with itself over a broad shoulder (85 % of the peak 18 ms early for its 120 ms beeps), broken only
 * by the tone's own half-period notches, far shorter than DIP_MS: a shoulder, not an earlier path.
 */
const DIP_BELOW = 0.5;
const DIP_MS = 3;

export const DELAY_DEFAULTS: DelayEstimatorOptions = { sampleRate: 16000, decimation: 8, windowMs: 1500, maxLagMs: 200, everyMs: 1000, minCorrelation: 0.3, agreeMs: 1.5 };

export interface DelayEstimate {
  lagMs: number;
  correlation: number;
}

export class DelayEstimator {
  private readonly o: DelayEstimatorOptions;
  private readonly w: number;
  private readonly maxLag: number;
  /** DIP_MS in decimated samples. */
  private readonly dipRun: number;
  private readonly mic: Float32Array;
  private readonly ref: Float32Array;
  private readonly micLin: Float32Array;
  private readonly refLin: Float32Array;
  /** The last search's correlation at each lag. */
  private readonly corr: Float32Array;
  /** Decimated samples written so far (ring index = count % length). */
  private count = 0;
  private acc = { mic: 0, ref: 0, n: 0 };
  /** Decimated samples since the last search, and how many of them had reference. */
  private sinceSearch = 0;
  private activeSince = 0;
  private candidate: DelayEstimate | null = null;
  private believed: DelayEstimate | null = null;
  /** Searches run over stretches that had reference (never reset): `latest` tells what each found. */
  searches = 0;

  constructor(opts: Partial<DelayEstimatorOptions> = {}) {
    this.o = { ...DELAY_DEFAULTS, ...opts };
    const rate = this.o.sampleRate / this.o.decimation;
    this.w = Math.round((this.o.windowMs * rate) / 1000);
    this.maxLag = Math.round((this.o.maxLagMs * rate) / 1000);
    this.dipRun = Math.max(2, Math.round((DIP_MS * rate) / 1000));
    this.mic = new Float32Array(this.w + this.maxLag);
    this.ref = new Float32Array(this.w + this.maxLag);
    this.micLin = new Float32Array(this.mic.length);
    this.corr = new Float32Array(this.maxLag + 1);
    this.refLin = new Float32Array(this.ref.length);
  }

  /** The last search's result when it found a clear peak (believed or not yet), else null. */
  get latest(): DelayEstimate | null {
    return this.candidate;
  }

  /** The lag last believed, or null before the first. */
  get estimate(): DelayEstimate | null {
    return this.believed;
  }

  /**
   * Feed one stretch of microphone and the reference played at the same instant (lag 0). Returns a
   * newly believed estimate when this stretch completed one, else null.
   */
  push(mic: Int16Array, refAtZeroLag: Int16Array | null, refActive: boolean): DelayEstimate | null {
    const d = this.o.decimation;
    const len = this.mic.length;
    for (let i = 0; i < mic.length; i++) {
      this.acc.mic += mic[i]!;
      if (refAtZeroLag) this.acc.ref += refAtZeroLag[i]!;
      if (++this.acc.n === d) {
        const k = this.count % len;
        this.mic[k] = this.acc.mic / d;
        this.ref[k] = this.acc.ref / d;
        this.count++;
        this.acc.mic = this.acc.ref = 0;
        this.acc.n = 0;
        this.sinceSearch++;
        if (refActive) this.activeSince++;
      }
    }
    const rate = this.o.sampleRate / d;
    const every = Math.round((this.o.everyMs * rate) / 1000);
    // The first search comes as soon as half a second of reference is in (the window fills later).
    const first = this.believed === null && this.candidate === null;
    const enough = this.count >= this.maxLag + Math.round(0.5 * rate);
    if (!enough || this.sinceSearch < (first ? Math.round(0.5 * rate) : every)) return null;
    // Search only when most of the window had reference: a search over silence finds nothing.
    const worth = this.activeSince >= this.sinceSearch / 2;
    this.sinceSearch = 0;
    this.activeSince = 0;
    if (!worth) return null;
    this.searches++;
    const found = this.search();
    if (!found || found.correlation < this.o.minCorrelation) {
      this.candidate = null;
      return null;
    }
    // A clear peak is believed at once the first time (nothing better is known); after that a move
    // needs two estimates in a row that agree.
    const agrees = (this.believed === null && found.correlation >= 2 * this.o.minCorrelation) || (this.candidate && Math.abs(this.candidate.lagMs - found.lagMs) <= this.o.agreeMs);
    this.candidate = found;
    if (!agrees) return null;
    if (this.believed && Math.abs(this.believed.lagMs - found.lagMs) <= this.o.agreeMs / 2) {
      this.believed = found;
      return null;
    }
    this.believed = found;
    return found;
  }

  /** Normalised cross-correlation peak over lags 0..maxLag (the mic lags the reference). */
  search(): DelayEstimate | null {
    const len = this.mic.length;
    const w = Math.min(this.w, this.count - this.maxLag);
    // Unroll the rings into straight arrays (oldest first) so the inner loop has no modulo.
    const m = this.micLin;
    const r = this.refLin;
    const first = this.count - len;
    for (let i = 0; i < len; i++) {
      const k = first + i;
      m[i] = k >= 0 ? this.mic[k % len]! : 0;
      r[i] = k >= 0 ? this.ref[k % len]! : 0;
    }
    const start = len - w;
    let emic = 0;
    for (let i = start; i < len; i++) emic += m[i]! * m[i]!;
    if (emic === 0) return null;
    let eref = 0;
    for (let i = start; i < len; i++) eref += r[i]! * r[i]!;
    let best = -1;
    let bestLag = 0;
    const corr = this.corr;
    corr.fill(-1);
    for (let lag = 0; lag <= this.maxLag; lag++) {
      if (lag > 0) {
        // The reference window slides one step into the past: gains the older sample, loses the newest.
        const add = r[start - lag]!;
        const drop = r[len - lag]!;
        eref += add * add - drop * drop;
      }
      if (eref <= 0) continue;
      let xc = 0;
      for (let i = start; i < len; i++) xc += m[i]! * r[i - lag]!;
      const c = Math.abs(xc) / Math.sqrt(emic * eref);
      corr[lag] = c;
      if (c > best) {
        best = c;
        bestLag = lag;
      }
    }
    if (best < 0) return null;
    // The direct path is the earliest arrival; a room reflection (or a ring's periodic chime) can
    // correlate as well or a little better later on. An estimate late by a reflection puts the direct
    // path before the canceller's filter, where nothing cancels it; early only costs filter tail. So the
    // earliest lag nearly as good as the best is taken.
    for (let lag = 0; lag < bestLag; lag++) {
      if (corr[lag]! >= EARLIEST_WITHIN * best && this.dipBetween(lag, bestLag, DIP_BELOW * best, this.dipRun)) {
        bestLag = lag;
        best = corr[lag]!;
        break;
      }
    }
    return { lagMs: (bestLag * this.o.decimation * 1000) / this.o.sampleRate, correlation: best };
  }

  /** The correlation stays below `below` for `run` lags in a row somewhere strictly between a and b. */
  private dipBetween(a: number, b: number, below: number, run: number): boolean {
    let inRow = 0;
    for (let lag = a + 1; lag < b; lag++) {
      inRow = this.corr[lag]! < below ? inRow + 1 : 0;
      if (inRow >= run) return true;
    }
    return false;
  }

  reset(): void {
    this.count = 0;
    this.sinceSearch = this.activeSince = 0;
    this.acc = { mic: 0, ref: 0, n: 0 };
    this.candidate = this.believed = null;
    this.mic.fill(0);
    this.ref.fill(0);
  }
}
