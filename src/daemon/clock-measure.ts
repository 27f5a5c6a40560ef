import type { Clock } from '../core/clock.js';
import { ONE_CLOCK_PPM } from '../store/echo-skew.js';

/** What the echo canceller knows of the two clocks now (EchoStatus: its clocks, and whether hark's sound reaches the microphone). */
export interface ClockReading {
  ppm: number | null;
  errorPpm: number | null;
  followedPpm: number;
  unfollowable: boolean;
  noEcho: boolean;
}

/** How `hark clocks` ended. */
export type ClockVerdict =
  | { kind: 'followed'; ppm: number; errorPpm: number }
  | { kind: 'one-clock'; ppm: number; errorPpm: number }
  | { kind: 'too-far'; ppm: number }
  | { kind: 'no-echo' }
  | { kind: 'unsettled'; ppm: number | null; errorPpm: number | null };

/**
 * A skew is settled for keeping at this standard error (ppm): the canceller keeps it for these cards
 * at the same figure (echo/create.ts), so a `followed` verdict means the store has it.
 */
export const SETTLED_ERROR_PPM = 1;

/** The verdict a reading gives, or null while it is still measuring. Pure. */
export function clockVerdict(r: ClockReading): ClockVerdict | null {
  if (r.noEcho) return { kind: 'no-echo' };
  if (r.unfollowable && r.ppm !== null) return { kind: 'too-far', ppm: r.ppm };
  if (r.ppm === null || r.errorPpm === null || r.errorPpm > SETTLED_ERROR_PPM) return null;
  if (r.followedPpm !== 0) return { kind: 'followed', ppm: r.ppm, errorPpm: r.errorPpm };
  // Known to a quarter of a ppm and under the 2 ppm the canceller's filter follows by itself.
  if (Math.abs(r.ppm) + r.errorPpm < ONE_CLOCK_PPM && r.errorPpm <= 0.25) return { kind: 'one-clock', ppm: r.ppm, errorPpm: r.errorPpm };
  return null;
}

export interface MeasureDeps {
  clock: Clock;
  /** The canceller's reading now; null when there is no canceller. */
  read: () => ClockReading | null;
  /** Play `ms` of the measuring sound; resolves when it has played. */
  play: (ms: number) => Promise<unknown>;
  /** Give up after this much (ms); the last reading is the verdict's. */
  timeoutMs: number;
  /** Each clip played, with the reading after it (the command prints progress). */
  onProgress?: (r: ClockReading | null, elapsedMs: number) => void;
}

/** Clips of this length are played back to back, each followed by a look at the reading. */
export const CLIP_MS = 4000;

/**
 * Play the measuring sound until the canceller has the skew settled (or knows the two are one clock,
 * or that it cannot follow them), or the time is up. The verdict is the canceller's own: nothing here
 * measures, so what `hark clocks` reports is what `hark run` would do with these cards.
 */
export async function measureClocks(d: MeasureDeps): Promise<ClockVerdict> {
  const start = d.clock.now();
  for (;;) {
    const elapsed = d.clock.now() - start;
    if (elapsed >= d.timeoutMs) break;
    await d.play(Math.min(CLIP_MS, Math.max(500, d.timeoutMs - elapsed)));
    const r = d.read();
    d.onProgress?.(r, d.clock.now() - start);
    if (r === null) return { kind: 'no-echo' };
    const v = clockVerdict(r);
    // The canceller's first search may miss a card that is slow to start: no echo counts from the third clip on.
    if (v && !(v.kind === 'no-echo' && d.clock.now() - start < 3 * CLIP_MS)) return v;
  }
  const r = d.read();
  return { kind: 'unsettled', ppm: r?.ppm ?? null, errorPpm: r?.errorPpm ?? null };
}
