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

export class DoubleTalkDetector {
  private readonly o: DoubleTalkOptions;
  private readonly decay: number;
  /** The reference's energy held with the room's decay. */
  private env = 0;
  /** Residual energy per unit of that envelope on frames of hark's sound alone, in dB. */
  private coupling = INITIAL_DB;
  /** Frames left of the hold after the last frame that stood clear. */
  private held = 0;

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
   * its room may still ring), `out` what the canceller left. Returns whether it is the near end.
   */
  update(ref: Int16Array | null, out: Int16Array): boolean {
    const pRef = ref ? power(ref) : 0;
    this.env = Math.max(pRef, this.env * this.decay);
    const pOut = power(out);
    if (pOut <= this.o.floorPower) {
      // Silence while hark plays is a residual of at most the floor: the coupling learns that much
      // (a headset, a far speaker: nothing comes back, and a person must not wait for a residual).
      if (this.env > 0) this.coupling = Math.min(this.coupling, this.coupling + (10 * Math.log10(this.o.floorPower / this.env) - this.coupling) * DOWN);
      this.held = 0;
      return false;
    }
    if (this.env <= 0) return true;
    const ratio = 10 * Math.log10(pOut / this.env);
    if (ratio > this.coupling + this.o.marginDb) this.held = Math.round(this.o.holdMs / this.o.frameMs);
    else if (this.held > 0) this.held--;
    const near = this.held > 0;
    // A frame read as the near end teaches nothing: a person's voice is not hark's residual.
    if (!near) this.coupling += (ratio - this.coupling) * (ratio < this.coupling ? DOWN : UP);
    return near;
  }

  /** hark has been quiet long enough for its room to fall silent: forget the envelope (not the coupling). */
  quiet(): void {
    this.env = 0;
    this.held = 0;
  }
}

function power(x: Int16Array): number {
  let e = 0;
  for (let i = 0; i < x.length; i++) e += x[i]! * x[i]!;
  return e / Math.max(1, x.length);
}
