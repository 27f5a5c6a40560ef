import { SpeakerModel, asPlayed } from './speaker-model.js';
import { DelayEstimator } from './delay.js';
import type { EchoReference } from './reference.js';
import { RawHistory } from './raw-history.js';
import { DoubleTalkDetector, power } from './double-talk.js';
import { EchoTrust } from './trust.js';
import { covered, inPlace, outsideFilter, type Alignment } from './alignment.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import { ClockFollower, type NativeResampler } from './drift.js';
import { catchUp } from './catch-up.js';
import { AlignedMicPower, cancellingState, vouchesTalkOver } from './verdict.js';
import { ECHO_STAGE_DEFAULTS, type EchoStageOptions, type EchoStatus, type NativeCanceller } from './stage-options.js';

export { ECHO_STAGE_DEFAULTS, type EchoStageOptions, type EchoStatus, type NativeCanceller } from './stage-options.js';

/**
 * The echo canceller in the capture path: each microphone frame, before the pre-roll ring and the VAD,
 * has hark's own sound taken out of it, using what hark played (EchoReference) as the reference.
 *
 * Alignment: a microphone sample's time comes from the chunks' arrival times (the earliest-possible
 * mapping, arrival minus the samples up to the chunk's end: a chunk can arrive late, never early); the
 * reference for that instant, shifted by the estimated delay (DelayEstimator, tracked all along), is
 * handed to speexdsp together with the frame, and speexdsp's adaptive filter models the rest (the room).
 * When the delay estimate moves, the filter is reset and converges again; until it shows convergedDb of
 * cancellation the echo gate (EchoGate) stays in force.
 *
 * No clock, no I/O: arrival times come in as arguments. The raw microphone is kept in a ring so a
 * segment heard while hark played can store both tracks.
 */
export class EchoStage {
  private readonly o: EchoStageOptions;
  private readonly perMs = SAMPLE_RATE / 1000;
  private readonly estimator: DelayEstimator;
  private readonly ref: Int16Array;
  private readonly refZero: Int16Array;
  private readonly out: Int16Array;
  /** The speaker's distortion, put on the reference before the filter (none: the reference as played). */
  private readonly model: SpeakerModel | null;
  private readonly driven: Int16Array;
  /** Samples (since restart) whose arrival is known, and the earliest mapping of sample 0 to clock ms. */
  private arrivedSamples = 0;
  private anchorMs = Infinity;
  private processed = 0;
  private delayMs: number;
  /** How far the latest clip was moved from where its aplay process was started (ms). */
  private clipShiftMs = 0;
  /** The latest clip whose echo has reached the microphone. */
  private clip = 0;
  /** The reference's timeline moves already acted on. */
  private seenMoves = 0;
  /** The first estimate has replaced the initial guess. */
  private moved = false;
  /**
   * The reference says the latency may have moved (a new aplay process, the card restarted): the next
   * estimate that stands is taken wherever it falls outside the estimate's own wander, not only when
   * cancellation fell (alignment.ts, covered).
   */
  private expectMove = false;
  /** Searches in a row whose stretch was cancelled less than the canceller had settled at (EchoTrust.fell). */
  private fallenSearches = 0;
  private readonly trust: EchoTrust;
  /** The delay tracker's searches seen. */
  private seenSearches = 0;
  private lastState: EchoStatus['state'] = 'idle';
  /** Raw mic by pipeline position, and whether hark's sound was expected in each frame. */
  private readonly history: RawHistory;
  /** Whether what the canceller leaves is hark's own sound or someone talking over it. */
  private readonly talk = new DoubleTalkDetector();
  /** The last frame processed had hark's sound (or its room's ring) in it and nothing more. */
  private harkOnly = false;
  /** The last frame processed had someone talking over hark, as a trained canceller can vouch (talkOver). */
  private overTalk = false;
  /** The microphone's power as it lines up with the native output (which lags it by its latency). */
  private readonly micPower: AlignedMicPower;
  /** The two clocks: the skew measured, and the reference put onto the microphone's clock by it. */
  private readonly clocks: ClockFollower;
  /** Where the frame being processed starts (pipeline position). */
  private at = 0;

  constructor(
    private readonly native: NativeCanceller,
    private readonly reference: EchoReference,
    opts: Partial<EchoStageOptions> = {},
    resampler: NativeResampler | null = null,
  ) {
    this.o = { ...ECHO_STAGE_DEFAULTS, ...opts };
    this.estimator = new DelayEstimator({ sampleRate: SAMPLE_RATE, ...this.o.delay });
    this.ref = new Int16Array(this.o.frameSamples);
    this.refZero = new Int16Array(this.o.frameSamples);
    this.out = new Int16Array(this.o.frameSamples);
    this.driven = new Int16Array(this.o.frameSamples);
    this.model = this.o.speakerThd && this.o.speakerThd.pct > 0 ? new SpeakerModel(this.o.speakerThd.pct, this.o.speakerThd.atDbfs) : null;
    this.delayMs = this.o.initialDelayMs;
    this.micPower = new AlignedMicPower(Math.min(native.latency ?? 0, this.o.frameSamples));
    this.history = new RawHistory(this.o.frameSamples, this.o.historyMs * this.perMs);
    this.trust = new EchoTrust(this.o);
    this.clocks = new ClockFollower(resampler, reference, this.o.frameSamples);
    if (this.o.knownSkewPpm !== undefined) this.clocks.seed(this.o.knownSkewPpm);
  }

  /** A chunk of `samples` arrived from the recorder at `atMs`. Call in order with process(). */
  arrived(samples: number, atMs: number): void {
    this.arrivedSamples += samples;
    this.clocks.captured(this.arrivedSamples, atMs);
    const anchor = atMs - this.arrivedSamples / this.perMs;
    if (anchor >= this.anchorMs) return;
    // A chunk quicker than any before it: the microphone's timeline sat (anchorMs - anchor) ms late all
    // along. The filter learnt the room against the timeline as it was, and moving the microphone
    // against the reference by even 1 ms undoes that (cancellation fell to 0-5 dB for a second or more,
    // test/echo/capture-timing.test.ts). So the delay in use takes the same step: each microphone frame
    // keeps the reference it had, sample for sample. Both streams count samples of the same card, so a
    // fixed pairing is also what keeps the card's clock and the host's from drifting apart here.
    if (this.moved && Number.isFinite(this.anchorMs)) this.delayMs -= this.anchorMs - anchor;
    this.anchorMs = anchor;
  }

  /** The recorder restarted: a new stream with its own timing. The filter keeps what it learnt (same room). */
  restart(): void {
    this.arrivedSamples = 0;
    this.processed = 0;
    this.anchorMs = Infinity;
    this.clocks.breakRun();
    this.clocks.skew.capturedRestart();
  }

  get status(): EchoStatus {
    const t = this.trust;
    const trust = { erleDb: t.erleDb, converged: t.converged, distrustedFor: t.distrustedFor, noEcho: t.noEcho };
    const lateReferenceMs = Math.round(this.reference.lateSamples / this.perMs);
    return {
      state: this.lastState,
      delayMs: this.delayNow + this.clipShiftMs,
      estimate: this.estimator.estimate,
      ...trust,
      lateReferenceMs,
      clocks: this.clocks.status(),
    };
  }

  /** The delay in use now: as set, less what the echo has slid since by the skew followed. */
  private get delayNow(): number {
    return this.delayMs - this.clocks.drift(this.at) / this.perMs;
  }

  /**
   * Trust the canceller over the echo gate right now: hark's sound is in the mic and it is cancelled,
   * or it has been searched for and is not there. "Cancelled" alone cannot be shown where there is
   * little echo (ERLE needs echo to measure), and the gate would then stand in for all of hark's speech.
   */
  get trusted(): boolean {
    return this.trust.converged || this.trust.noEcho;
  }

  /**
   * The frame just processed holds hark's own sound (or its room's reverberation) and nothing more:
   * what is left after cancelling is explained by what hark played (DoubleTalkDetector). False when
   * hark was quiet, and when someone talks over it.
   */
  get echoOnly(): boolean {
    return this.harkOnly;
  }

  /**
   * Someone is talking over hark in the frame just processed, and the canceller is in a state to vouch
   * for it: what it left stands clear of hark's residual (DoubleTalkDetector: the near end), it is
   * trusted, its filter has learnt TALK_OVER_LEARNT_MS of hark's sound, it has not collapsed (the echo
   * lost) and it did not leave more than the microphone held. The gate then lets the VAD hear the frame
   * more readily (echo.talkOverThreshold): a word 6 dB under a reverberant answer keeps its level
   * through the canceller but not its shape, and Silero scored it 0.3-0.6 where the same word with hark
   * silent reached its threshold (docs/echo.md).
   */
  get talkOver(): boolean {
    return this.overTalk;
  }

  get erleDb(): number {
    return this.trust.erleDb;
  }

  /**
   * Clean one frame whose first sample sits at `position` in the pipeline. Returns the cleaned frame
   * (a buffer reused on the next call) or the input itself when nothing was played near it.
   */
  process(frame: Int16Array, position: number): Int16Array {
    const n = frame.length;
    this.at = position;
    this.history.keep(frame, position);
    if (n !== this.o.frameSamples || !Number.isFinite(this.anchorMs)) {
      this.processed += n;
      this.lastState = 'idle';
      this.harkOnly = this.overTalk = false;
      return frame;
    }
    const atMs = this.anchorMs + this.processed / this.perMs;
    this.processed += n;
    const zeroPos = this.reference.position(atMs);
    const refPos = this.refPosition(atMs);
    const activeZero = this.reference.render(zeroPos, this.refZero);
    const active = this.clocks.render(refPos, position, this.ref);
    // Once the delay is known (before it, the guess can sit ahead of what was played by then).
    if (this.moved) this.reference.used(refPos + n);
    // Room echo outlasts the last sample: keep the filter running (on zeros) for its own length after
    // a clip that has sounded — not before one that is still to come (those frames are the person
    // alone, and the debug page would mark them as hark's playback).
    const inTail = !active && refPos < this.reference.endOfSoundBefore(refPos) + this.o.filterSamples + n;
    // The player fell behind and the card restarted (AplayStream): the latency may have moved. Once that
    // point is in the microphone, the estimator starts afresh (what it holds from before would argue for
    // the old lag for a second or two) and its first clear estimate is taken at once.
    if (this.reference.timelineMoves !== this.seenMoves && zeroPos >= this.reference.lastMoveAt) {
      this.seenMoves = this.reference.timelineMoves;
      this.estimator.reset();
      this.clocks.breakRun();
      this.expectMove = true;
      this.trust.distrust('the card restarted (playback fed late)');
    }
    if (activeZero || active || inTail) {
      this.estimator.push(frame, activeZero ? this.refZero : null, activeZero);
      if (this.estimator.searches !== this.seenSearches) {
        this.seenSearches = this.estimator.searches;
        this.searched();
      }
      this.doubt();
    }
    // Kept long enough for a catch-up (catchUpMs) as well as the filter's own reach.
    this.reference.prune(refPos - Math.max(5 * this.o.filterSamples, (this.o.catchUpMs + 500) * this.perMs));
    const micAligned = this.micPower.of(frame);
    if (!active && !inTail) {
      this.lastState = 'idle';
      this.harkOnly = this.overTalk = false;
      this.native.process(frame, null, this.out);
      this.talk.quiet(this.out);
      return this.out;
    }
    // A new aplay process (each clip, with one aplay per clip; a reopened long-lived one) may sound
    // at its own latency (measured: 50-170 ms apart on a loaded machine): until its echo is shown to
    // be cancelled, the gate stands in again.
    const clip = this.reference.clipCount;
    if (clip !== this.clip && refPos + n > this.reference.latestStart) {
      this.clip = clip;
      this.clipShiftMs = 0;
      this.trust.distrust('a new aplay process');
      if (this.reference.steady && this.moved) {
        // A new long-lived aplay (the old one closed after a quiet, or died): its latency is its own.
        // What the tracker holds is the old process's; the new one's is taken as soon as it is found.
        this.estimator.reset();
        this.clocks.breakRun();
        this.expectMove = true;
      }
    }
    this.native.process(frame, asPlayed(this.model, this.ref, this.driven), this.out);
    const cancelling = cancellingState(this.trust.erleDb, this.trust.converged, this.o.convergedDb);
    const verdict = this.talk.update(active ? this.ref : null, this.out, frame, cancelling);
    this.harkOnly = verdict === 'hark';
    const heard = { verdict, converged: this.trust.converged, learntMs: this.trust.learntMs, cancelling, outPower: power(this.out), micPower: micAligned };
    this.overTalk = vouchesTalkOver(heard);
    this.history.mark(position);
    if (active) this.trust.measure(frame, this.out);
    this.lastState = this.trust.converged ? 'cancelling' : 'converging';
    return this.out;
  }

  /** Raw microphone over [from, to) and the frames in it where hark's sound was expected, or null if none was. */
  rawTrack(from: number, to: number): { raw: Int16Array; playback: Array<{ start: number; end: number }> } | null {
    return this.history.track(from, to);
  }

  close(): void {
    this.native.close();
    this.clocks.close();
  }

  /**
   * After each search of the delay tracker: hark's sound heard or not (noEcho), how much was cancelled
   * since the last one, and whether the alignment should move. The estimate that stands (believed, and
   * the latest search agrees with it) is acted on when the filter cannot be trusted to take it as it is
   * (alignment.ts, covered); judged at every search, not only when first believed: an echo that moved
   * within the filter's reach is first taken in stride by the filter, and only shows in the
   * cancellation seconds later.
   */
  private searched(): void {
    this.trust.searched(this.estimator.heard);
    const windowDb = this.trust.takeWindowDb();
    if (windowDb !== null) {
      this.fallenSearches = this.trust.fell(windowDb) ? this.fallenSearches + 1 : 0;
      this.trust.settle(windowDb);
    }
    this.measureLag();
    const latest = this.estimator.latest;
    const believed = this.estimator.estimate;
    const a = this.alignment;
    // The echo is found where the delay says: the latency the reference warned of did not move.
    if (this.moved && latest && inPlace(a, latest.lagMs)) this.expectMove = false;
    const stands = believed !== null && latest !== null && Math.abs(latest.lagMs - believed.lagMs) <= this.estimator.agreeMs;
    if (!stands) return;
    const evidence = { supportsDelay: this.estimator.supports(this.delayNow), expectMove: this.expectMove, fallenSearches: this.fallenSearches };
    if (!this.moved || !covered(a, believed.lagMs, evidence)) this.moveDelay(believed.lagMs);
  }

  /**
   * A clear correlation peak away from the delay in use says the echo has moved before a second
   * estimate confirms it (a second later): the gate stands in from now, not after a second of echo
   * leaking through. Near-end speech does not do this (it does not correlate with the reference), so a
   * person talking over hark does not hand the decision back to the gate.
   */
  private doubt(): void {
    const l = this.estimator.latest;
    if (!this.trust.converged || !this.moved || !l || l.correlation < 0.6) return;
    if (outsideFilter(this.alignment, l.lagMs, this.estimator.supports(this.delayNow))) this.trust.distrust('a clear echo outside the filter');
  }

  /**
   * The echo's lag to a fraction of a sample over the last second (drift.ts), for the skew: after each
   * of the delay tracker's searches, while hark's sound is about.
   */
  private measureLag(): void {
    const w = 16000;
    const end = this.history.end;
    if (this.processed < w || end - w < end - this.history.capacity) return;
    const zeroPosAt = (p: number) => (this.anchorMs + (this.processed - (end - p)) / this.perMs) * this.perMs;
    const began = this.clocks.measure(end - w, (p, out) => this.history.read(p, out), zeroPosAt, this.delayNow * this.perMs);
    if (began && this.moved) this.startOver("the clocks' skew is followed");
  }

  private get alignment(): Alignment {
    return { delayMs: this.delayNow, marginMs: this.o.marginMs, filterMs: this.o.filterSamples / this.perMs, steady: this.reference.steady };
  }

  private moveDelay(lagMs: number): void {
    if (!this.moved) {
      // The first estimate replaces the initial guess: what the filter learnt at the wrong alignment is
      // of no use, and starting over converges faster than unlearning it.
      this.moved = true;
      this.delayMs = lagMs;
      this.clocks.aligned(this.at);
      this.startOver('the delay moved (first estimate)');
      return;
    }
    if (this.reference.steady) {
      // The long-lived aplay: every clip shares its latency, so a move is the whole stream's (the card
      // ran dry and restarted, a new aplay process). The room is unchanged, but the filter has been
      // learning the echo where it went since it moved, shifted along the filter as far as that would go
      // (for seconds, when the move first showed as cancellation lost): moving the bulk delay under what
      // it learnt left nothing that fit (0-7 dB for 2-3 s, measured in test/echo/kitchen.ts rooms). So
      // the filter learns the room again from the last catchUpMs at the new alignment, as at the first
      // estimate (25-35 dB the next second, measured).
      this.delayMs = lagMs;
      this.clocks.aligned(this.at);
      this.clipShiftMs = 0;
      this.expectMove = false;
      this.fallenSearches = 0;
      this.startOver('the delay moved');
      return;
    }
    // Later moves are the clip's own: each clip is a new aplay process that starts sounding with its
    // own latency (measured 60-185 ms apart on a loaded machine), while the room, which the filter
    // models, is unchanged. So the clip is moved to where it really sounds and the filter kept.
    this.reference.shiftLatest(Math.round((lagMs - this.delayNow) * this.perMs));
    this.clipShiftMs += lagMs - this.delayNow;
    this.estimator.reset();
    this.clocks.breakRun();
    this.trust.distrust('the delay moved (clip shifted)');
    this.trust.clipMoved();
  }

  /**
   * The filter starts over at the alignment now in use: it relearns the room from what it has already
   * heard (catchUp), and what it cancelled and left before says nothing of what it will (the trust's
   * ERLE, the double-talk decision's coupling); it is distrusted until it shows it again.
   */
  private startOver(why: string): void {
    this.native.reset();
    this.talk.restarted();
    catchUp({
      frameSamples: this.o.frameSamples,
      catchUpMs: this.o.catchUpMs,
      perMs: this.perMs,
      history: this.history,
      processed: this.processed,
      anchorMs: this.anchorMs,
      render: (atMs, p, out) => this.clocks.render(this.refPosition(atMs), p, out),
      process: (mic, ref, out) => this.native.process(mic, ref && asPlayed(this.model, ref, this.driven), out),
    });
    this.trust.restarted();
    this.trust.distrust(why);
  }

  /**
   * Where the filter's reference starts for microphone at `atMs`: the delay in use, less the margin.
   * Rounded once: when the anchor and the delay take the same step (arrived()), the pairing stays the
   * same to the sample (a sample's slip, 1/16 ms, cost 20 dB on the ring's beeps).
   */
  private refPosition(atMs: number): number {
    return this.reference.position(atMs - this.delayMs + this.o.marginMs);
  }
}
