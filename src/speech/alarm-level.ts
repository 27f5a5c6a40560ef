import type { Clock } from '../core/clock.js';
import { SAMPLE_RATE } from '../audio/pcm.js';

/**
 * How loud a timer's ring is played (pure: a clock and numbers). A ring at talking volume is lost
 * under an extractor fan, so the ring has a level of its own above the voice, starts higher in a
 * louder room, and steps up each time it rings unanswered, never past the technician's maximum. A
 * new timer starts again from the room's level: the steps are counted per timer by the timer keeper
 * (the `ring` of a speak effect), not here.
 *
 * Levels are gains in dB over what hark plays for its voice (speech.volume, speech.earconVolume):
 * the earcon and the spoken name of one ring get the same gain.
 */
export interface AlarmSettings {
  /** The ring over the voice in a quiet room, dB. */
  alarmDb: number;
  /** Each ring unanswered is this much louder than the one before, dB. */
  alarmStepDb: number;
  /** The most the ring is raised over the voice, dB (the technician's maximum). */
  alarmMaxDb: number;
  /** The room's noise floor (dBFS at the microphone) at or under which the room adds nothing; above it the ring starts dB for dB louder. */
  alarmQuietDb: number;
}

/** The room's noise floor as the capture path hears it: dBFS, or null while it is not known (capture down). */
export interface RoomNoise {
  floorDb(): number | null;
}

export class AlarmLevel<R extends RoomNoise = RoomNoise> {
  constructor(
    private readonly s: AlarmSettings,
    readonly room: R,
  ) {}

  /** The gain (dB over the voice) of a timer's ring after `unanswered` rings of it went unanswered. */
  gainDb(unanswered: number): number {
    const floor = this.room.floorDb();
    const fromRoom = floor === null ? 0 : Math.max(0, floor - this.s.alarmQuietDb);
    const want = this.s.alarmDb + fromRoom + this.s.alarmStepDb * Math.max(0, unanswered);
    return round1(Math.min(this.s.alarmMaxDb, want));
  }
}

/**
 * Follows the room's noise floor (the fan, the hum) from the microphone's frames, as the echo stage
 * does (src/echo/double-talk.ts): quick to fall to a quieter frame, slow to rise (1.5 dB a second of
 * audio), so a cook's voice held for seconds barely lifts it and the room's quiet moments pull it
 * back. Frames while hark's own sound may be in the microphone teach it nothing: the ring must not
 * learn its own loudness as the room's and climb on it (the floor learnt before holds through a long
 * answer or a ring). With no frame at all for STALE_MS of the clock (the microphone is down) the floor
 * is not known and the ring starts at its quiet-room level.
 */
const FALL = 0.2;
/** Per 32 ms frame: 1.5 dB a second. Counted in frames, not clock time: capture hands frames over in bursts. */
const RISE = Math.pow(10, (1.5 * 0.032) / 10);
const STALE_MS = 10_000;

export class RoomFloor implements RoomNoise {
  /** Mean square, full scale 1; null before the first frame heard with hark silent. */
  private power: number | null = null;
  /** When the last frame came, hark playing or not: the microphone is up. */
  private heardMs = -Infinity;

  constructor(private readonly clock: Clock) {}

  /** One 32 ms microphone frame's RMS (0..1 of full scale), and whether hark's sound may be in it. */
  frame(level: number, harkPlaying: boolean): void {
    const now = this.clock.now();
    const stale = now - this.heardMs > STALE_MS;
    this.heardMs = now;
    if (stale) this.power = null;
    if (harkPlaying || !Number.isFinite(level)) return;
    const p = Math.max(level * level, 1e-12);
    if (this.power === null) this.power = p;
    else if (p < this.power) this.power += (p - this.power) * FALL;
    else this.power = Math.min(p, this.power * RISE);
  }

  floorDb(): number | null {
    if (this.power === null || this.clock.now() - this.heardMs > STALE_MS) return null;
    return round1(10 * Math.log10(this.power));
  }
}

/**
 * Where a raised ring is held: just under full scale. A ring is never clipped: a clipped earcon is
 * a square wave whose harmonics fill the band a "stop" is said in, and what the canceller leaves of
 * them hides the word (docs/echo.md, "A louder ring").
 */
export const RING_CEILING = Math.round(0.95 * 32767);
/** The limiter looks this far ahead (twice: a running minimum, then a running mean), so its gain is down before a peak. */
const LOOK_MS = 2;
/** After a peak, the limiter's gain comes back 20 dB in this long: slow beside the tone, quick beside a word. */
const RELEASE_MS = 60;

/** What a stream of chunks raised one by one (a Wyoming voice's audio) carries from one chunk to the next: the limiter's hold. */
export interface GainCarry {
  held?: number;
}

/**
 * `pcm` raised by `gainDb` and held under RING_CEILING by a look-ahead peak limiter: where the raised
 * sound would pass the ceiling its gain is turned down smoothly, before the peak and back after it,
 * so a steady tone stays the tone it was (at the most its peak allows) and a word keeps its loudness
 * on all but its peaks. Pure: a gain of 0 dB hands `pcm` back as it is.
 */
export function withGain(pcm: Int16Array, gainDb: number, carry?: GainCarry): Int16Array {
  if (gainDb === 0) return pcm;
  const g = Math.pow(10, gainDb / 20);
  const n = pcm.length;
  const look = Math.max(1, Math.round((LOOK_MS * SAMPLE_RATE) / 1000));
  const rise = Math.pow(10, 20 / 20 / ((RELEASE_MS * SAMPLE_RATE) / 1000));
  // What each sample allows, taken as the least over the `look` samples up to it, rising no faster than the release.
  const allow = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const peak = Math.abs(pcm[i]! * g);
    allow[i] = peak > RING_CEILING ? RING_CEILING / peak : 1;
  }
  const held = runningMin(allow, look);
  // A stream's next chunk goes on from where the last one's hold was: no jump back up at each seam.
  if (carry?.held !== undefined && n > 0) held[0] = Math.min(held[0]!, carry.held * rise);
  for (let i = 1; i < n; i++) held[i] = Math.min(held[i]!, held[i - 1]! * rise);
  if (carry && n > 0) carry.held = held[n - 1]!;
  // The gain at each sample: the mean of what the next `look` samples are held at. Each sample's own
  // allowance is in every one of those terms, so no sample passes the ceiling.
  const out = new Int16Array(n);
  let sum = 0;
  for (let i = 0; i < Math.min(look, n); i++) sum += held[i]!;
  for (let i = 0; i < n; i++) {
    const have = Math.min(look, n - i);
    const gain = sum / have;
    out[i] = Math.max(-RING_CEILING, Math.min(RING_CEILING, Math.round(pcm[i]! * g * gain)));
    sum -= held[i]!;
    if (i + look < n) sum += held[i + look]!;
  }
  return out;
}

/** For each i, the least of x[i - w + 1 .. i] (a monotonic queue: one pass). */
function runningMin(x: Float64Array, w: number): Float64Array {
  const out = new Float64Array(x.length);
  const q = new Int32Array(x.length);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < x.length; i++) {
    while (tail > head && x[q[tail - 1]!]! >= x[i]!) tail--;
    q[tail++] = i;
    if (q[head]! <= i - w) head++;
    out[i] = x[q[head]!]!;
  }
  return out;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
