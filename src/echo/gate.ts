import type { Clock } from '../core/clock.js';

export type GateMode = 'raise' | 'gate' | 'off';

/** The echo: section's keys the gate reads (config.ts). */
export interface GateSettings {
  /**
   * cancel: the echo canceller takes hark's sound out of the mic (the gate stands in, as `fallback`,
   * until it is trusted); raise: lift the VAD threshold while hark plays; gate: hear nothing but the
   * button; off: trust the VAD.
   */
  mode: 'cancel' | GateMode;
  /** In cancel mode, the gate used while the canceller is not trusted (absent: raise). */
  fallback?: GateMode;
  /** The threshold while hark plays, in raise mode. */
  raiseThreshold: number;
  /** How long after the last sample the gate stays up (room echo, the sound card's buffer). */
  tailMs: number;
  /**
   * In `cancel` mode, the VAD threshold for a frame the trusted canceller says is someone talking over
   * hark (EchoCanceller.talkOver); absent, or not below the VAD's own: the VAD's own.
   */
  talkOverThreshold?: number;
}

/** The echo gate as the capture path asks it, frame by frame (EchoGate below; vad/pipeline.ts asks). */
export interface FrameGate {
  /**
   * The probability the segmenter sees; `personsSegment`: the frame is in a segment opened while hark
   * was silent; `fresh`: the second hearing's score of the frame (TalkOverEar), if it heard it.
   */
  adjust(prob: number, personsSegment?: boolean, fresh?: number): number;
  /**
   * The frame is hark's own sound and nothing more (adjust would make any probability 0): the VAD
   * need not hear it.
   */
  mutes?(personsSegment?: boolean): boolean;
  /** hark's sound may be in the microphone now. */
  readonly active?: boolean;
  /** adjust() has a use for the second hearing's score (`fresh`): absent or false, none is made. */
  readonly hearsTalkOver?: boolean;
}

/**
 * The second hearing (vad/talk-over-ear.ts: a state never carried more than a few seconds into someone
 * talking over hark) on a frame the canceller vouches for: at this score or more it lifts the frame by
 * itself. Over the drift, restart and ring rooms, hark's residual vouched for as a person (at +200 ppm)
 * held up to 0.67 three frames running, and a cook's "stop" reached 0.84 at the least (docs/echo.md).
 */
export const FRESH_TALK_OVER_THRESHOLD = 0.75;
/**
 * ...and under this, it withholds echo.talkOverThreshold's lift from the VAD's own score: that lift at
 * 0.2 is at its edge on hark's residual (the VAD's settled state scored one such burst 0.24), and added
 * to the second hearing's it opened a segment on hark's list at +200 ppm. 0.6 and 0.7 both held every
 * room; 0.5 did not (docs/echo.md).
 */
export const FRESH_TALK_OVER_AGREES = 0.6;

/** The gate in force: in cancel mode none while the canceller is trusted, else the fallback. */
export function gateMode(echo: GateSettings, cancelling: boolean): GateMode {
  if (echo.mode !== 'cancel') return echo.mode;
  return cancelling ? 'off' : (echo.fallback ?? 'raise');
}

/** The VAD threshold to apply: the configured one, or the raised one while hark's own sound may be in the mic. */
export function effectiveThreshold(active: boolean, echo: GateSettings, vadThreshold: number, cancelling = false): number {
  const mode = gateMode(echo, cancelling);
  if (!active || mode === 'off') return vadThreshold;
  if (mode === 'gate') return Infinity;
  return Math.max(vadThreshold, echo.raiseThreshold);
}

/** What the gate asks of the echo canceller in the capture path, frame by frame. */
export interface EchoCanceller {
  /** It has shown it cancels hark's sound (or that none reaches the microphone). */
  readonly trusted: boolean;
  /** The frame it just cleaned held hark's own sound and nothing more (no one talking over it). */
  readonly echoOnly?: boolean;
  /** Someone is talking over hark in the frame it just cleaned, and it is trained enough to say so. */
  readonly talkOver?: boolean;
}

/**
 * Keeps hark from transcribing itself. The segmenter's threshold is fixed when it is built, so the
 * gate works on the speech probability instead: while active it scales each frame's probability by
 * threshold / raisedThreshold, so a frame opens a segment exactly when it would have reached the
 * raised threshold (and the release threshold is raised in proportion). In gate mode every frame
 * reads as silence. Push-to-talk does not go through the VAD, so the button always gets through.
 */
export class EchoGate implements FrameGate {
  private playing = false;
  private tailUntil = -Infinity;
  /** The echo canceller in the capture path (cancel mode), asked each frame whether it can be trusted. */
  private canceller: EchoCanceller | null = null;

  constructor(
    private readonly echo: GateSettings,
    private readonly vadThreshold: number,
    private readonly clock: Clock,
  ) {}

  /** The canceller that makes the gate unnecessary once it is trusted (null: none, the gate is all there is). */
  setCanceller(canceller: EchoCanceller | null): void {
    this.canceller = canceller;
  }

  /** The canceller is in the path and trusted now. */
  get cancelling(): boolean {
    return this.echo.mode === 'cancel' && this.canceller !== null && this.canceller.trusted;
  }

  /** What keeps hark from hearing itself right now: the canceller, or which gate. */
  get inForce(): 'cancel' | GateMode {
    return this.cancelling ? 'cancel' : gateMode(this.echo, false);
  }

  playbackStarted(): void {
    this.playing = true;
  }

  playbackEnded(): void {
    if (this.playing) this.tailUntil = this.clock.now() + this.echo.tailMs;
    this.playing = false;
  }

  /** hark's own sound may be reaching the microphone. */
  get active(): boolean {
    return this.playing || this.clock.now() < this.tailUntil;
  }

  get threshold(): number {
    return effectiveThreshold(this.active, this.echo, this.vadThreshold, this.cancelling);
  }

  /** A talk-over lift is in force (cancel mode, echo.talkOverThreshold under the VAD's): adjust() reads `fresh`. */
  get hearsTalkOver(): boolean {
    const over = this.echo.talkOverThreshold;
    return this.echo.mode === 'cancel' && over !== undefined && over < this.vadThreshold;
  }

  /** The frame is hark's own sound alone (adjust makes it 0): the VAD need not hear it. */
  mutes(personsSegment = false): boolean {
    return this.echo.mode === 'cancel' && !!this.canceller?.echoOnly && !personsSegment;
  }

  /**
   * A frame's speech probability as the segmenter should see it now. In cancel mode a frame whose
   * residual the canceller explains by hark's own sound (the room's ring its filter cannot reach) is
   * not speech, whatever the VAD makes of it: only someone talking over hark opens a segment.
   * `personsSegment`: the frame falls in a segment a person opened before hark's sound began. hark's
   * sound cannot have opened it, and the person is likely still talking (their next command, said
   * before hark answered the last): the verdict must not cut it, as it did where the canceller was
   * cold and took the voice for hark's (test/echo/cold-start.test.ts). The gate's threshold still holds.
   */
  adjust(prob: number, personsSegment = false, fresh?: number): number {
    if (this.mutes(personsSegment)) return 0;
    // Someone talking over hark, as the trained canceller vouches: heard at echo.talkOverThreshold
    // (docs/decisions.md#the-talk-over-threshold-is-02), or by the second hearing, whose state has
    // not settled on a whole list of hark's residual, at FRESH_TALK_OVER_THRESHOLD.
    const over = this.echo.talkOverThreshold;
    if (over !== undefined && over < this.vadThreshold && this.cancelling && this.canceller?.talkOver) {
      const lifted = fresh === undefined || fresh >= FRESH_TALK_OVER_AGREES ? (prob * this.vadThreshold) / over : prob;
      const second = fresh !== undefined && fresh >= FRESH_TALK_OVER_THRESHOLD ? (fresh * this.vadThreshold) / FRESH_TALK_OVER_THRESHOLD : 0;
      return Math.min(1, Math.max(lifted, second));
    }
    const t = this.threshold;
    if (t === this.vadThreshold) return prob;
    if (t === Infinity) return 0;
    return (prob * this.vadThreshold) / t;
  }
}
