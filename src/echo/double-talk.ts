/**
 * Is what is left in the microphone after the canceller hark's own sound, or somebody talking?
 *
 * In a reverberant kitchen the canceller leaves a residual (the tail its filter cannot reach, the
 * frames where it is still learning) loud enough for the VAD to take it for speech. That residual
 * follows hark's sound: it rises with what hark plays and dies away with the room's reverberation
 * after it. A person talking over hark does not: their voice comes on top of it.
 *
 * So each frame's residual is compared with what hark's sound explains: the reference's energy held
 * with the room's decay (a peak envelope falling 60 dB over `tailMs`), times a coupling learnt from
 * the frames that are hark's sound alone. A frame more than `marginDb` above that is the near end
 * (someone else); one within it is explained by hark. Pure: no clock, no I/O.
 */
export interface DoubleTalkOptions {
  frameMs: number;
  /** The room's decay the envelope allows for (ms to fall 60 dB); longer than any kitchen's RT60. */
  tailMs: number;
  /** How far above the explained residual a frame must be to be the near end. */
  marginDb: number;
  /** Frames quieter than this (mean square of s16 samples) are explained whatever the reference: silence. */
  floorPower: number;
  /**
   * Once a frame stands clear of hark's residual, the next ones are the same voice for this long: a
   * word's louder vowel can sit within the margin where hark is loud, and must neither be taken for
   * hark nor teach the coupling.
   */
  holdMs: number;
}

export const DOUBLE_TALK_DEFAULTS: DoubleTalkOptions = { frameMs: 32, tailMs: 800, marginDb: 8, floorPower: 100, holdMs: 250 };

/**
 * Learning rates of the coupling (a fraction of the gap, in dB, a frame). It follows the loudest of
 * hark's residual, not its mean: quick to rise to a louder frame that is still hark's, slow to fall
 * (0.6 s), as the residual swings 20 dB between a word and the room's ring after it.
 */
const UP = 0.5;
const DOWN = 0.05;
/**
 * Before it has heard anything: louder than the room can return what hark plays uncancelled (a
 * speaker beside the microphone, the room's reflections adding up), so hark's first sound is not
 * taken for a person; it falls to the real residual within a second (DOWN).
 */
const INITIAL_DB = 10;

/** What a frame's residual is while hark's sound may be in it. */
export type TalkVerdict =
  /** Explained by hark's sound: not speech, whatever the VAD makes of it. */
  | 'hark'
  /** Standing clear of hark's residual: someone talking over it. */
  | 'near'
  /** At the room's own noise floor: nothing to explain, the VAD decides. */
  | 'quiet';

/**
 * The room's noise floor (the fan, the hum) is followed in every frame, hark playing or not: quick to
 * fall to a quieter frame, slow to rise (1.5 dB a second), so a voice or hark's residual held for
 * seconds barely lifts it and its quiet moments pull it back. A frame within QUIET_DB of it is the
 * room, not hark's residual: in a room where hark's speaker does not reach the microphone (a headset,
 * a speaker across the kitchen) the fan must not be learnt as hark's residual. It was, and as the
 * envelope swung with a ring's beeps the coupling learnt on the fan rose until it explained away the
 * quieter half of a cook's command (test/echo/talk-over-ring.test.ts).
 */
const NOISE_FALL = 0.2;
const NOISE_RISE = Math.pow(10, 0.05 / 10);
const QUIET_DB = 6;

export class DoubleTalkDetector {
  private readonly o: DoubleTalkOptions;
  private readonly decay: number;
  private readonly quietGain = Math.pow(10, QUIET_DB / 10);
  /** The reference's energy held with the room's decay. */
  private env = 0;
  /** Residual energy per unit of that envelope on frames of hark's sound alone, in dB. */
  private coupling = INITIAL_DB;
  /** Frames left of the hold after the last frame that stood clear. */
  private held = 0;
  /** The room's noise floor (mean square); 0 before the first frame. */
  private noise = 0;

  constructor(opts: Partial<DoubleTalkOptions> = {}) {
    this.o = { ...DOUBLE_TALK_DEFAULTS, ...opts };
    this.decay = Math.pow(10, (-6 * this.o.frameMs) / this.o.tailMs);
  }

  /** The coupling learnt, in dB (residual over reference), for the journal and tests. */
  get couplingDb(): number {
    return this.coupling;
  }

  /**
   * One frame: `ref` the reference the canceller used for it (null: hark was silent at that instant,
   * its room may still ring), `out` what the canceller left.
   */
  update(ref: Int16Array | null, out: Int16Array): TalkVerdict {
    const pRef = ref ? power(ref) : 0;
    this.env = Math.max(pRef, this.env * this.decay);
    const pOut = power(out);
    this.follow(pOut);
    const floor = Math.max(this.o.floorPower, this.noise * this.quietGain);
    if (pOut <= floor) {
      // Nothing above the room while hark plays: its residual is below the room's noise (had it been
      // as loud, the frame would stand 3 dB over it). The coupling learns so much (a headset, a far
      // speaker: nothing comes back, and a person must not wait for a residual).
      // (A floor worn to 0 by minutes of digital silence bounds nothing: the fixed floor does.)
      const bound = this.noise > 0 ? this.noise / 4 : this.o.floorPower;
      if (this.env > 0) this.coupling = Math.min(this.coupling, this.coupling + (10 * Math.log10(bound / this.env) - this.coupling) * DOWN);
      this.held = 0;
      return 'quiet';
    }
    if (this.env <= 0) return 'near';
    // What stands above the room's own noise is what hark (or a person) adds.
    const ratio = 10 * Math.log10(Math.max(pOut - this.noise, 1e-9) / this.env);
    if (ratio > this.coupling + this.o.marginDb) this.held = Math.round(this.o.holdMs / this.o.frameMs);
    else if (this.held > 0) this.held--;
    const near = this.held > 0;
    // A frame read as the near end teaches nothing: a person's voice is not hark's residual.
    if (!near) this.coupling += (ratio - this.coupling) * (ratio < this.coupling ? DOWN : UP);
    return near ? 'near' : 'hark';
  }

  /**
   * hark has been quiet long enough for its room to fall silent: forget the envelope (not the
   * coupling). `out`: the frame the microphone gave meanwhile, for the room's noise floor.
   */
  quiet(out?: Int16Array): void {
    this.env = 0;
    this.held = 0;
    if (out) this.follow(power(out));
  }

  private follow(p: number): void {
    // The first frame sets it.
    if (this.noise === 0) this.noise = Math.max(p, 1);
    else if (p < this.noise) this.noise += (p - this.noise) * NOISE_FALL;
    else this.noise = Math.min(p, this.noise * NOISE_RISE);
  }
}

function power(x: Int16Array): number {
  let e = 0;
  for (let i = 0; i < x.length; i++) e += x[i]! * x[i]!;
  return e / Math.max(1, x.length);
}
