import { PreRollRing } from '../audio/ring.js';
import { msToSamples, samplesToMs } from '../audio/pcm.js';
import type { CloseReason, Segment } from './segment.js';

/** Largest frame push() accepts; the buffers are sized with this much slack. */
export const MAX_FRAME = 4096;

export interface SegmenterOptions {
  /** Probability at or above which a frame counts toward opening. */
  threshold: number;
  /** While open, a frame at or above this counts as speech (hysteresis). */
  releaseThreshold: number;
  prerollMs: number;
  minSpeechMs: number;
  /**
   * Not the segmenter's own: SegmentPipeline starts the VAD's state afresh after this long waiting
   * (no segment open, no run of speech begun) on frames the VAD heard; 0 or absent: never.
   */
  stateResetMs?: number;
  hangoverMs: number;
  maxSegmentMs: number;
  minSegmentMs: number;
  /**
   * Silence inside an open VAD segment after which a `pause` event offers the segment so far for a
   * preemptive transcription (the person may have stopped); 0: never. Speech after it gives `resume`.
   */
  pauseMs?: number;
  /**
   * Speech in an open VAD segment (pre-roll and trailing silence not counted) past which a `long`
   * event offers its audio so far: the wake-phrase check of its opening can run while it is still
   * open. 0: never.
   */
  longSpeechMs?: number;
}

export type SegmenterEvent =
  | {
      type: 'open';
      openedBy: 'vad' | 'ptt';
      startSample: number;
      vadStartSample: number;
      /** Pre-roll plus the live audio so far (a copy), for engines that stream while a segment is open. */
      pcm: Int16Array;
      prerollSamples: number;
    }
  | { type: 'segment'; segment: Segment }
  /** The open segment has been silent for pauseMs: `pcm` is all of it so far (a copy). */
  | { type: 'pause'; startSample: number; pcm: Int16Array; silenceSamples: number }
  /** Speech came back after a pause: whatever was done with the paused audio is stale. */
  | { type: 'resume'; startSample: number }
  /** The open segment's speech has just run past longSpeechMs: `pcm` is all of it so far (a copy). */
  | { type: 'long'; startSample: number; pcm: Int16Array; prerollSamples: number; maxProb: number }
  | {
      type: 'dropped';
      reason: 'too-short';
      openedBy: 'vad' | 'ptt';
      startSample: number;
      vadStartSample: number;
      endSample: number;
      /** Speech length that was judged (pre-roll and hangover excluded). */
      speechMs: number;
    };

/**
 * Cuts a stream of (frame, speech probability) pairs into segments. Pure: time is the sample count,
 * so the same input always gives the same segments, whether it came from a microphone, a file or a test.
 *
 *   IDLE ──(consecutive frames ≥ threshold for minSpeechMs)──► OPEN (live starts at the first of them)
 *   IDLE ──pttDown()──► OPEN at once, held
 *   OPEN ──(frames < releaseThreshold for hangoverMs, not held)──► close 'hangover'
 *   OPEN ──pttUp()──► close 'ptt-release', no hangover
 *   OPEN ──(live length reaches maxSegmentMs)──► close 'max-duration', reopen at once if still speech/held
 *   a closed segment with less than minSegmentMs of speech is dropped, with the reason.
 *
 * Every segment is pre-roll (up to prerollMs of history before the live start) + live audio,
 * copied by absolute position from the ring and the live buffer, so it is byte-identical to the input.
 *
 * Pre-roll never re-delivers words. It may not reach back before `prerollFloor`: the end of the last
 * delivered segment when that one was cut (max-duration, ptt-release: it may end mid-word), or its
 * last speech frame when it ended on hangover (what follows is silence by the VAD's own judgement, so
 * the documented full pre-roll after a pause is kept). A piece that continues a max-duration split
 * therefore opens at the split with no pre-roll, and the pieces of a long utterance tile it exactly:
 * each starts at the sample where the one before ended.
 */
export class Segmenter {
  private readonly opt: {
    threshold: number;
    release: number;
    preroll: number;
    minSpeech: number;
    hangover: number;
    maxLive: number;
    minSegment: number;
    pause: number;
    long: number;
  };
  private readonly ring: PreRollRing;
  /** Pre-roll + live for the open segment; allocated once at the largest size a segment can reach. */
  private readonly live: Int16Array;

  private pos = 0;
  private index = 0;

  // IDLE: the run of consecutive speech frames that may open a segment
  private runStart = -1;
  private runSamples = 0;
  private runMax = 0;

  // OPEN
  private open = false;
  private openedBy: 'vad' | 'ptt' = 'vad';
  private held = false;
  private startSample = 0;
  private vadStartSample = 0;
  private liveFill = 0;
  private silence = 0;
  private lastSpeechEnd = 0;
  private maxProb = 0;
  /** This segment continues a max-duration split (opened at the split, no pre-roll). */
  private continued = false;
  /** A `pause` was given for the current silence (a `resume` follows if speech comes back). */
  private paused = false;
  /** A `long` was given for this segment (once per segment). */
  private longTold = false;

  /**
   * Earliest sample the next segment's pre-roll may start at: what the last delivered segment holds
   * from here on must not be sent again (user report: words repeated at every 12 s split).
   */
  private prerollFloor = 0;

  constructor(options: SegmenterOptions) {
    if (options.releaseThreshold > options.threshold) {
      throw new RangeError('releaseThreshold must not be above threshold');
    }
    this.opt = {
      threshold: options.threshold,
      release: options.releaseThreshold,
      preroll: msToSamples(options.prerollMs),
      minSpeech: msToSamples(options.minSpeechMs),
      hangover: msToSamples(options.hangoverMs),
      maxLive: msToSamples(options.maxSegmentMs),
      minSegment: msToSamples(options.minSegmentMs),
      pause: msToSamples(options.pauseMs ?? 0),
      long: msToSamples(options.longSpeechMs ?? 0),
    };
    // The ring must reach back over the pre-roll plus the opening run (live starts at the run's first
    // frame, which is already history when the run completes) plus one frame of slack.
    const slack = 2 * MAX_FRAME;
    this.ring = new PreRollRing(this.opt.preroll + this.opt.minSpeech + slack);
    this.live = new Int16Array(this.opt.preroll + this.opt.minSpeech + this.opt.maxLive + slack);
  }

  /** Samples consumed so far: the absolute position of the next sample. */
  get position(): number {
    return this.pos;
  }

  get isOpen(): boolean {
    return this.open;
  }

  /** No segment is open and no run of speech frames has begun that may open one. */
  get waiting(): boolean {
    return !this.open && this.runStart < 0;
  }

  /**
   * The silence that closes a segment, from now on (the open segment included): the daemon shortens
   * it while the top frame waits for a one-word answer (yes/no, a voice name).
   */
  setHangoverMs(ms: number): void {
    this.opt.hangover = msToSamples(ms);
  }

  /**
   * Feed one frame (normally 512 samples; the last one of a stream may be shorter). `prob` decides
   * speech; `peak` is what the segment's maxProb records — the VAD's own score when the echo gate
   * scaled `prob` down while hark was talking (a command said over hark is still clear speech).
   */
  push(frame: Int16Array, prob: number, peak = prob): SegmenterEvent[] {
    if (frame.length > MAX_FRAME) throw new RangeError(`frame of ${frame.length} samples is longer than ${MAX_FRAME}`);
    const events: SegmenterEvent[] = [];
    const frameStart = this.pos;
    const n = frame.length;
    this.ring.write(frame);
    this.pos += n;

    if (!this.open) {
      if (prob >= this.opt.threshold) {
        if (this.runStart < 0) this.runStart = frameStart;
        this.runSamples += n;
        if (peak > this.runMax) this.runMax = peak;
        if (this.runSamples >= this.opt.minSpeech) {
          const runMax = this.runMax;
          this.openAt(this.runStart, 'vad', events);
          this.noteSpeech(runMax);
        }
      } else {
        this.runStart = -1;
        this.runSamples = 0;
        this.runMax = 0;
      }
      return events;
    }

    this.live.set(frame, this.liveFill);
    this.liveFill += n;
    if (peak > this.maxProb) this.maxProb = peak;
    const speech = prob >= this.opt.release;
    if (speech) {
      if (this.paused) events.push({ type: 'resume', startSample: this.startSample });
      this.paused = false;
      this.noteSpeech(peak);
      this.tellLong(events);
    } else this.silence += n;

    if (!this.held && this.silence >= this.opt.hangover) {
      this.close('hangover', events);
    } else if (!this.held && !this.paused && this.opt.pause > 0 && this.silence >= this.opt.pause && this.pos - this.vadStartSample < this.opt.maxLive) {
      // Only a segment the VAD will close on its own: a held button closes at once on release.
      this.paused = true;
      events.push({ type: 'pause', startSample: this.startSample, pcm: this.live.slice(0, this.liveFill), silenceSamples: this.silence });
    } else if (this.pos - this.vadStartSample >= this.opt.maxLive) {
      const continueOpen = this.held || speech;
      const by = this.openedBy;
      const held = this.held;
      this.close('max-duration', events);
      if (continueOpen) {
        // The floor is now this.pos, so the continuation gets no pre-roll: its audio starts at the
        // first sample the closed piece did not hold.
        this.openAt(this.pos, by, events);
        this.held = held;
        this.continued = true;
      }
    }
    return events;
  }

  /** Push-to-talk pressed: open at once (pre-roll included) and ignore hangover until release. */
  pttDown(): SegmenterEvent[] {
    const events: SegmenterEvent[] = [];
    if (!this.open) this.openAt(this.pos, 'ptt', events);
    this.held = true;
    return events;
  }

  /** Push-to-talk released: close now with no hangover. */
  pttUp(): SegmenterEvent[] {
    const events: SegmenterEvent[] = [];
    if (this.open && this.held) this.close('ptt-release', events);
    this.held = false;
    return events;
  }

  /**
   * Close the open segment now, before its hangover ends: the words so far are a whole command of
   * the top frame (see router/complete.ts). Not while the button is held: the release decides then.
   */
  closeEarly(): SegmenterEvent[] {
    const events: SegmenterEvent[] = [];
    if (this.open && !this.held) this.close('complete-command', events);
    return events;
  }

  /** End of stream: close what is open. */
  end(): SegmenterEvent[] {
    const events: SegmenterEvent[] = [];
    if (this.open) this.close('end-of-stream', events);
    this.held = false;
    return events;
  }

  /**
   * Speech measured as the words stage measures a closed segment (from the VAD start to the last
   * speech frame), so a segment told `long` here is one the close would check on its opening too.
   * Only a segment the VAD opened and closes on its own: a held button's is transcribed whole.
   */
  private tellLong(events: SegmenterEvent[]): void {
    if (this.longTold || this.opt.long <= 0 || this.held || this.openedBy !== 'vad') return;
    if (this.lastSpeechEnd - this.vadStartSample <= this.opt.long) return;
    this.longTold = true;
    events.push({
      type: 'long',
      startSample: this.startSample,
      pcm: this.live.slice(0, this.liveFill),
      prerollSamples: this.vadStartSample - this.startSample,
      maxProb: this.maxProb,
    });
  }

  private noteSpeech(prob: number): void {
    this.silence = 0;
    this.lastSpeechEnd = this.pos;
    if (prob > this.maxProb) this.maxProb = prob;
  }

  private openAt(vadStart: number, by: 'vad' | 'ptt', events: SegmenterEvent[]): void {
    // The floor is never after vadStart: a new run or press only starts once the last segment closed.
    const start = Math.max(this.ring.start, vadStart - this.opt.preroll, this.prerollFloor);
    // Pre-roll and any live audio already consumed (the opening run) come from the ring, by position.
    this.ring.copyRange(start, this.pos, this.live, 0);
    this.open = true;
    this.openedBy = by;
    this.held = false;
    this.startSample = start;
    this.vadStartSample = vadStart;
    this.liveFill = this.pos - start;
    this.silence = 0;
    this.lastSpeechEnd = vadStart;
    this.maxProb = 0;
    this.continued = false;
    this.paused = false;
    this.longTold = false;
    this.runStart = -1;
    this.runSamples = 0;
    this.runMax = 0;
    events.push({
      type: 'open',
      openedBy: by,
      startSample: start,
      vadStartSample: vadStart,
      pcm: this.live.slice(0, this.liveFill),
      prerollSamples: vadStart - start,
    });
  }

  private close(reason: CloseReason, events: SegmenterEvent[]): void {
    this.open = false;
    const end = this.pos;
    // Judge length by speech, not by the hangover tail: a door slam plus 600 ms of silence is not speech.
    // A held button counts all of its time: the person chose that span.
    const judged = this.openedBy === 'ptt' ? end - this.vadStartSample : this.lastSpeechEnd - this.vadStartSample;
    // A continuation is the tail of speech already judged long enough: dropping a short one would lose
    // the last word of the utterance (and break the tiling). It is dropped only when it holds no speech
    // frame and no held button time: the split fell on the last word and the tail is all hangover
    // silence, or the button was released (or the stream ended) right at the split.
    const heldSpan = this.held ? end - this.vadStartSample : 0;
    const tooShort = this.continued ? Math.max(judged, heldSpan) <= 0 : judged < this.opt.minSegment;
    if (tooShort && reason !== 'max-duration') {
      events.push({
        type: 'dropped',
        reason: 'too-short',
        openedBy: this.openedBy,
        startSample: this.startSample,
        vadStartSample: this.vadStartSample,
        endSample: end,
        speechMs: samplesToMs(judged),
      });
      return;
    }
    // Dropped audio was never delivered, so only a delivered segment moves the floor.
    this.prerollFloor = reason === 'hangover' || reason === 'complete-command' ? this.lastSpeechEnd : end;
    events.push({
      type: 'segment',
      segment: {
        index: this.index++,
        pcm: this.live.slice(0, this.liveFill),
        prerollSamples: this.vadStartSample - this.startSample,
        startSample: this.startSample,
        vadStartSample: this.vadStartSample,
        endSample: end,
        closeReason: reason,
        maxProb: this.maxProb,
        openedBy: this.openedBy,
      },
    });
  }
}
