import { OneAtATime } from '../core/one-at-a-time.js';
import { EventEmitter } from 'node:events';
import type { EchoCleaner } from '../echo/create.js';
import type { FrameGate } from '../echo/gate.js';
import { Framer } from '../audio/framer.js';
import { FRAME_SAMPLES, msToSamples, rms } from '../audio/pcm.js';
import { errorMessage } from '../core/errors.js';
import type { Vad } from './vad.js';
import { Segmenter, type SegmenterEvent, type SegmenterOptions } from './segmenter.js';
import type { Segment } from './segment.js';
import { TalkOverEar } from './talk-over-ear.js';

export interface PipelineEvents {
  /**
   * A segment opened (VAD trigger or PTT press); carries pre-roll + live so far. A piece that continues
   * a max-duration split opens with no pre-roll and empty pcm: it starts where the last one ended.
   */
  open: [event: Extract<SegmenterEvent, { type: 'open' }>];
  /**
   * A frame of live audio inside an open segment (after the open event, up to and including the frame
   * that closes it), for streaming engines: open.pcm followed by these frames is exactly segment.pcm.
   */
  audio: [frame: Int16Array];
  segment: [segment: Segment];
  dropped: [event: Extract<SegmenterEvent, { type: 'dropped' }>];
  /** The open segment fell silent for pauseMs (it may be over): its audio so far, for a preemptive transcription. */
  pause: [event: Extract<SegmenterEvent, { type: 'pause' }>];
  /** Speech came back after a pause. */
  resume: [event: Extract<SegmenterEvent, { type: 'resume' }>];
  /** The open segment's speech ran past longSpeechMs: its audio so far, for the wake-phrase check of its opening. */
  long: [event: Extract<SegmenterEvent, { type: 'long' }>];
  /**
   * Every frame's VAD result; `sample` is the frame's absolute start, `level` its RMS (0..1 of full
   * scale, after the echo canceller) and `harkPlaying` whether hark's sound may be in it: the room's noise floor.
   */
  frame: [info: { sample: number; prob: number; level: number; harkPlaying: boolean }];
  /** The VAD failed on a frame; the frame is treated as silence and the stream goes on. */
  error: [err: Error];
}

/**
 * The capture-to-segment path: chunks of any size → 512-sample frames → VAD → segmenter.
 * push() calls are serialised (the VAD is async), so audio, PTT presses and end-of-stream are
 * applied in exactly the order they were given.
 */
export class SegmentPipeline extends EventEmitter<PipelineEvents> {
  private readonly framer = new Framer(FRAME_SAMPLES);
  private segmenter: Segmenter;
  private readonly segmenterOptions: SegmenterOptions;
  /** Positions and indexes of segmenters before the last capture restart (see captureLost). */
  private base = 0;
  private indexBase = 0;
  private delivered = 0;
  private hangoverMs: number | null = null;
  private readonly vad: Vad;
  private readonly gate: FrameGate | undefined;
  /** The open segment was opened while hark's sound was not playing: a person's (FrameGate.adjust). */
  private personsSegment = false;
  private readonly echo: EchoCleaner | undefined;
  /** Frames are processed one at a time, in order: the segmenter and Silero's state are one stream. */
  private readonly line = new OneAtATime();
  private vadErrors = 0;
  /** Frames the VAD has heard since its state was last started afresh, all of them waiting with hark silent. */
  private heardWaiting = 0;
  private readonly resetFrames: number;
  /** The second hearing while hark plays (talk-over-ear.ts); none without an echo canceller or a VAD that can twin. */
  private readonly ear: TalkOverEar | undefined;

  /**
   * `gate` (the echo gate) scales each frame's probability while hark's own voice may be in the
   * microphone; the segment's maxProb keeps the VAD's unscaled score. `echo` (the echo canceller)
   * takes hark's own sound out of each frame before anything else sees it: the pre-roll ring, the VAD,
   * the segment and speech-to-text all get the cleaned signal.
   */
  constructor(opts: { vad: Vad; segmenter: SegmenterOptions; gate?: FrameGate; echo?: EchoCleaner }) {
    super();
    this.vad = opts.vad;
    this.gate = opts.gate;
    this.echo = opts.echo;
    this.segmenterOptions = opts.segmenter;
    this.segmenter = new Segmenter(opts.segmenter);
    this.resetFrames = Math.round(msToSamples(opts.segmenter.stateResetMs ?? 0) / FRAME_SAMPLES);
    // Its state starts afresh on the same schedule as the VAD's own with hark silent (vad.stateResetMs);
    // none where the gate has no use for its score (no talk-over lift), so none is paid for.
    if (opts.gate?.hearsTalkOver && opts.echo && this.resetFrames > 0 && opts.vad.twin) this.ear = new TalkOverEar(opts.vad.twin(), this.resetFrames);
  }

  get isOpen(): boolean {
    return this.segmenter.isOpen;
  }

  /** Absolute sample position consumed by the segmenter. */
  get position(): number {
    return this.base + this.segmenter.position;
  }

  push(chunk: Int16Array): Promise<void> {
    // The caller may reuse its chunk buffer once we return: take a copy only if we have to queue.
    const copy = chunk.slice();
    // When the chunk came is the microphone's timing, which the echo canceller aligns hark's sound by.
    const at = this.echo?.now();
    return this.enqueue(async () => {
      if (this.echo && at !== undefined) this.echo.arrived(copy.length, at);
      for (const frame of this.framer.frames(copy)) await this.processFrame(frame, frame.length);
    });
  }

  pttDown(): Promise<void> {
    return this.enqueue(async () => this.dispatch(this.segmenter.pttDown()));
  }

  pttUp(): Promise<void> {
    return this.enqueue(async () => this.dispatch(this.segmenter.pttUp()));
  }

  /** End of stream: the partial last frame is scored padded but only its real samples are kept. */
  end(): Promise<void> {
    return this.enqueue(async () => {
      const rest = this.framer.flush();
      if (rest) await this.processFrame(rest.frame, rest.realSamples);
      this.dispatch(this.segmenter.end());
    });
  }

  /**
   * The capture stream broke (recorder died, stalled, was restarted). What is open closes now with
   * 'capture-lost', and what comes after the restart starts fresh: a new segmenter (no pre-roll or
   * opening run reaching back across the gap) and a reset VAD. Positions and indexes carry on from
   * where this stream ended, so they stay unique and increasing.
   */
  captureLost(): Promise<void> {
    return this.enqueue(async () => {
      const rest = this.framer.flush();
      if (rest) await this.processFrame(rest.frame, rest.realSamples);
      const events = this.segmenter.end();
      for (const e of events) if (e.type === 'segment') e.segment.closeReason = 'capture-lost';
      this.dispatch(events);
      this.echo?.restart();
      this.ear?.quiet();
      if (this.segmenter.position === 0) return;
      this.base += this.segmenter.position;
      this.indexBase = this.delivered;
      this.segmenter = new Segmenter(this.hangoverMs === null ? this.segmenterOptions : { ...this.segmenterOptions, hangoverMs: this.hangoverMs });
      this.vad.reset();
    });
  }

  /** Resolves when everything queued so far has been processed. */
  /** Close the open segment now: its words are already a whole command (Segmenter.closeEarly). */
  closeEarly(): Promise<void> {
    return this.enqueue(async () => this.dispatch(this.segmenter.closeEarly()));
  }

  /** The hangover that closes a segment, from the next frame on (see Segmenter.setHangoverMs). */
  setHangoverMs(ms: number): void {
    this.hangoverMs = ms; // kept for the segmenter a capture restart starts
    this.segmenter.setHangoverMs(ms);
  }

  idle(): Promise<void> {
    return this.line.idle();
  }

  private enqueue(work: () => Promise<void>): Promise<void> {
    // A failure must not wedge the line for the audio after it: it is reported, and the next frame goes on.
    return this.line.run(work).catch((err: unknown) => {
      this.emit('error', err instanceof Error ? err : new Error(errorMessage(err)));
    });
  }

  private async processFrame(input: Int16Array, realSamples: number): Promise<void> {
    const frame = this.echo ? this.echo.process(input, this.position) : input;
    const wasOpen = this.segmenter.isOpen;
    let raw = 0;
    let fresh: number | undefined;
    try {
      // hark's own sound alone is not given to the VAD. Silero is recurrent: seconds of hark's voice
      // as the residual suppressor leaves it taught its state that this was not speech, and a cook's
      // "stop" said over the answer then scored 0.1-0.7 where the same samples after the room's own
      // noise score 0.9 (test/echo/room-matrix.test.ts, test/echo/gate.test.ts). Unheard, those frames leave the VAD as
      // the room left it, and cost no inference while hark talks.
      if (!this.gate?.mutes?.(wasOpen && this.personsSegment)) {
        this.freshen();
        raw = await this.vad.process(frame);
      }
      // hark's frames too: the second hearing is for frames the canceller vouches is someone talking over hark.
      if (this.ear && this.gate?.active) fresh = await this.ear.hear(frame, this.echo?.talkOver === true);
      else this.ear?.quiet();
    } catch (err) {
      this.vadErrors++;
      // One line per burst, not per frame: a broken VAD must not flood the journal at 31 lines/s.
      if (this.vadErrors === 1 || this.vadErrors % 1000 === 0) {
        this.emit('error', new Error(`VAD (${this.vad.name}) failed on a frame (${this.vadErrors} so far): ${errorMessage(err)}`));
      }
    }
    const sample = this.position;
    const used = realSamples === frame.length ? frame : frame.subarray(0, realSamples);
    const prob = this.gate ? this.gate.adjust(raw, wasOpen && this.personsSegment, fresh) : raw;
    const events = this.segmenter.push(used, prob, raw);
    if (this.listenerCount('frame') > 0) this.emit('frame', { sample, prob, level: rms(used), harkPlaying: this.gate?.active === true });
    // A frame pushed while a segment was open belongs to that segment, even when it is the frame that
    // closes it (hangover, or a max-duration split): send it before the close, so that open.pcm plus the
    // audio frames is exactly segment.pcm. A piece reopened at a split starts after this frame, so its
    // open event carries none of it and nothing is streamed twice.
    if (wasOpen && this.listenerCount('audio') > 0) this.emit('audio', used);
    this.dispatch(events);
  }

  /**
   * Silero is recurrent, and over seconds of a room with nobody speaking its state settles on "not
   * speech": the next word's first frames then score 0.0-0.2 where the same samples after 2 s of that
   * room score 0.7, and a "stop" said in a kitchen's fan opened 30-120 ms later or not at all
   * (snakers4/silero-vad#725; pipecat resets every 5 s). So, while nothing is open and no run of speech
   * has begun, the state starts afresh after stateResetMs of frames heard with hark silent. Not while
   * hark's sound may be in the microphone: the state settled on hark's residual is what keeps it from
   * opening segments where the card restarted unannounced (reset there, 27-42 segments in 24 such rooms
   * instead of 6; docs/echo.md).
   */
  private freshen(): void {
    if (!this.resetFrames || !this.segmenter.waiting || this.gate?.active) {
      this.heardWaiting = 0;
      return;
    }
    if (++this.heardWaiting <= this.resetFrames) return;
    this.vad.reset();
    this.heardWaiting = 1;
  }

  private dispatch(events: SegmenterEvent[]): void {
    for (const e of events) {
      if (this.base > 0) shift(e, this.base, this.indexBase);
      if (e.type === 'open') {
        this.personsSegment = !this.gate?.active;
        this.emit('open', e);
      } else if (e.type === 'segment') {
        this.delivered++;
        // Heard while hark played, the segment carries the raw microphone too.
        const track = this.echo?.rawTrack(e.segment.startSample, e.segment.endSample);
        if (track) e.segment.echo = track;
        this.emit('segment', e.segment);
      } else if (e.type === 'pause') this.emit('pause', e);
      else if (e.type === 'resume') this.emit('resume', e);
      else if (e.type === 'long') this.emit('long', e);
      else this.emit('dropped', e);
    }
  }
}

/** Make a fresh segmenter's positions absolute in the whole capture (its events are fresh objects). */
function shift(e: SegmenterEvent, base: number, indexBase: number): void {
  if (e.type === 'segment') {
    const s = e.segment;
    s.startSample += base;
    s.vadStartSample += base;
    s.endSample += base;
    s.index += indexBase;
    return;
  }
  e.startSample += base;
  if ('vadStartSample' in e) e.vadStartSample += base;
  if ('endSample' in e) e.endSample += base;
}

/** Segment a whole recording (already 16 kHz mono s16) as fast as the VAD allows. */
export async function segmentPcm(
  pcm: Int16Array,
  opts: { vad: Vad; segmenter: SegmenterOptions; chunkSamples?: number; echo?: EchoCleaner },
): Promise<{ segments: Segment[]; dropped: Extract<SegmenterEvent, { type: 'dropped' }>[] }> {
  const pipeline = new SegmentPipeline(opts);
  const segments: Segment[] = [];
  const dropped: Extract<SegmenterEvent, { type: 'dropped' }>[] = [];
  pipeline.on('segment', (s) => segments.push(s));
  pipeline.on('dropped', (d) => dropped.push(d));
  const errors: Error[] = [];
  pipeline.on('error', (e) => errors.push(e));
  const step = opts.chunkSamples ?? 4096;
  for (let i = 0; i < pcm.length; i += step) await pipeline.push(pcm.subarray(i, i + step));
  await pipeline.end();
  if (errors.length > 0 && segments.length === 0) throw errors[0];
  return { segments, dropped };
}
