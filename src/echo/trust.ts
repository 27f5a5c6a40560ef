import { SAMPLE_RATE } from '../audio/pcm.js';

/**
 * Whether the echo canceller has earned the capture path's trust (EchoStage.trusted): the bookkeeping
 * of how much of hark's sound it takes out (ERLE), for how long, why it last lost that trust, and
 * whether hark's sound reaches the microphone at all. Pure: fed per frame and per delay search.
 */

/** See measure(): how long the canceller may cancel too little before the gate stands in again. */
const LOW_FOR_MS = 1000;
/**
 * Searches of the delay tracker (one per second of hark's sound, the first after ~0.7 s) that must find
 * no trace of hark's sound in the microphone before it counts as not reaching it (see noEcho).
 */
const NO_ECHO_SEARCHES = 2;
/**
 * How far (dB) the cancellation over a search's stretch must fall below what it settled at, with the
 * echo where the delay in use says, before a moved estimate counts as a moved echo (see fell()). Over
 * a reply, one second's ERLE wanders ±2-3 dB about its mean (speech louder and softer); a 30-60 ms move
 * of the echo within the filter took 4-7 dB for good and 20 or more for the first seconds.
 */
const FALL_DB = 3;
/** How quickly the settled level follows the stretches measured in place (each stretch ~1 s). */
const SETTLE_WEIGHT = 0.3;

export class EchoTrust {
  converged = false;
  /** Why the canceller last stopped being trusted (for the journal and `hark doctor`). */
  distrustedFor: string | null = null;
  private erle = { mic: 0, out: 0 };
  /** Energy of the microphone and of what was left of it since the last search (frames with hark's sound). */
  private window = { mic: 0, out: 0 };
  /** ERLE (dB) the canceller settled at, measured over stretches with the echo where the delay says (null: none yet). */
  private settled: number | null = null;
  private convergedFor = 0;
  /** Ms of played sound in a row cancelled less than convergedDb. */
  private lowFor = 0;
  /** Whether any search found hark's sound in the mic, and how many did not. */
  private echoHeard = false;
  private quietSearches = 0;
  /** Ms of hark's sound the filter has learnt from at its alignment (see learntMs). */
  private learnt = 0;

  constructor(private readonly o: { convergedDb: number; convergedMs: number }) {}

  /** hark's sound was looked for in the microphone NO_ECHO_SEARCHES times and never found (until it is). */
  get noEcho(): boolean {
    return !this.echoHeard && this.quietSearches >= NO_ECHO_SEARCHES;
  }

  /** Smoothed echo return loss enhancement over recent frames with reference (dB). */
  get erleDb(): number {
    return this.erle.out > 0 ? 10 * Math.log10(this.erle.mic / this.erle.out) : 0;
  }

  /** A search of the delay tracker looked for hark's sound in the microphone: `heard` says whether it found it. */
  searched(heard: boolean): void {
    if (heard) this.echoHeard = true;
    else this.quietSearches++;
  }

  distrust(why: string): void {
    this.converged = false;
    this.convergedFor = 0;
    this.distrustedFor = why;
  }

  /** Ms of hark's sound the filter has learnt from since it last started over or its clip moved. */
  get learntMs(): number {
    return this.learnt;
  }

  /** The clip moved under the filter (the filter kept): what it leaves there is to be seen again. */
  clipMoved(): void {
    this.learnt = 0;
  }

  /** The filter starts over: what it cancelled before says nothing of what it will. */
  restarted(): void {
    this.learnt = 0;
    this.erle = { mic: 0, out: 0 };
    this.window = { mic: 0, out: 0 };
    this.settled = null;
  }

  /** ERLE (dB) over the frames with hark's sound since the last call (null when there were none). */
  takeWindowDb(): number | null {
    const { mic, out } = this.window;
    this.window = { mic: 0, out: 0 };
    return mic > 0 ? 10 * Math.log10(mic / (out + 1e-3)) : null;
  }

  /**
   * A stretch measured with the echo where the delay in use says: what the canceller settles at. Not
   * a stretch that fell: the search that places the echo reads 1.5 s of sound, the stretch is the last
   * second, so right after the echo moved a search can still place it where it was while the stretch
   * already cancelled little; and with a person talking over hark a stretch measures them too.
   */
  settle(windowDb: number): void {
    if (this.settled !== null && this.fell(windowDb)) return;
    this.settled = this.settled === null ? windowDb : this.settled + SETTLE_WEIGHT * (windowDb - this.settled);
  }

  /**
   * Cancellation over the last stretch fell: FALL_DB below what it settled at, or, before it settled
   * anywhere, below what the canceller must show to be trusted.
   */
  fell(windowDb: number | null): boolean {
    if (windowDb === null) return false;
    return windowDb < (this.settled === null ? this.o.convergedDb : this.settled - FALL_DB);
  }

  /** One frame with hark's sound in it: the microphone and what the canceller left of it. */
  measure(mic: Int16Array, out: Int16Array): void {
    let em = 0;
    let eo = 0;
    for (let i = 0; i < mic.length; i++) {
      em += mic[i]! * mic[i]!;
      eo += out[i]! * out[i]!;
    }
    this.window.mic += em;
    this.window.out += eo;
    // About 0.3 s of smoothing at 32 ms frames.
    const a = 0.1;
    this.erle.mic = this.erle.mic * (1 - a) + em * a;
    this.erle.out = this.erle.out * (1 - a) + eo * a + 1e-3;
    const ms = (mic.length * 1000) / SAMPLE_RATE;
    this.learnt += ms;
    if (this.erleDb >= this.o.convergedDb) {
      this.convergedFor += ms;
      this.lowFor = 0;
    } else {
      this.convergedFor = 0;
      this.lowFor += ms;
    }
    if (this.convergedFor >= this.o.convergedMs) this.converged = true;
    // Cancelling too little for a second (the echo moved and the filter is learning it again): the gate
    // stands in until it is back. A second, not less: a word said over hark ("stop", ~0.5 s) lowers the
    // measure too, and should not hand the decision back to the gate.
    if (this.lowFor >= LOW_FOR_MS && this.converged) this.distrust(`cancelling under ${this.o.convergedDb} dB for a second`);
  }
}
