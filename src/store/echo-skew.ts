import type { Database } from 'better-sqlite3';

/**
 * The two clocks' skew kept across restarts, one row per pair of cards (the echo canceller's
 * microphone and speaker, as named in the config): what hark measured last, settled, on that pair.
 * Times are wall clock (epoch ms).
 */
export interface EchoSkewRow {
  ppm: number;
  errorPpm: number;
  measuredAt: number;
}

/**
 * Under this skew (ppm) the speaker and the microphone keep one time: the echo canceller's filter
 * follows that much by itself, so the reference is not resampled (echo/drift.ts), and a pair kept at
 * it has been measured, with nothing to follow.
 */
export const ONE_CLOCK_PPM = 2;

/** The key of a pair of cards: the capture device and the playback device, as configured. */
export function cardPair(captureDevice: string, speechDevice: string): string {
  return `${captureDevice} -> ${speechDevice}`;
}

export class EchoSkewTable {
  constructor(
    private readonly db: Database,
    private readonly wallNow: () => number = Date.now,
  ) {}

  get(cards: string): EchoSkewRow | null {
    const row = this.db.prepare('SELECT ppm, error_ppm AS errorPpm, measured_at AS measuredAt FROM echo_skew WHERE cards = ?').get(cards) as
      EchoSkewRow | undefined;
    return row ?? null;
  }

  save(cards: string, ppm: number, errorPpm: number): void {
    this.db
      .prepare(
        'INSERT INTO echo_skew (cards, ppm, error_ppm, measured_at) VALUES (?, ?, ?, ?) ON CONFLICT (cards) DO UPDATE SET ppm = excluded.ppm, error_ppm = excluded.error_ppm, measured_at = excluded.measured_at',
      )
      .run(cards, ppm, errorPpm, this.wallNow());
  }
}
