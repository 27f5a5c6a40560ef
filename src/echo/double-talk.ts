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
 * (someone else); one within it is explained by hark.
 *
 * A residual can also jump because the canceller lost the echo: the card ran dry and restarted without
 * hark hearing of it, and the echo now comes 20-60 ms later than the filter models. For the second or
 * two until the delay tracker re-aligns, the canceller takes nothing out, and its output (hark's whole
 * echo) stood 30 dB over the residual it had learnt: read as a person, it opened a segment in 5 of 6
 * simulated kitchens. The echo stage says when that is so (EchoStage: trusted, then cancelling next to
 * nothing); then a frame is held against the microphone itself: the echo return loss (microphone over
 * the same envelope) is learnt on hark's frames, and a frame whose microphone holds no more than
 * hark's echo (`LOST_MIC_DB` over it) is hark's sound. A person louder than that is the near end; one
 * under hark's uncancelled echo cannot be told from it until the canceller has it again.
 * Pure: no clock, no I/O.
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
/** While the canceller has lost the echo: a frame within this (dB) of what hark's echo alone gives the microphone is hark's. */
const LOST_MIC_DB = 2;
/** How fast the learnt return loss (the loudest of recent frames) lets go, dB a frame: 1 dB a second. */
const RETURN_LOSS_FALL = 0.032;

/** How the echo canceller is doing, as the echo stage sees it (DoubleTalkDetector.update). */
export type Cancelling = 'cancelling' | 'collapsed' | 'other';

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
  /** Microphone energy per unit of the envelope on frames of hark's sound alone, in dB (null: none yet). */
  private returnLoss: number | null = null;
  /** The canceller lost the echo (judgeLoss), and whether the microphone rose above the echo since it last cancelled. */
  private lost = false;
  private micRose = false;

  constructor(opts: Partial<DoubleTalkOptions> = {}) {
    this.o = { ...DOUBLE_TALK_DEFAULTS, ...opts };
    this.decay = Math.pow(10, (-6 * this.o.frameMs) / this.o.tailMs);
  }

  /** The coupling learnt, in dB (residual over reference), for the journal and tests. */
  get couplingDb(): number {
    return this.coupling;
  }

  /** The echo return loss learnt, in dB (microphone over reference), for tests; null before any. */
  get returnLossDb(): number | null {
    return this.returnLoss;
  }

  /**
   * One frame: `ref` the reference the canceller used for it (null: hark was silent at that instant,
   * its room may still ring), `out` what the canceller left, `mic` what it was given, `cancelling`
   * how the canceller is doing (EchoStage): 'cancelling' at its trusted level, 'collapsed' trusted a
   * moment ago and now taking next to nothing out, 'other' anything between.
   */
  update(ref: Int16Array | null, out: Int16Array, mic: Int16Array, cancelling: Cancelling): TalkVerdict {
    const pRef = ref ? power(ref) : 0;
    this.env = Math.max(pRef, this.env * this.decay);
    const pMic = power(mic);
    this.judgeLoss(cancelling, pMic);
    const pOut = power(out);
    this.follow(pOut);
    const floor = Math.max(this.o.floorPower, this.noise * this.quietGain);
    if (pOut <= floor) {
      // Nothing above the room while hark plays: its residual is below the room's noise (had it been
      // as loud, the frame would stand 3 dB over it). The coupling learns so much (a headset, a far
      // speaker: nothing comes back, and a person must not wait for a residual).
      // (A floor worn to 0 by minutes of digital silence bounds nothing: the fixed floor does.)
      const bound = this.noise > 0 ? this.noise / 4 : this.o.floorPower;
      if (this.env > 0) {
        this.coupling = Math.min(this.coupling, this.coupling + (10 * Math.log10(bound / this.env) - this.coupling) * DOWN);
        // The canceller took all of hark's sound out: the microphone held hark's echo and the room.
        this.learnReturnLoss(pMic, pRef);
      }
      this.held = 0;
      return 'quiet';
    }
    if (this.env <= 0) return 'near';
    // What stands above the room's own noise is what hark (or a person) adds.
    const ratio = 10 * Math.log10(Math.max(pOut - this.noise, 1e-9) / this.env);
    if (ratio > this.coupling + this.o.marginDb) {
      // Nothing learnt from it: the canceller's residual is not what it leaves when it works, and the
      // return loss is taken from frames the canceller explains.
      if (this.lost && !this.micAboveEcho(pMic)) {
        this.held = 0;
        return 'hark';
      }
      this.held = Math.round(this.o.holdMs / this.o.frameMs);
    } else if (this.held > 0) this.held--;
    const near = this.held > 0;
    // A frame read as the near end teaches nothing: a person's voice is not hark's residual.
    if (!near) {
      this.coupling += (ratio - this.coupling) * (ratio < this.coupling ? DOWN : UP);
      this.learnReturnLoss(pMic, pRef);
    }
    return near ? 'near' : 'hark';
  }

  /**
   * Has the canceller lost the echo, or met a person? Both take its cancellation from trusted to next
   * to nothing; only a person louder than hark's echo can do that, and they raise the microphone above
   * what the echo alone gives it. So the collapse is the echo's when the microphone has not risen above
   * the echo since the canceller last cancelled; from then on until it cancels again, a frame is hark's
   * unless its microphone stands above the echo.
   */
  private judgeLoss(cancelling: Cancelling, pMic: number): void {
    if (cancelling === 'cancelling') {
      this.lost = false;
      this.micRose = false;
      return;
    }
    if (this.micAboveEcho(pMic)) this.micRose = true;
    if (cancelling === 'collapsed' && !this.micRose && this.returnLoss !== null) this.lost = true;
  }

  /** The microphone holds more than hark's echo alone gives it (false before the echo's level is known). */
  private micAboveEcho(pMic: number): boolean {
    if (this.returnLoss === null || this.env <= 0) return false;
    return this.micOverEnvelopeDb(pMic) > this.returnLoss + LOST_MIC_DB;
  }

  /** The microphone above the room's noise, over the envelope of what hark played (dB; env > 0). */
  private micOverEnvelopeDb(pMic: number): number {
    return 10 * Math.log10(Math.max(pMic - this.noise, 1e-9) / this.env);
  }

  /**
   * A frame of hark's sound alone: how loud the microphone is for the envelope. The loudest of the
   * last seconds, not a mean: a ring's beeps build up in a reverberant room, and the room's tail after
   * each word is far quieter for the same envelope. Only frames where hark plays at the envelope's
   * level (not its decay), and not a frame at the room's own noise (hark's sound not reaching it).
   */
  private learnReturnLoss(pMic: number, pRef: number): void {
    if (pMic <= this.noise * this.quietGain || pRef < this.env / 2) return;
    const r = this.micOverEnvelopeDb(pMic);
    this.returnLoss = this.returnLoss === null ? r : Math.max(r, this.returnLoss - RETURN_LOSS_FALL);
  }

  /**
   * The canceller's filter starts over (the echo moved and it re-aligned): what it leaves of hark's
   * sound is for it to learn again. The coupling learnt before stood 20-30 dB under the residual of a
   * filter still converging, and as frames read as a person teach nothing it never rose: every beep of
   * a ring was a person, and opened a segment, for good (a card restarted with the echo 64 ms later).
   * So it starts from uncancelled sound again, as at hark's first sound. The room's echo level stays.
   */
  restarted(): void {
    this.coupling = INITIAL_DB;
    this.held = 0;
    this.lost = false;
    this.micRose = false;
  }

  /**
   * hark has been quiet long enough for its room to fall silent: forget the envelope (not the
   * coupling). `out`: the frame the microphone gave meanwhile, for the room's noise floor.
   */
  quiet(out?: Int16Array): void {
    this.env = 0;
    this.held = 0;
    this.lost = false;
    this.micRose = false;
    if (out) this.follow(power(out));
  }

  private follow(p: number): void {
    // The first frame sets it.
    if (this.noise === 0) this.noise = Math.max(p, 1);
    else if (p < this.noise) this.noise += (p - this.noise) * NOISE_FALL;
    else this.noise = Math.min(p, this.noise * NOISE_RISE);
  }
}

/** Mean square of s16 samples. */
export function power(x: Int16Array): number {
  let e = 0;
  for (let i = 0; i < x.length; i++) e += x[i]! * x[i]!;
  return e / Math.max(1, x.length);
}
