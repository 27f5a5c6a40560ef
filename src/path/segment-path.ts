import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { TimeUp } from '../core/time-up.js';
import { speechEndAt, trailingSilenceMs } from '../core/speech-end.js';
import type { Speech } from '../speech/create.js';
import type { SttStack } from '../stt/create.js';
import type { Store } from '../store/store.js';
import type { Segment } from '../vad/segment.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import type { CommandParts } from './command-parts.js';
import type { SegmentPathConfig } from './config.js';
import type { Conversation } from './conversation.js';
import { openingPhrases } from './opening.js';
import { OpeningJudge } from './opening-check.js';
import type { Taken } from './segment-queue.js';
import type { SegmentRecord } from './segment-record.js';
import type { Arbiter, PathFront } from './plugins.js';
import { WorkLine, type QueueLoad, type Work } from './work-line.js';
// The stages, in the order a segment goes through them:
import { OpenSegments, release, type OpenSegment } from './open-segment.js'; // 1. open: live hearing, barge-in, pauses, opening check
import { BACKLOG, WordsStage } from './words.js'; //                              2. words: backlog, opening check, transcript
import { arbitrate, decideFate, type Fate } from './fate.js'; //                  3. fate: one per segment (and the arbiter)
import { DispatchStage } from './dispatch-stage.js'; //                               4. dispatch: only a dispatched fate
import { RecordKeeper } from './record-keeper.js'; //                            5. record: rows, supersede, one write

export interface SegmentPathDeps {
  config: SegmentPathConfig;
  bus: Bus;
  clock: Clock;
  log: Logger;
  stt: SttStack | null;
  speech: Speech | null;
  /** The command side (router, cascade, interruption filter), built once for run, simulate and replay. */
  conversation: Conversation;
  store: () => Store | null;
  source: 'mic' | 'file';
  /** No wait or memory bound on the queue (`hark run --input --fast`: segments close faster than speech). */
  unbounded?: boolean;
  /** Change the VAD hangover from the next frame on (the segment pipeline's setHangoverMs). */
  setHangoverMs?: (ms: number) => void;
  /** Close the open segment now (the segment pipeline's closeEarly). */
  closeEarly?: () => void;
  /**
   * Between a segment's transcript and its dispatch: may another device that heard the same command
   * act instead (fleet arbitration)? Must answer within its own bounded window and never throw.
   */
  arbiter?: Arbiter;
}

/**
 * The path of a segment after the segmenter, with one owner: this class. The segmenter's events go to
 * the open segment (1); a closed segment joins the line (work-line.ts) and, at its turn, goes
 *   words (2) → fate (3) → dispatch (4, only a dispatched fate) → record (5),
 * one segment at a time in the order they closed (push-to-talk and awaited answers first). Each stage
 * is its own file with one input and one output; handle() below is the whole order.
 */
export class SegmentPath {
  private readonly d: SegmentPathDeps;
  private readonly conv: Conversation;
  private readonly line: WorkLine;
  private readonly open: OpenSegments;
  private readonly words: WordsStage | null;
  private readonly command: DispatchStage;
  private readonly records: RecordKeeper;
  /** Fires when hark is stopping and its speech-to-text time is up (finish()). */
  private readonly outOfTime = new TimeUp();
  private finishing = false;
  /** Segments in their words stage now (speech-to-text at work for a closed segment). */
  private hearing = 0;

  constructor(d: SegmentPathDeps) {
    this.d = d;
    const { config, bus, clock, log } = d;
    this.conv = d.conversation;
    const q = config.stt.queue;
    this.line = new WorkLine(
      { bus, clock, log },
      d.unbounded ? { maxWaitMs: Infinity, maxBytes: Infinity } : { maxWaitMs: q.maxWaitMs, maxBytes: Math.round(q.maxAudioMb * 1024 * 1024) },
    );
    this.records = new RecordKeeper({ bus, clock, log, store: d.store, source: d.source });
    this.command = new DispatchStage({
      conv: this.conv,
      line: this.line,
      records: this.records,
      bus,
      clock,
      log,
      vad: config.vad,
      ...(d.setHangoverMs ? { setHangoverMs: d.setHangoverMs } : {}),
    });
    this.conv.listen((e, atMs) => {
      this.command.effect(e);
      this.records.effect(e, atMs);
    });
    /** The base frame's own phrases (wake phrase first); null: the opening check cannot be used. */
    const phrases = config.stt.opening.enabled ? openingPhrases(config.router.frames) : null;
    const wantsWhole = () => this.command.wantsWholeTranscript();
    const core = this.conv.core;
    // One opening check for both ends of the path: the open segment's and the close's.
    const judge =
      d.stt && phrases
        ? new OpeningJudge({ stt: d.stt, config: config.stt, log, phrases, ringing: () => core.timers.ringing, language: () => core.language })
        : null;
    // Closed segments come first: one in its words stage or waiting in the line (push-to-talk, an answer).
    const sttBusy = () => this.hearing > 0 || this.line.waiting > 0;
    this.open = new OpenSegments({
      conv: this.conv,
      stt: d.stt,
      speech: d.speech,
      bus,
      config,
      openingChecked: () => phrases !== null && !wantsWhole(),
      judge,
      sttBusy,
      ...(d.closeEarly ? { closeEarly: d.closeEarly } : {}),
    });
    this.words = d.stt
      ? new WordsStage({
          stt: d.stt,
          config: config.stt,
          bus,
          log,
          judge,
          wantsWholeTranscript: wantsWhole,
          hangoverMs: () => this.command.hangoverMs,
          outOfTime: this.outOfTime,
        })
      : null;
    d.stt?.setVocabulary(this.commands.vocabulary);
  }

  /** The command side's parts (simulate, replay and tests read them; plug-ins get front()). */
  get commands(): CommandParts {
    return this.conv.commands;
  }

  /** The narrow front plug-ins attach through (plugins.ts): timers, words from elsewhere, abort. */
  front(): PathFront {
    return this.command.front();
  }

  // ---- the segmenter's events: stage 1 ----

  opened(e: { startSample: number; pcm: Int16Array; prerollSamples?: number }): void {
    this.open.opened(e);
  }
  audio(frame: Int16Array): void {
    this.open.audio(frame);
  }
  dropped(startSample: number): void {
    this.open.dropped(startSample);
  }
  paused(e: { startSample: number; pcm: Int16Array; silenceSamples?: number }): void {
    this.open.paused(e);
  }
  long(e: { startSample: number; pcm: Int16Array; prerollSamples: number; maxProb: number }): void {
    this.open.long(e);
  }
  resumed(startSample: number): void {
    this.open.resumed(startSample);
  }

  /** Queue a closed segment; resolves when it (and every one before it) is handled. */
  closed(segment: Segment, cancelled = false): Promise<void> {
    const seg = this.open.close(segment.startSample);
    const closedAt = this.d.clock.now();
    const closedWallAt = Date.now();
    // When the person stopped, with the hangover in force now; stored with the segment, so replay
    // counts the cascade from the same moment.
    const trailingMs = trailingSilenceMs(segment.closeReason, { hangoverMs: this.command.hangoverMs, preemptiveMs: this.d.config.stt.preemptiveMs });
    const rec: SegmentRecord = {
      segment,
      transcript: null,
      fate: { kind: 'cancelled', reason: '' },
      actions: [],
      closedAt,
      closedWallAt,
      speechEndAt: speechEndAt(closedAt, trailingMs),
      firstActionAt: null,
      written: false,
    };
    return this.line.enqueue(
      (t) => this.handle(rec, seg, cancelled, t),
      'segment handling failed',
      { segment: segment.index },
      {
        lane: segment.openedBy === 'ptt' || this.awaited() ? 'first' : 'normal',
        // What the segment holds while it waits: the raw microphone too, when heard over playback.
        bytes: segment.pcm.byteLength + (segment.echo?.raw.byteLength ?? 0),
        audioSec: segment.pcm.length / SAMPLE_RATE,
        evict: () => this.storeUnheard(rec, seg, `${BACKLOG}: too much audio waiting for speech-to-text (stt.queue.maxAudioMb); replay it with hark replay`),
      },
    );
  }

  // ---- one segment, start to end: the stages in order ----

  private async handle(rec: SegmentRecord, seg: OpenSegment | null, cancelled: boolean, taken: Taken<Work>): Promise<void> {
    try {
      // 2. Words: one transcript for the whole segment (a cancelled one is not transcribed), unless
      // it is not worth one (the backlog, no wake phrase at its start: see words.ts).
      let decided: Fate | null = null;
      if (cancelled) this.d.stt?.transcriber.cancel(seg?.live ?? null, 'push-to-talk cancelled');
      else if (this.words) {
        this.hearing++;
        try {
          const w = await this.words.hear({ segment: rec.segment, seg, waitedMs: taken.waitedMs, late: taken.late });
          rec.transcript = w.transcript;
          decided = w.decided;
        } finally {
          this.hearing--;
        }
      }
      // 3. What becomes of them, and whether another device acts instead.
      rec.fate = decided ?? decideFate(this.conv, { segment: rec.segment, transcript: rec.transcript, seg, cancelled });
      rec.fate = await arbitrate(this.d.arbiter, rec.segment, rec.fate);
      // 4. Dispatch: only a dispatched utterance reaches the router.
      await this.command.dispatch(rec, seg);
    } finally {
      // Whatever went wrong, a held answer is never left waiting for this segment.
      if (seg) release(this.conv, seg);
    }
    // 5. The record, after the action: no write sits between speech and action.
    this.records.write(rec);
  }

  /** A queued segment stored untranscribed at once (its audio and why), never lost. */
  private storeUnheard(rec: SegmentRecord, seg: OpenSegment | null, reason: string): void {
    this.d.stt?.transcriber.cancel(seg?.live ?? null, reason);
    if (seg) {
      this.d.stt?.transcriber.discardPreempt(seg.key);
      release(this.conv, seg);
    }
    this.words?.skipped(rec.segment.index, 'backlog-memory', 0);
    rec.fate = { kind: 'untranscribed', reason };
    this.records.write(rec);
  }

  // ---- what the daemon and plug-ins ask ----

  /** Something waits for an answer: what is said next is meant for hark (dispatch-stage.ts). */
  awaited(): boolean {
    return this.command.awaited();
  }

  /** Every segment now gets a whole transcript: always-listen mode, or something waits for an answer. */
  wantsWholeTranscript(): boolean {
    return this.command.wantsWholeTranscript();
  }

  /** The top frame ends on a button tap (dictation, inventory). */
  takesTap(): boolean {
    return this.command.takesTap();
  }

  /** Words that did not come from the microphone, handled as if heard (dispatch-stage.ts). */
  heardText(text: string, from: string): Promise<void> {
    return this.command.heardText(text, from);
  }

  /** Give the top frame its tap, after every segment closed before it. */
  buttonTap(): Promise<void> {
    return this.command.buttonTap();
  }

  /** The line in front of speech-to-text now. */
  load(): QueueLoad {
    return this.line.load();
  }

  /** The largest depth since the last call (for the metrics' "largest queue depth"). */
  takePeakDepth(): number {
    return this.line.takePeakDepth();
  }

  idle(): Promise<void> {
    return this.line.idle();
  }

  /**
   * hark is stopping: every segment already closed is still handled and stored, but speech-to-text
   * gets at most `withinMs` more; a segment whose transcript is not ready by then is stored
   * untranscribed (its audio and a row saying why), never lost. Resolves when all are stored.
   */
  finish(withinMs: number): Promise<void> {
    if (!this.finishing) {
      this.finishing = true;
      this.d.clock.setTimer(withinMs, () => this.outOfTime.fire());
    }
    return this.line.idle();
  }

  /** At shutdown: every queued segment, then every delivery in flight (file appends, webhooks, the model). */
  async drain(): Promise<void> {
    await this.line.idle();
    await this.commands.core.idle();
  }

  dispose(): void {
    this.conv.dispose();
  }
}
