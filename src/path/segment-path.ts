import { randomUUID } from 'node:crypto';
import type { HarkConfig } from '../config/schema.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import type { Effect } from '../core/effects.js';
import type { Speech } from '../speech/create.js';
import type { SttStack } from '../stt/create.js';
import type { SegmentTranscript } from '../stt/events.js';
import type { LiveHearing } from '../stt/live-hearing.js';
import type { HandOver, LiveSegment } from '../stt/transcriber.js';
import type { Store } from '../store/store.js';
import type { ActionInput } from '../store/records.js';
import type { FilterDecision } from '../turn/interruption.js';
import type { Segment } from '../vad/segment.js';
import { detectIntent } from '../language/intent-rules.js';
import { completeCommand } from '../command/complete.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import type { Commands } from './build-commands.js';
import type { Conversation } from './conversation.js';
import { openingPhrases, opensImperative, startsWithPhrase } from './opening.js';
import { SegmentQueue, type Lane, type Taken } from './segment-queue.js';
import { actionRow, segmentWrite } from './segment-record.js';

export interface SegmentPathDeps {
  config: HarkConfig;
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

/** Decides whether this device acts on a heard command, or yields to a device that heard it better. */
export interface Arbiter {
  decide(segment: Segment, utterance: Utterance): Promise<{ act: true } | { act: false; to: string }>;
}

/** A segment between the VAD opening it and its close. */
interface OpenSegment {
  startSample: number;
  /** Its name until it closes and gets an index. */
  key: string;
  live: LiveSegment | null;
  /** hark was speaking at some point while this was said: the interruption filter applies. */
  speaking: boolean;
  /** The answer cascade's playback is held for it until it is known to be words. */
  held: boolean;
  /** Final chunks of the live hearing already decided on by the interruption filter. */
  spans: number;
  /** The last intent hint given for it. */
  candidate: string | null;
  /** Pauses so far (each may start a speculative transcript). */
  pauses: number;
  /** Ids it gave the interruption filter: forgotten when the segment comes to nothing (issue 19). */
  bargeIds: Set<string>;
}

/**
 * What became of a segment's speech — one per segment, by construction:
 * dispatched (routed as a command), filtered (a backchannel over hark's voice), dropped (nothing
 * heard: blank, non-speech, hallucination, no engine), or cancelled (a push-to-talk tap or mute).
 */
export type Fate =
  | { kind: 'dispatched'; utterance: Utterance }
  | { kind: 'filtered'; utterance: Utterance; reason: string }
  /** Another device heard the same command better and acted on it (fleet arbitration). */
  | { kind: 'yielded'; utterance: Utterance; reason: string }
  | { kind: 'dropped'; reason: string }
  | { kind: 'cancelled'; reason: string }
  /** hark was stopping before speech-to-text could finish: stored untranscribed, to be replayed. */
  | { kind: 'untranscribed'; reason: string };

/** One segment's handling, collected while it is handled and written in one transaction at the end. */
export interface SegmentRecord {
  segment: Segment;
  transcript: SegmentTranscript | null;
  fate: Fate;
  actions: ActionInput[];
  /** Clock ms when it closed; wall ms for the store's times. */
  closedAt: number;
  closedWallAt: number;
  /** When the person stopped speaking: the close, less the hangover for a VAD close. */
  speechEndAt: number;
  /** Clock ms of its first fired action. */
  firstActionAt: number | null;
  /** Its rows are in the store (a later change to them is an update). */
  written: boolean;
}

/** A job in the line in front of speech-to-text and the router (see segment-queue.ts). */
interface Work {
  run: (taken: Taken<Work>) => Promise<void>;
  /** A segment's: store it untranscribed now (the audio bound was passed while it waited). */
  evict?: () => void;
  failed: string;
  fields: Record<string, unknown>;
  done: () => void;
}

/** The line's state, for /metrics, /healthz and the page's header. */
export interface QueueLoad {
  depth: number;
  /** Seconds of audio waiting. */
  audioSec: number;
  bytes: number;
  oldestWaitMs: number;
  /** The wait bound was reached (stt.queue.maxWaitMs) or audio was evicted, within the last bound. */
  behind: boolean;
}

/** Why a segment got no whole transcript on purpose (the metrics count them by this). */
export const NO_WAKE_PHRASE = 'no wake phrase at its start';
export const BACKLOG = 'backlog';
/** Tokens Whisper decodes of an opening: the wake phrase and a word or two (timestamps and specials count too). */
const OPENING_TOKENS = 12;
/** While a timer rings, an opening starting with one of these is transcribed whole (kitchen/timer-language's ring-stop words). */
const RING_STOP_OPENINGS = ['stop', 'ok', 'okay', 'thanks', 'thank you', 'got it', 'alright', 'enough', 'quiet', 'dismiss', 'silence', 'turn it off', 'cheers', 'shut up'].map((p) => p.split(' '));

declare module '../core/bus.js' {
  interface HarkEvents {
    /** The line in front of speech-to-text changed (a job joined or started). */
    'stt.queue': QueueLoad;
    /** A segment not transcribed whole on purpose: no wake phrase at its start, or the backlog. */
    'segment.skipped': { segment: number; reason: 'no-wake-phrase' | 'backlog-wait' | 'backlog-memory'; waitedMs: number };
    /** Seed 000: a tentative intent from the settled words of the open segment — a hint for the page, never acted on. */
    'intent.candidate': { segmentId: string; candidate: string; stableText: string };
    /**
     * A segment has been through speech-to-text and the router. `fate` says what became of its words;
     * `latencyMs` is close-to-done, `actionMs` close-to-first-action.
     */
    'segment.handled': {
      segment: number;
      fate: Fate['kind'];
      reason: string | null;
      utterance: { id: string; text: string; engine: string } | null;
      actions: string[];
      sttMs: number;
      latencyMs: number;
      actionMs: number | null;
    };
  }
}

/**
 * The path of a segment after the segmenter, with one owner: this class. A closed segment goes
 *   transcript (every engine's attempt, one result) → fate (dispatched / filtered / dropped /
 *   cancelled) → the response cascade (interrupted by words, released otherwise) → the router
 *   (only a dispatched fate reaches it) → the segment's record,
 * one segment at a time in the order they closed. While a segment is open its live hearing (cloud
 * partials) feeds the interruption filter, so "stop" cuts hark off before the segment closes.
 */
export class SegmentPath {
  private readonly d: SegmentPathDeps;
  private readonly conv: Conversation;
  private open: OpenSegment | null = null;
  private work: Promise<void> = Promise.resolve();
  private readonly queue: SegmentQueue<Work>;
  private pumping = false;
  /** The base frame's own phrases (wake phrase first); null: the opening check cannot be used. */
  private readonly phrases: string[][] | null;
  /** The segment being routed: actions fired now belong to it. */
  private current: SegmentRecord | null = null;
  /** The VAD hangover in force: shorter while the top frame waits for a short answer (vad.frameHangoverMs). */
  private hangoverMs: number;
  /** Resolves when hark is stopping and its speech-to-text time is up (finish()). */
  private readonly outOfTime: Promise<void>;
  private timeUp!: () => void;
  private finishing = false;
  /** Recently fired actions by seq, so a later last-wins action can mark the row it superseded. */
  private readonly fired = new Map<number, { row: ActionInput; rec: SegmentRecord | null }>();

  constructor(d: SegmentPathDeps) {
    this.d = d;
    this.hangoverMs = d.config.vad.hangoverMs;
    this.outOfTime = new Promise((r) => (this.timeUp = r));
    const q = d.config.stt.queue;
    this.queue = new SegmentQueue<Work>(d.unbounded ? { maxWaitMs: Infinity, maxBytes: Infinity } : { maxWaitMs: q.maxWaitMs, maxBytes: Math.round(q.maxAudioMb * 1024 * 1024) });
    this.conv = d.conversation;
    // The cascade's hand-over of an open request waits its turn behind every segment closed before it.
    this.conv.lineUp = (run, frame) => this.enqueue(run, 'handing over the request failed', { frame });
    this.conv.listen((e, atMs) => this.onEffect(e, atMs));
    this.phrases = d.config.stt.opening.enabled ? openingPhrases(d.config.router.frames) : null;
    d.stt?.setVocabulary(this.commands.vocabulary);
  }

  /** The command side's parts (the fleet, the satellite and the debug page read its timers and lists). */
  get commands(): Commands {
    return this.conv.commands;
  }

  // ---- the segmenter's events ----

  opened(e: { startSample: number; pcm: Int16Array }): void {
    const speaking = this.d.speech?.queue.isSpeaking ?? false;
    const key = `@${e.startSample}`;
    const seg: OpenSegment = { startSample: e.startSample, key, live: null, speaking, held: false, spans: 0, candidate: null, pauses: 0, bargeIds: new Set() };
    // Seed 003: an answer being prepared waits while the person may be talking; a cough gives it back.
    seg.held = this.conv.hold();
    seg.live = this.d.stt?.transcriber.open(key, e.pcm, (h) => this.hearing(seg, h)) ?? null;
    this.open = seg;
  }

  audio(frame: Int16Array): void {
    const seg = this.open;
    if (!seg) return;
    if (!seg.speaking && this.d.speech?.queue.isSpeaking) seg.speaking = true;
    seg.live?.write(frame);
  }

  /** The segmenter dropped the open segment (too short): its stream goes, and a held answer plays. */
  dropped(startSample: number): void {
    const seg = this.open;
    if (!seg || seg.startSample !== startSample) return;
    this.open = null;
    this.d.stt?.transcriber.cancel(seg.live, 'the segment was too short');
    this.d.stt?.transcriber.discardPreempt(seg.key);
    // A partial "mm" waiting for its final must not time out into an interruption now.
    this.forgetBarge(seg);
    this.release(seg);
  }

  /**
   * The open segment fell silent (stt.preemptiveMs): the person may have stopped, so local Whisper
   * starts on what was said; the close then finds the transcript ready instead of waiting for it.
   */
  paused(e: { startSample: number; pcm: Int16Array }): void {
    const seg = this.open;
    if (seg?.startSample !== e.startSample) return;
    const n = ++seg.pauses;
    // Radio in wake-word mode: a long segment gets its opening checked at the close (words()), not a
    // whole speculative inference at every pause.
    if (this.phrases && !this.wantsWholeTranscript() && e.pcm.length > (this.d.config.stt.opening.seconds + 0.5) * SAMPLE_RATE) return;
    this.d.stt?.transcriber.preempt(seg.key, e.pcm, (t) => {
      if (this.open !== seg) return;
      // Said over hark's voice: decide barge-in on these words now, not after the hangover and another
      // inference. A whole transcript of the words so far, so "yeah" is settled as a backchannel here
      // (never timing out into an interruption) and "stop" stops hark at once.
      if (t.text) this.barge(seg, `${seg.key}#pause${n}`, t.text, true, seg.speaking);
      // Already a whole command of the top frame ("yes", "stop"): act now, not after the rest of the hangover.
      if (!this.d.config.stt.actOnCompleteCommand) return;
      if (completeCommand(this.d.config.router.frames, this.conv.topFrame, t.text)) this.d.closeEarly?.();
    });
  }

  /** They went on: the speculative transcript is stale. */
  resumed(startSample: number): void {
    const seg = this.open;
    if (seg?.startSample === startSample) this.d.stt?.transcriber.discardPreempt(seg.key);
  }

  /** Queue a closed segment; resolves when it (and every one before it) is handled. */
  closed(segment: Segment, cancelled = false): Promise<void> {
    const seg = this.open?.startSample === segment.startSample ? this.open : null;
    if (seg) this.open = null;
    // Told now, not at its turn: a server starts on it at once, and its deadline counts from the close.
    seg?.live?.end();
    const closedAt = this.d.clock.now();
    const closedWallAt = Date.now();
    // When the person stopped: a hangover ago for a VAD close; for an early close, as long ago as the
    // pause that started the transcript it acted on; at once for a release.
    const hangover = segment.closeReason === 'hangover' ? this.hangoverMs : segment.closeReason === 'complete-command' ? this.d.config.stt.preemptiveMs : 0;
    const rec: SegmentRecord = { segment, transcript: null, fate: { kind: 'cancelled', reason: '' }, actions: [], closedAt, closedWallAt, speechEndAt: closedAt - hangover, firstActionAt: null, written: false };
    return this.enqueue((t) => this.handle(rec, seg, cancelled, t), 'segment handling failed', { segment: segment.index }, {
      lane: segment.openedBy === 'ptt' || this.awaited() ? 'first' : 'normal',
      // What the segment holds while it waits: the raw microphone too, when heard over playback.
      bytes: segment.pcm.byteLength + (segment.echo?.raw.byteLength ?? 0),
      audioSec: segment.pcm.length / SAMPLE_RATE,
      evict: () => this.storeUnheard(rec, seg, `${BACKLOG}: too much audio waiting for speech-to-text (stt.queue.maxAudioMb); replay it with hark replay`, 'backlog-memory', 0),
    });
  }

  /**
   * A frame above the base waits for an answer (a query, a confirmation, dictation), or a timer asks
   * "which timer?", or the follow-up window after an action is open: what is said next is meant for
   * hark, wake phrase or not. This is the one place the segment path asks the router. A ringing timer is not here: what stops it ("stop", "ok
   * thanks") is short (transcribed whole anyway) or opens a long segment (the opening check hears it,
   * RING_STOP_OPENINGS) — a ring must not make every segment of radio a whole inference.
   */
  awaited(): boolean {
    return this.commands.core.expectingWords();
  }

  /** Every segment now gets a whole transcript: always-listen mode, or something waits for an answer. */
  wantsWholeTranscript(): boolean {
    return this.commands.core.router.mode === 'always-listen' || this.awaited();
  }

  /** The line in front of speech-to-text now. */
  load(): QueueLoad {
    const now = this.d.clock.now();
    return { depth: this.queue.depth, audioSec: Math.round(this.queue.audioSec * 100) / 100, bytes: this.queue.bytes, oldestWaitMs: Math.round(this.queue.oldestWaitMs(now)), behind: this.queue.behind(now) };
  }

  /** The largest depth since the last call (for the metrics' "largest queue depth"). */
  takePeakDepth(): number {
    return this.queue.takePeakDepth();
  }

  /** The top frame ends on a button tap (dictation, inventory). */
  takesTap(): boolean {
    return this.commands.core.router.handlesButton('tap');
  }

  /**
   * Words that did not come from the microphone (a fleet `cmd/utterance`, a phone, a central system):
   * handled exactly as if heard — the same router, after every segment closed before them.
   */
  heardText(text: string, from: string): Promise<void> {
    return this.enqueue(
      async () => {
        const u: Utterance = { id: randomUUID(), text: text.trim(), rawText: text, engine: 'text', atMs: this.d.clock.now() };
        if (!u.text) return;
        this.d.log.info('utterance', { id: u.id, engine: 'text', from, text: u.text });
        this.d.bus.emit('utterance.final', u);
        await this.conv.dispatch(u);
      },
      'text utterance failed',
      { from },
    );
  }

  /** Give the top frame its tap, after every segment closed before it. */
  buttonTap(): Promise<void> {
    return this.enqueue(async () => {
      this.commands.core.router.button('tap');
      await this.commands.core.router.idle();
    }, 'button tap failed');
  }

  idle(): Promise<void> {
    return this.work;
  }

  /**
   * Everything that reaches the router goes through here, one at a time; a failure is logged and the
   * next goes on. Text and taps keep their order; a segment goes in a lane (push-to-talk and awaited
   * answers first) and may be stored untranscribed instead when the line holds too much audio.
   */
  private enqueue(
    run: (taken: Taken<Work>) => Promise<void>,
    failed: string,
    fields: Record<string, unknown> = {},
    audio?: { lane: Lane; bytes: number; audioSec: number; evict: () => void },
  ): Promise<void> {
    return new Promise<void>((done) => {
      const work: Work = { run, failed, fields, done, ...(audio ? { evict: audio.evict } : {}) };
      const evicted = this.queue.push({ value: work, lane: audio?.lane ?? 'normal', bytes: audio?.bytes ?? 0, audioSec: audio?.audioSec ?? 0 }, this.d.clock.now());
      for (const e of evicted) {
        try {
          e.value.evict?.();
        } catch (err) {
          this.d.log.error('storing an evicted segment failed', { ...e.value.fields, error: errorMessage(err) });
        } finally {
          e.value.done();
        }
      }
      this.d.bus.emit('stt.queue', this.load());
      this.pump();
    });
  }

  private pump(): void {
    if (this.pumping) return;
    this.pumping = true;
    this.work = (async () => {
      try {
        // Start on a later tick, as a promise chain would: the caller finishes first, and a
        // push-to-talk segment closed in the same tick is still taken first.
        await null;
        for (let t = this.queue.take(this.d.clock.now()); t; t = this.queue.take(this.d.clock.now())) {
          this.d.bus.emit('stt.queue', this.load());
          const w = t.job.value;
          try {
            await w.run(t);
          } catch (err) {
            this.d.log.error(w.failed, { ...w.fields, error: errorMessage(err) });
          } finally {
            w.done();
          }
        }
      } finally {
        this.pumping = false;
      }
    })();
  }

  /**
   * hark is stopping: every segment already closed is still handled and stored, but speech-to-text
   * gets at most `withinMs` more; a segment whose transcript is not ready by then is stored
   * untranscribed (its audio and a row saying why), never lost. Resolves when all are stored.
   */
  finish(withinMs: number): Promise<void> {
    if (!this.finishing) {
      this.finishing = true;
      this.d.clock.setTimer(withinMs, () => this.timeUp());
    }
    return this.work;
  }

  /** At shutdown: every queued segment, then every delivery in flight (file appends, webhooks, the model). */
  async drain(): Promise<void> {
    await this.work;
    await this.commands.core.idle();
  }

  dispose(): void {
    this.conv.dispose();
  }

  // ---- one segment, start to end ----

  private async handle(rec: SegmentRecord, seg: OpenSegment | null, cancelled: boolean, taken: Taken<Work>): Promise<void> {
    try {
      // 1. Words: one transcript for the whole segment (a cancelled one is not transcribed), unless
      // it is not worth one (the backlog, no wake phrase at its start: see words()).
      let decided: Fate | null = null;
      if (cancelled) this.d.stt?.transcriber.cancel(seg?.live ?? null, 'push-to-talk cancelled');
      else if (this.d.stt) decided = await this.words(rec, seg, taken);
      // 2. What becomes of them.
      rec.fate = decided ?? this.fate(rec, seg, cancelled);
      if (rec.fate.kind === 'dispatched' && this.d.arbiter) {
        const verdict = await this.d.arbiter.decide(rec.segment, rec.fate.utterance);
        if (!verdict.act) rec.fate = { kind: 'yielded', utterance: rec.fate.utterance, reason: `yielded to ${verdict.to}` };
      }
      // 3. Seed 003: words take the floor from an answer being prepared; anything else gives it back.
      if (rec.fate.kind === 'dispatched' && !seg?.speaking) this.conv.interruptAnswer('speech');
      if (seg) this.release(seg);
      // 4. Only a dispatched utterance reaches the router.
      if (rec.fate.kind === 'dispatched') {
        this.current = rec;
        await this.conv.dispatch(rec.fate.utterance, rec.speechEndAt);
      }
    } finally {
      this.current = null;
      // Whatever went wrong, a held answer is never left waiting for this segment.
      if (seg) this.release(seg);
    }
    // 5. The record, after the action: no write sits between speech and action.
    rec.written = true;
    this.report(rec);
    const store = this.d.store();
    if (store) store.recordSegment(segmentWrite(rec, this.d.source));
  }

  /**
   * Issue 21: work in proportion to what matters. In wake-word mode with nothing waiting for an
   * answer (wantsWholeTranscript() false) and no push-to-talk, a segment that waited past
   * stt.queue.maxWaitMs is stored for replay (`backlog`), and a long one is transcribed on its
   * opening first: whole only when the opening starts with the wake phrase (or another base-frame
   * phrase). Returns the fate when it is already decided here; null to go on with the transcript.
   */
  private async words(rec: SegmentRecord, seg: OpenSegment | null, taken: Taken<Work>): Promise<Fate | null> {
    const stt = this.d.stt!;
    const s = rec.segment;
    const gated = s.openedBy !== 'ptt' && !this.wantsWholeTranscript();
    if (gated && taken.late) {
      stt.transcriber.cancel(seg?.live ?? null, 'backlog');
      if (seg) stt.transcriber.discardPreempt(seg.key);
      this.skipped(s.index, 'backlog-wait', taken.waitedMs);
      return { kind: 'untranscribed', reason: `${BACKLOG}: waited ${(taken.waitedMs / 1000).toFixed(1)} s for speech-to-text (stt.queue.maxWaitMs); replay it with hark replay` };
    }
    const stopping: Fate = { kind: 'untranscribed', reason: 'not transcribed: hark was stopping (replay it with hark replay)' };
    const opening = gated && !seg?.live ? this.opening(s) : null;
    // The opening check is the local engine's (see Transcriber.opening): when it gives no judgement
    // (it heard nothing on clear speech, failed, or is still busy), the whole goes on to the cloud once.
    let handOver: HandOver | undefined;
    // Its deadline counts from its close: the queue's wait, and the opening's time when the whole follows it.
    let waitedMs = taken.waitedMs;
    if (opening) {
      if (seg) stt.transcriber.discardPreempt(seg.key);
      const check = await Promise.race([stt.transcriber.opening({ index: s.index, pcm: opening, maxProb: s.maxProb, maxTokens: OPENING_TOKENS, waitedMs: taken.waitedMs }), this.outOfTime.then(() => null)]);
      if (!check) return stopping;
      if (check.kind === 'whole') handOver = check.handOver ?? undefined;
      else {
        const head = check.transcript;
        waitedMs += head.sttMs;
        const heard = head.hearing.kind === 'heard' ? head.hearing.utterance.text : '';
        const phrases = this.commands.core.timers.ringing ? [...this.phrases!, ...RING_STOP_OPENINGS] : this.phrases!;
        if (!startsWithPhrase(heard, phrases) && !opensImperative(heard, this.commands.core.language)) {
          const why = `${NO_WAKE_PHRASE} (only its first ${this.d.config.stt.opening.seconds} s transcribed)`;
          // The opening's attempts as they went, and one row that says what became of the segment.
          const attempts = head.attempts.map((a) => (a.droppedReason || a.error ? a : { ...a, droppedReason: why }));
          if (attempts.every((a) => a.droppedReason !== why)) attempts.push({ engine: 'none', outcome: 'skipped', rawText: '', text: '', sttMs: 0, droppedReason: why });
          rec.transcript = { ...head, attempts };
          this.skipped(s.index, 'no-wake-phrase', taken.waitedMs);
          return { kind: 'dropped', reason: NO_WAKE_PHRASE };
        }
      }
    }
    const t = await Promise.race([stt.transcriber.transcribe({ index: s.index, pcm: s.pcm, maxProb: s.maxProb, waitedMs }, seg?.live ?? null, seg?.key, handOver), this.outOfTime.then(() => null)]);
    if (!t) return stopping;
    rec.transcript = t;
    return null;
  }

  /** The segment's opening (pre-roll and stt.opening.seconds of speech), or null when it is short enough to transcribe whole. */
  private opening(s: Segment): Int16Array | null {
    if (!this.phrases) return null;
    const end = s.prerollSamples + Math.round(this.d.config.stt.opening.seconds * SAMPLE_RATE);
    // A hangover close ends on the hangover's silence: what matters is how long the speech ran. A
    // 2.5 s command closed by a 600 ms hangover is one inference, not an opening and then the whole.
    const trailing = s.closeReason === 'hangover' ? Math.round((this.hangoverMs / 1000) * SAMPLE_RATE) : 0;
    // Within half a second of the whole: the whole costs hardly more, and no words are cut off.
    if (s.pcm.length - trailing <= end + SAMPLE_RATE / 2) return null;
    return s.pcm.subarray(0, end);
  }

  private skipped(segment: number, reason: 'no-wake-phrase' | 'backlog-wait' | 'backlog-memory', waitedMs: number): void {
    this.d.log.info('segment not transcribed whole', { segment, reason, waitedMs: Math.round(waitedMs) });
    this.d.bus.emit('segment.skipped', { segment, reason, waitedMs: Math.round(waitedMs) });
  }

  /** A queued segment stored untranscribed at once (its audio and why), never lost. */
  private storeUnheard(rec: SegmentRecord, seg: OpenSegment | null, reason: string, why: 'backlog-memory', waitedMs: number): void {
    this.d.stt?.transcriber.cancel(seg?.live ?? null, reason);
    if (seg) {
      this.d.stt?.transcriber.discardPreempt(seg.key);
      this.release(seg);
    }
    this.skipped(rec.segment.index, why, waitedMs);
    rec.fate = { kind: 'untranscribed', reason };
    rec.written = true;
    this.report(rec);
    this.d.store()?.recordSegment(segmentWrite(rec, this.d.source));
  }

  private fate(rec: SegmentRecord, seg: OpenSegment | null, cancelled: boolean): Fate {
    const fate = this.fateOf(rec, seg, cancelled);
    // Its words came to nothing: no decision about it may still be waiting to time out (issue 19).
    if (seg && fate.kind !== 'dispatched' && fate.kind !== 'filtered') this.forgetBarge(seg);
    return fate;
  }

  private fateOf(rec: SegmentRecord, seg: OpenSegment | null, cancelled: boolean): Fate {
    if (cancelled) return { kind: 'cancelled', reason: 'push-to-talk cancelled (tap or mute hold)' };
    const t = rec.transcript;
    if (!t) return { kind: 'dropped', reason: 'no speech-to-text' };
    if (t.hearing.kind === 'dropped') {
      // Seed 002: a transcription failure allows the interruption — the person spoke over hark and
      // nobody can tell it was only "yeah". (A blank or a hallucination is a transcript: no words.)
      if (t.hearing.engine === null && seg?.speaking) this.bargeFailed(seg, t.hearing.reason);
      return { kind: 'dropped', reason: t.hearing.reason };
    }
    const u = t.hearing.utterance;
    const decision = this.barge(seg, seg?.key ?? `#${rec.segment.index}`, u.text, true, seg?.speaking ?? false);
    // A content frame (dictation, inventory) takes every word: a backchannel lets hark talk on, but is still content.
    if (decision?.action === 'filter' && !this.conv.takesEveryWord()) return { kind: 'filtered', utterance: u, reason: decision.reason };
    return { kind: 'dispatched', utterance: u };
  }

  /**
   * Seed 002 on what has been heard so far of the open segment (cloud partials): while hark speaks,
   * command words stop it at once; a backchannel-only span waits for its final chunk. Each final chunk
   * of the segment gets its own decision, so "yeah … stop" still stops. Seed 003: words cancel an
   * answer being prepared.
   */
  private hearing(seg: OpenSegment, h: LiveHearing): void {
    const speakingNow = this.d.speech?.queue.isSpeaking ?? false;
    if (speakingNow) seg.speaking = true;
    if (h.text && !seg.speaking) this.conv.interruptAnswer('speech');
    this.hint(seg, h.stableText);
    const chunks = h.finalChunks;
    while (seg.spans < chunks.length) this.barge(seg, `${seg.key}#${seg.spans}`, chunks[seg.spans++]!, true, seg.speaking);
    if (h.partialText) this.barge(seg, `${seg.key}#${seg.spans}`, h.partialText, false, seg.speaking);
  }

  /** The router knows what it waits for: a one-word answer closes after a shorter silence. */
  private topChanged(top: string | undefined): void {
    const v = this.d.config.vad;
    const ms = (top !== undefined ? v.frameHangoverMs[top] : undefined) ?? v.hangoverMs;
    if (ms === this.hangoverMs) return;
    this.hangoverMs = ms;
    this.d.setHangoverMs?.(ms);
  }

  /** Seed 000's two-stage detection: the settled words' intent as a hint (UI, pre-warming); only the final acts. */
  private hint(seg: OpenSegment, stableText: string): void {
    if (!stableText) return;
    const intent = detectIntent(stableText);
    const candidate = intent.name === 'other' || intent.name === 'statement' ? null : intent.name;
    if (!candidate || candidate === seg.candidate) return;
    seg.candidate = candidate;
    this.d.bus.emit('intent.candidate', { segmentId: seg.key, candidate, stableText });
  }

  /** The interruption filter on words of this segment (Conversation.interruption); its ids are forgotten if the segment comes to nothing. */
  private barge(seg: OpenSegment | null, id: string, text: string, final: boolean, speaking: boolean): FilterDecision | null {
    seg?.bargeIds.add(id);
    return this.conv.interruption(id, text, final, speaking);
  }

  /** Every engine failed on a segment said over hark: it gets the floor (seed 002). */
  private bargeFailed(seg: OpenSegment, reason: string): void {
    this.forgetBarge(seg);
    this.conv.interruptionFailed(seg.key, reason);
  }

  private forgetBarge(seg: OpenSegment): void {
    for (const id of seg.bargeIds) this.conv.forgetInterruption(id);
    seg.bargeIds.clear();
  }

  private release(seg: OpenSegment): void {
    if (!seg.held) return;
    seg.held = false;
    this.conv.release();
  }

  private remember(seq: number, row: ActionInput): void {
    this.fired.set(seq, { row, rec: this.current });
    // Only the last few can still be superseded (the conflict window is seconds).
    for (const k of this.fired.keys()) {
      if (this.fired.size <= 16) break;
      this.fired.delete(k);
    }
  }

  /** Seed 000's last-wins: the earlier action's row says it was superseded, written or not. */
  private superseded(seq: number, by: string): void {
    const f = this.fired.get(seq);
    if (!f) return;
    this.fired.delete(seq);
    f.row.outcome = 'superseded';
    f.row.error = `by ${by}`;
    if (!f.rec || f.rec.written) {
      const fate = f.rec?.fate;
      const utteranceId = fate && (fate.kind === 'dispatched' || fate.kind === 'filtered') ? fate.utterance.id : null;
      this.d.store()?.supersedeAction(utteranceId, f.row.name, f.row.error);
    }
  }

  private report(rec: SegmentRecord): void {
    const firstActionAt = rec.firstActionAt;
    const now = this.d.clock.now();
    const f = rec.fate;
    const u = 'utterance' in f ? f.utterance : null;
    if (f.kind === 'untranscribed') this.d.log.warn('segment stored untranscribed', { segment: rec.segment.index, reason: f.reason });
    this.d.bus.emit('segment.handled', {
      segment: rec.segment.index,
      fate: f.kind,
      reason: f.kind === 'dispatched' ? null : f.reason,
      utterance: u ? { id: u.id, text: u.text, engine: u.engine } : null,
      actions: rec.actions.map((a) => a.name),
      sttMs: rec.transcript?.sttMs ?? 0,
      latencyMs: Math.round((now - rec.closedAt) * 1000) / 1000,
      actionMs: firstActionAt === null ? null : Math.round((firstActionAt - rec.closedAt) * 1000) / 1000,
    });
  }

  /** The command side's effects, after hark's voice acted on them: the segment's action rows. */
  private onEffect(e: Effect, atMs: number): void {
    if (e.type === 'stack') this.topChanged(e.frames[e.frames.length - 1]);
    if (e.type === 'action.superseded') {
      this.superseded(e.seq, e.by);
      return;
    }
    const row = actionRow(e);
    if (!row) return;
    if (e.type === 'action' && e.seq !== undefined) this.remember(e.seq, row);
    if (this.current) {
      if (e.type === 'action' && this.current.firstActionAt === null) this.current.firstActionAt = atMs;
      row.latencyMs = Math.round(atMs - this.current.closedAt);
      this.current.actions.push(row);
    } else {
      // A timer that rang, a confirmation timeout: not part of any segment's handling.
      this.d.store()?.addAction(row);
    }
  }
}
