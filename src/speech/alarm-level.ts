import type { Clock } from '../core/clock.js';

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

/** `pcm` raised by `gainDb`, held at full scale: a ring louder than the sample format allows is clipped, as a loud small speaker clips. */
export function withGain(pcm: Int16Array, gainDb: number): Int16Array {
  if (gainDb === 0) return pcm;
  const g = Math.pow(10, gainDb / 20);
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i]! * g)));
  return out;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
