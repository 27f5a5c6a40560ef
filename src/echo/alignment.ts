/**
 * When the echo canceller's alignment (the bulk delay in front of its adaptive filter) should follow
 * the delay tracker, and when a peak away from it says the echo has left the filter. Pure: EchoStage
 * (canceller.ts) asks, and acts.
 */
export interface Alignment {
  /** The delay in use (ms): the filter starts marginMs before it and runs filterMs. */
  delayMs: number;
  marginMs: number;
  filterMs: number;
  /**
   * The sound comes through the long-lived aplay: one latency across clips, moved only when the card
   * ran dry or a new process started. Otherwise each clip is an aplay process of its own, with its own.
   */
  steady: boolean;
}

/** What the canceller knows beyond the estimate itself. */
export interface MoveEvidence {
  /** The last search found the echo at the delay in use as well (DelayEstimator.supports). */
  supportsDelay: boolean;
  /** The reference said the latency may have moved (a new aplay process, the card restarted). */
  expectMove: boolean;
  /** Searches in a row whose stretch was cancelled less than the canceller had settled at. */
  fallenSearches: number;
}

/**
 * Searches in a row that must show the cancellation fallen before an estimate within the filter's reach
 * counts as a moved echo: one does not (a second of quieter speech, a word said over hark; ERLE over a
 * second wanders 5-8 dB in a quiet kitchen).
 */
const FALLEN_SEARCHES = 2;

/**
 * An estimate this close to the delay in use is the estimate's own wander (live ±5-10 ms on a ring;
 * the filter starts marginMs early and is far longer): never worth the filter learning the room again.
 */
export function inPlace(a: Alignment, lagMs: number): boolean {
  return Math.abs(lagMs - a.delayMs) < a.marginMs / 2;
}

/** From half the margin before the delay (the direct path still inside the filter) to half the filter after it (its tail still inside). */
export function withinReach(a: Alignment, lagMs: number): boolean {
  const d = lagMs - a.delayMs;
  return d > -a.marginMs / 2 && d < a.filterMs / 2;
}

/**
 * The filter takes an echo at `lagMs` as it stands, so the bulk delay is better left alone. With one
 * aplay per clip, whose every clip may sound at its own latency: only within the estimate's wander
 * (inPlace). With the long-lived aplay: also where the search found the echo at the delay in use as
 * well (a repeating sound's other peak), and anywhere within the filter's reach while the cancellation
 * holds. An estimate that moved and stands while the cancellation fell over FALLEN_SEARCHES searches is
 * a moved echo (the card ran dry for 64 ms: 27 dB fell to 16-19 for good, its tail past the filter's
 * end, and the canceller still called itself converged); so is any that moved after the reference said
 * the latency may have.
 */
export function covered(a: Alignment, lagMs: number, e: MoveEvidence): boolean {
  if (inPlace(a, lagMs)) return true;
  if (!a.steady) return false;
  if (e.supportsDelay) return true;
  if (e.expectMove) return false;
  return withinReach(a, lagMs) && e.fallenSearches < FALLEN_SEARCHES;
}

/**
 * A clear peak at `lagMs` says the echo is where the filter cannot reach it: with the long-lived aplay,
 * outside its reach and not found at the delay in use as well; with one aplay per clip, outside the
 * estimate's wander.
 */
export function outsideFilter(a: Alignment, lagMs: number, supportsDelay: boolean): boolean {
  return a.steady ? !withinReach(a, lagMs) && !supportsDelay : !inPlace(a, lagMs);
}
