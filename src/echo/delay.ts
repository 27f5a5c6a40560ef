import { applyFilter, predictionFilter } from './whiten.js';
import { CrossCorrelation } from './xcorr.js';

/**
 * Finds how late hark's own sound reaches the microphone (the sound card's output + input buffering,
 * aplay's start-up, the air): the lag at which the reference best correlates with the microphone.
 *
 * Both signals are decimated (mean of `decimation` samples: 2 kHz by default, where most of speech's
 * and a ring's energy is) and kept for `windowMs`; the normalised cross-correlation is searched over
 * 0..maxLagMs. Its peak says how clearly hark's sound is in the microphone at all; where it is comes
 * from the same correlation of both signals pre-whitened (whiten.ts), whose peaks are as narrow as
 * the room's arrivals whatever hark played (a tone's plain correlation is a hump ±20 ms wide). A lag is
 * only believed when that whitened peak is clear (LOCATED_OVER_RMS) and two estimates in a row agree,
 * so near-end speech, a noisy stretch or a reverberant one where no arrival stands out does not move
 * the canceller's alignment.
 * Pure and allocation-free per frame; one search (both correlations by FFT, xcorr.ts: ~0.5 ms here)
 * runs at most once per `everyMs` of reference.
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

/**
 * A lag this close to the best whitened correlation (as a fraction of it), earlier, is preferred to it
 * (the direct path before a reflection as strong or a little stronger)...
 */
const EARLIEST_WITHIN = 0.85;
/**
 * ...when it is an arrival of its own: between it and the best, the correlation falls below this
 * fraction of the best for DIP_MS in a row (two peaks, not one broad one)...
 */
const DIP_BELOW = 0.5;
const DIP_MS = 3;
/**
 * ...and as far after the best as it is before it, within MIRROR_MS, there is no peak MIRROR_OF its
 * height. A sound that repeats itself makes peaks on both sides of the true lag: a voice's pitch
 * (±9 ms for espeak's), the beat left of the timer's tone after whitening (every ~13 ms). The room's
 * arrivals come only after the direct path.
 */
const MIRROR_MS = 1.5;
const MIRROR_OF = 0.75;
/**
 * The whitening filter: 16 taps at 2 kHz (8 ms) flattens a tone and speech's formants; the white-noise
 * correction limits it to about 20 dB, so a pure tone is not inverted into its own rounding noise.
 */
const WHITEN_ORDER = 16;
const WHITEN_FLOOR = 0.01;
/**
 * The whitened peak locates hark's sound when it stands this many times above the whitened
 * correlation's RMS over all lags. Below it (a stretch where the room's reverberation outweighs the
 * direct sound, RT60 600 ms; the quiet end of a reply) no arrival stands out, and the best lag was
 * found anywhere from 5 to 150 ms off in the simulated kitchens (test/echo/kitchen.ts); clear peaks
 * were within 2 ms. Such a search still says hark's sound is there (heard), just not where.
 */
const LOCATED_OVER_RMS = 3.5;

export const DELAY_DEFAULTS: DelayEstimatorOptions = {
  sampleRate: 16000,
  decimation: 8,
  windowMs: 1500,
  maxLagMs: 200,
  everyMs: 1000,
  minCorrelation: 0.3,
  agreeMs: 1.5,
};

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
  /** The same, whitened (whiten.ts), and the whitening filter. */
  private readonly micWhite: Float32Array;
  private readonly refWhite: Float32Array;
  private readonly whitener = new Float64Array(WHITEN_ORDER + 1);
  /** The last search's whitened correlation at each lag, and its peak (0: the search located nothing). */
  private readonly corr: Float32Array;
  /** Both raw correlations of the last search by lag (plain, whitened), and what computes them. */
  private readonly xcPlain: Float64Array;
  private readonly xcWhite: Float64Array;
  private readonly xcorr: CrossCorrelation;
  private peak = 0;
  /** Decimated samples written so far (ring index = count % length). */
  private count = 0;
  private acc = { mic: 0, ref: 0, n: 0 };
  /** Decimated samples since the last search, and how many of them had reference. */
  private sinceSearch = 0;
  private activeSince = 0;
  private candidate: DelayEstimate | null = null;
  private believed: DelayEstimate | null = null;
  /** Searches run over stretches that had reference (never reset): `heard` and `latest` tell what each found. */
  searches = 0;
  /** The last search found hark's sound in the microphone (a correlation of minCorrelation or more), whether or not it could tell where. */
  heard = false;

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
    this.micWhite = new Float32Array(this.mic.length);
    this.refWhite = new Float32Array(this.ref.length);
    this.xcPlain = new Float64Array(this.maxLag + 1);
    this.xcWhite = new Float64Array(this.maxLag + 1);
    this.xcorr = new CrossCorrelation(this.mic.length);
  }

  /** The last search's result when it found hark's sound and where (believed or not yet), else null. */
  get latest(): DelayEstimate | null {
    return this.candidate;
  }

  /** Two estimates within this many ms agree. */
  get agreeMs(): number {
    return this.o.agreeMs;
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
    const searched = this.search();
    this.heard = searched !== null && searched.correlation >= this.o.minCorrelation;
    if (!this.heard || searched!.lagMs === null) {
      this.candidate = null;
      return null;
    }
    const found: DelayEstimate = { lagMs: searched!.lagMs, correlation: searched!.correlation };
    // A clear peak is believed at once the first time (nothing better is known); after that a move
    // needs two estimates in a row that agree.
    const agrees =
      (this.believed === null && found.correlation >= 2 * this.o.minCorrelation) ||
      (this.candidate && Math.abs(this.candidate.lagMs - found.lagMs) <= this.o.agreeMs);
    this.candidate = found;
    if (!agrees) return null;
    if (this.believed && Math.abs(this.believed.lagMs - found.lagMs) <= this.o.agreeMs / 2) {
      this.believed = found;
      return null;
    }
    this.believed = found;
    return found;
  }

  /**
   * One search over the window: the plain normalised cross-correlation's peak over lags 0..maxLag (the
   * mic lags the reference), which says how much of the microphone is hark's sound; and where that
   * sound arrives, from the whitened correlation when its peak is clear (else lagMs is null).
   */
  search(): { correlation: number; lagMs: number | null } | null {
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
    // The reference's whitening filter, over all of it the search reads; the microphone goes through
    // the same filter, so the room between the two is unchanged.
    predictionFilter(r, 0, len, WHITEN_ORDER, WHITEN_FLOOR, this.whitener);
    const mw = this.micWhite;
    const rw = this.refWhite;
    applyFilter(m, this.whitener, mw);
    applyFilter(r, this.whitener, rw);
    const start = len - w;
    let emic = 0;
    let emicW = 0;
    let eref = 0;
    let erefW = 0;
    for (let i = start; i < len; i++) {
      emic += m[i]! * m[i]!;
      emicW += mw[i]! * mw[i]!;
      eref += r[i]! * r[i]!;
      erefW += rw[i]! * rw[i]!;
    }
    if (emic === 0) return null;
    this.xcorr.correlate(m, r, mw, rw, start, len, this.maxLag, this.xcPlain, this.xcWhite);
    let best = -1;
    let bestW = 0;
    let bestLag = 0;
    let sumSq = 0;
    const corr = this.corr;
    corr.fill(0);
    for (let lag = 0; lag <= this.maxLag; lag++) {
      if (lag > 0) {
        // The reference window slides one step into the past: gains the older sample, loses the newest.
        const add = r[start - lag]!;
        const drop = r[len - lag]!;
        eref += add * add - drop * drop;
        const addW = rw[start - lag]!;
        const dropW = rw[len - lag]!;
        erefW += addW * addW - dropW * dropW;
      }
      if (eref <= 0) continue;
      const xc = this.xcPlain[lag]!;
      const xw = this.xcWhite[lag]!;
      const c = Math.abs(xc) / Math.sqrt(emic * eref);
      if (c > best) best = c;
      const g = emicW > 0 && erefW > 0 ? Math.abs(xw) / Math.sqrt(emicW * erefW) : 0;
      corr[lag] = g;
      sumSq += g * g;
      if (g > bestW) {
        bestW = g;
        bestLag = lag;
      }
    }
    this.peak = 0;
    if (best < 0) return null;
    if (bestW === 0 || bestW < LOCATED_OVER_RMS * Math.sqrt(sumSq / (this.maxLag + 1))) return { correlation: best, lagMs: null };
    this.peak = bestW;
    // The direct path is the earliest arrival; a room reflection can correlate as well or a little
    // better later on. An estimate late by a reflection puts the direct path before the canceller's
    // filter, where nothing cancels it; early only costs filter tail. So the earliest lag nearly as good
    // as the best, and apart from it, is taken (at its own peak).
    for (let lag = 0; lag < bestLag; lag++) {
      if (corr[lag]! < EARLIEST_WITHIN * bestW || !this.dipBetween(lag, bestLag, DIP_BELOW * bestW, this.dipRun)) continue;
      let peak = lag;
      while (peak + 1 < bestLag && corr[peak + 1]! > corr[peak]!) peak++;
      if (this.mirrored(peak, bestLag)) {
        lag = peak;
        continue;
      }
      bestLag = peak;
      break;
    }
    return { correlation: best, lagMs: (bestLag * this.o.decimation * 1000) / this.o.sampleRate };
  }

  /**
   * The last search placed hark's sound at `lagMs` as well as where it placed it (within MIRROR_MS,
   * MIRROR_OF the peak's height). Then a peak elsewhere is no sign the echo left `lagMs`: the timer's
   * tone, whitened, still repeats itself every ~13 ms, and which repeat comes out highest is down to
   * the room (seen 12-13 ms early on a fixed path, at correlation 0.6-0.8).
   */
  supports(lagMs: number): boolean {
    if (this.peak === 0) return false;
    const perMs = this.o.sampleRate / this.o.decimation / 1000;
    const at = Math.round(lagMs * perMs);
    const tol = Math.round(MIRROR_MS * perMs);
    for (let lag = Math.max(0, at - tol); lag <= Math.min(this.maxLag, at + tol); lag++) if (this.corr[lag]! >= MIRROR_OF * this.peak) return true;
    return false;
  }

  /** The last search's correlation has a peak as far after `best` as `early` is before it, nearly as high as at `early` (see MIRROR_OF). */
  private mirrored(early: number, best: number): boolean {
    const tol = Math.round((MIRROR_MS * this.o.sampleRate) / this.o.decimation / 1000);
    const at = 2 * best - early;
    let m = 0;
    for (let lag = Math.max(best + 1, at - tol); lag <= Math.min(this.maxLag, at + tol); lag++) m = Math.max(m, this.corr[lag]!);
    return m >= MIRROR_OF * this.corr[early]!;
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
    this.heard = false;
    this.peak = 0;
    this.mic.fill(0);
    this.ref.fill(0);
  }
}
