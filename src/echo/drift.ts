import type { EchoReference } from './reference.js';
import { fineLag, stretchedReference } from './fine-lag.js';
import { SkewEstimator, type SkewReading } from './skew.js';

/**
 * The echo canceller across two clocks: the speaker's (what hark plays, as the reference counts it)
 * and the microphone's. When they differ by ppm, hark's echo slides by ppm × time against the
 * reference; speexdsp's filter follows about 1-2 ppm of that, and a 60 s ring 20 ppm off met a filter
 * a few samples stale at every "Pasta timer done." (test/echo/clock-drift.test.ts).
 *
 * So the skew is measured (skew.ts, from fine-lag.ts's lags while hark plays) and the reference
 * handed to the filter is resampled onto the microphone's clock by it, with speexdsp's resampler:
 * the frame at pipeline position q gets the reference from position refPos(q) + drift(q), each of
 * its samples (1 + ppm·1e-6) of the reference further on. drift(q) grows by ppm·1e-6 a microphone
 * sample from where the delay was last set; a new reading of the skew carries on from where the old
 * one had got to, so the filter never meets a seam. What the skew explains, the delay tracker never
 * sees as a move (EchoStage takes the delay in use as the delay less the drift).
 *
 * Until the skew is known well enough (its standard error under 1 ppm) the reference is what it was:
 * rendered sample for sample, as with one clock.
 */

/** The addon's resampler (speexdsp's resample.c, hark-aec's Resampler). */
export interface NativeResampler {
  setRatio(num: number, den: number): void;
  setPhase(frac: number): void;
  process(input: Int16Array, output: Int16Array): [number, number];
  reset(): void;
  readonly inputLatency: number;
  close(): void;
}

/** speexdsp's ratio is num / 2^24: steps of 0.06 ppm. */
export const RATIO_DEN = 1 << 24;
/** speexdsp's quality 5: an 80-tap filter, 91 % of the band (7.3 kHz here), ~100 dB stop. */
export const RESAMPLER_QUALITY = 5;
/** A skew is followed once its standard error is under this (ppm) or an eighth of the skew. */
const FOLLOW_ERROR_PPM = 1;
/** A skew under this (ppm) is left to the filter, which follows 1-2 ppm itself (until one over it is followed). */
const MIN_FOLLOWED_PPM = 2;
/** Skews past this (ppm) are no crystal's: a card that lies about its rate (reported, not followed). */
export const MAX_FOLLOWED_PPM = 1000;
/** The fine lag: a second of microphone, searched this many samples either side of where the last one was. */
const FINE_WINDOW = 16000;
const FINE_REACH = 6;
/** The first fine lag after a move: this far either side of the delay tracker's estimate. */
const FINE_LOCK_REACH = 48;
/**
 * After this many first locks found nothing there, the next look reaches FINE_WIDE_REACH (24 ms):
 * the tracker can settle on a reflection or a near miss that the filter, 384 ms long, still cancels
 * (at RT60 400 / 80 ms it took 70.9 ms for an echo at 82), and no skew was read for 35 s.
 */
const FINE_LOCK_MISSES = 3;
const FINE_WIDE_REACH = 384;
const FINE_MIN_STRENGTH = 0.2;
const STRAY_SAMPLES = 1.5;
const ORDER = 16;

export interface ClockFollowerStatus extends SkewReading {
  /** The skew the reference is resampled by now (ppm; 0: not resampled). */
  followedPpm: number;
  /** The skew is beyond what a crystal does (MAX_FOLLOWED_PPM): not followed. */
  unfollowable: boolean;
}

export class ClockFollower {
  readonly skew = new SkewEstimator();
  /** The ppm in use (a whole number of 1/2^24 steps) and the drift at `pivot` (samples) it grows from. */
  private ppm = 0;
  private acc = 0;
  private pivot = 0;
  /** The resampler's stream: the reference position its next output falls at (NaN: none yet). */
  private next = NaN;
  private cursor = 0;
  private readonly input: Int16Array;
  /** The last fine lag (samples, as y = pipeline position − reference position) and where it was taken. */
  private lastLag: { y: number; q: number } | null = null;
  private unfollowable = false;
  /** Fine lags in a row found off the line. */
  private strays = 0;
  /** First locks in a row (no lag to search near) that found nothing. */
  private lockMisses = 0;
  /** Where the frame after the last rendered starts (pipeline position). */
  private q = 0;

  constructor(
    private readonly resampler: NativeResampler | null,
    private readonly reference: EchoReference,
    frameSamples: number,
  ) {
    this.input = new Int16Array(Math.ceil(frameSamples * 1.01) + 16);
  }

  /**
   * Start from a skew measured before (the same pair of cards, kept across hark's restarts): the
   * reference is resampled by it from the first frame, instead of after the 8-16 s of hark's sound the
   * estimator needs, in which a filter meeting an echo sliding 150 ppm lets hark's ring through. The
   * estimator measures afresh all the same, and its first reading is taken up as any later one (the
   * drift carried on, the filter kept). Outside what is followed (under MIN_FOLLOWED_PPM, past
   * MAX_FOLLOWED_PPM) it is ignored. Before the first frame only.
   */
  seed(ppm: number): boolean {
    if (!this.resampler || !Number.isFinite(ppm) || Math.abs(ppm) < MIN_FOLLOWED_PPM || Math.abs(ppm) > MAX_FOLLOWED_PPM) return false;
    const num = Math.round(RATIO_DEN * (1 + ppm * 1e-6));
    this.ppm = (num / RATIO_DEN - 1) * 1e6;
    this.acc = 0;
    this.pivot = this.q;
    this.next = NaN;
    this.resampler.setRatio(num, RATIO_DEN);
    return true;
  }

  /** The reference is resampled now (a skew is followed). */
  get following(): boolean {
    return this.ppm !== 0;
  }

  /** Samples the echo has slid at pipeline position q since the delay was last set (positive: the speaker is fast, the echo comes sooner). */
  drift(q: number): number {
    return this.acc + (q - this.pivot) * this.ppm * 1e-6;
  }

  /** The delay was set afresh at pipeline position q (from the tracker's estimate, which already holds the slide so far). */
  aligned(q: number): void {
    this.acc = 0;
    this.pivot = q;
    this.breakRun();
  }

  /** The echo path's offset changed without the delay being set (a new aplay process, a card restart): lags start a new run. */
  breakRun(): void {
    this.lastLag = null;
    this.strays = 0;
    this.skew.breakRun();
  }

  /**
   * Fill `out` with the reference for the frame whose integer reference position is `refPos` at
   * pipeline position q: as it was played with no skew followed, resampled by it otherwise. False
   * (and `out` zeroed) when nothing was played there.
   */
  render(refPos: number, q: number, out: Int16Array): boolean {
    // A change of rate (follow) pivots where the next frame starts.
    this.q = q + out.length;
    if (!this.following || !this.resampler) return this.reference.render(refPos, out);
    const at = refPos + this.drift(q);
    const ratio = 1 + this.ppm * 1e-6;
    const span = this.reference.spans(Math.floor(at) - 1, Math.ceil(at + out.length * ratio) + 1).length > 0;
    if (!(Math.abs(at - this.next) < 1e-3)) this.start(at, ratio);
    this.reference.render(this.cursor, this.input);
    const [used, made] = this.resampler.process(this.input, out);
    if (made < out.length) out.fill(0, made);
    this.cursor += used;
    this.next = at + out.length * ratio;
    if (!span) out.fill(0);
    return span;
  }

  /**
   * A lag measurement, after each of the delay tracker's searches: the last second of microphone
   * (`read` fills it from pipeline position `from`) against the reference as played, near the lag
   * expected. `delaySamples`: the delay in use at q, for the first lock after a move.
   */
  measure(from: number, read: (position: number, out: Int16Array) => void, zeroPosAt: (q: number) => number, delaySamples: number): 'started' | null {
    const raw = new Int16Array(FINE_WINDOW);
    read(from, raw);
    const mid = from + FINE_WINDOW / 2;
    // The lag expected: the last one carried on by the skew followed, or the delay in use.
    const guess = this.skew.reading().ppm;
    const expectY = this.lastLag ? this.lastLag.y - (mid - this.lastLag.q) * (guess ?? this.ppm) * 1e-6 : null;
    const z0 = zeroPosAt(from);
    const zp = Math.round(z0);
    const centre = Math.round(expectY !== null ? expectY - (from - zp) : delaySamples);
    // The lag expected is as good as the skew it was carried on by: before a reading, a skew of
    // 200 ppm moves it 3.2 samples a second (live at +150 ppm, after a few seconds of quiet the lag
    // had left a fixed reach and was never found again for 90 s).
    const quietSec = this.lastLag ? (mid - this.lastLag.q) / 16000 : 0;
    const reach =
      expectY !== null
        ? Math.min(FINE_LOCK_REACH, FINE_REACH + Math.ceil(quietSec * (guess === null ? 3.2 : 0.2)))
        : this.lockMisses >= FINE_LOCK_MISSES
          ? FINE_WIDE_REACH
          : FINE_LOCK_REACH;
    // Read on the clock the skew best known says (fine-lag.ts): the lag found is the one at `mid`.
    const length = FINE_WINDOW + 2 * reach + ORDER;
    const readAt = guess ?? this.ppm;
    const ref = stretchedReference((p, out) => this.reference.render(p, out), zp - centre - reach - ORDER, length, FINE_WINDOW / 2 + reach + ORDER, readAt);
    const found = fineLag(Float32Array.from(raw), ref, centre, reach);
    if (!found || found.strength < FINE_MIN_STRENGTH) {
      if (expectY === null) this.lockMisses++;
      return null;
    }
    this.lockMisses = 0;
    // mic[i] (position from + i, reference time z0 + i) holds the reference at zp + i − lag.
    const y = from - zp + found.lag;
    // A lag off the line by more than a sample locked onto another peak (a tone's next cycle, a
    // reflection): left out, unless it keeps being found there (the echo did move).
    // (Only once the line is known: before it, a skew of 100 ppm moves the lag 1.6 samples a second.)
    if (expectY !== null && guess !== null && Math.abs(y - expectY) > STRAY_SAMPLES && ++this.strays < 3) return null;
    if (this.strays >= 3) this.breakRun();
    this.strays = 0;
    this.lastLag = { y, q: mid };
    this.skew.lag(mid / 16, y / 16, readAt);
    return this.follow();
  }

  /** The capture's and the playback's counts, for the second witness (skew.ts). */
  captured(samples: number, atMs: number): void {
    this.skew.captured(samples, atMs, 16000);
  }

  status(): ClockFollowerStatus {
    return { ...this.skew.reading(), followedPpm: this.ppm, unfollowable: this.unfollowable };
  }

  close(): void {
    this.resampler?.close();
  }

  /**
   * Take up a new reading of the skew, carrying the drift on from where it had got to. 'started':
   * the first time since the delay was set, when the echo has slid since then by the skew times the
   * time; the reference is moved by all of it, and the filter (which learnt the echo where it was
   * as it slid) must start over there (EchoStage).
   */
  private follow(): 'started' | null {
    const r = this.skew.reading();
    // Followed once known to an eighth of itself (or to 1 ppm) from eight lags or more: what is left,
    // the filter follows. (Six lags of a ring's tones once gave −50 ± 10 ppm in a room of one clock.)
    if (r.ppm === null || r.errorPpm === null || r.lags < 8 || r.errorPpm > Math.max(FOLLOW_ERROR_PPM, Math.abs(r.ppm) / 8) || !this.resampler) return null;
    this.unfollowable = Math.abs(r.ppm) > MAX_FOLLOWED_PPM;
    if (this.unfollowable) return null;
    // What the filter follows by itself is left to it, and so is a skew not yet told apart from none
    // (one clock): a first one is taken up from MIN_FOLLOWED_PPM.
    const significant = Math.abs(r.ppm) >= MIN_FOLLOWED_PPM;
    if (!this.following && !significant) return null;
    const num = Math.round(RATIO_DEN * (1 + r.ppm * 1e-6));
    const ppm = (num / RATIO_DEN - 1) * 1e6;
    if (ppm === this.ppm) return null;
    const q = this.q;
    const wasFollowing = this.following;
    // The drift so far is kept; from the last frame's end on it grows at the new rate. The stream
    // carries on (the resampler keeps its phase across a change of ratio). Taken up afresh, the
    // drift is what the skew says the echo has slid since the delay was set.
    const slid = (q - this.pivot) * ppm * 1e-6;
    // Under half a sample of slide the filter has taken in stride: it carries on from where it is.
    const restart = !wasFollowing && Math.abs(slid) >= 0.5;
    this.acc = wasFollowing ? this.drift(q) : restart ? slid : 0;
    this.pivot = q;
    this.ppm = ppm;
    this.resampler.setRatio(num, RATIO_DEN);
    if (wasFollowing) return null;
    this.next = NaN;
    return restart ? 'started' : null;
  }

  private start(at: number, ratio: number): void {
    const rs = this.resampler!;
    rs.reset();
    // Warm the filter up on the input before `at`: 2 × its latency of outputs, thrown away, from a
    // start placed so that the first kept output falls exactly at `at`.
    const warm = 2 * rs.inputLatency;
    const start = at + rs.inputLatency - warm * ratio;
    this.cursor = Math.floor(start);
    rs.setPhase(start - this.cursor);
    const scratch = new Int16Array(warm);
    const input = new Int16Array(Math.ceil(warm * 1.01) + 16);
    this.reference.render(this.cursor, input);
    const [used] = rs.process(input, scratch);
    this.cursor += used;
  }
}
