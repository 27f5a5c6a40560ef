import { OneAtATime } from '../core/one-at-a-time.js';
import { randomUUID } from 'node:crypto';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import type { CircuitBreaker } from '../core/circuit-breaker.js';
import type { EngineId } from '../core/utterance.js';
import type { EngineSlot, SttEngine } from './engine.js';
import { EngineCalls, recordAttempt, type Live, type LiveSegment, type Outcome } from './engine-calls.js';
import type { SegmentHeard, SegmentTranscript, SttAttempt } from './events.js';
import { judge } from './fallback-policy.js';
import { HallucinationFilter } from './hallucination-filter.js';
import { InterimTranscript } from './interim-transcript.js';
import { Speculations } from './speculation.js';
import { EngineFailure, type AsrEvent, type SegmentAudio, type Transcript } from './types.js';

export type { LiveSegment } from './engine-calls.js';
import './events.js';
import type { HandOver, OpeningCheck, SttSegment, TranscriberOptions } from './transcriber-io.js';

export type { HandOver, OpeningCheck, SttSegment, TranscriberOptions } from './transcriber-io.js';

/**
 * Speech-to-text for one segment at a time: the engines in order, a circuit breaker on each remote
 * one, the hallucination filter, and one result per segment — the whole transcript of the first
 * engine whose answer stands, or the reason nothing was heard. An engine that fails part-way (the
 * cloud socket dies after a final) never contributes words: the next engine transcribes the whole
 * segment, and what the failed one had heard is kept only as its attempt's record.
 *
 * With a streaming first engine, open() starts the segment's stream when the VAD opens it, so
 * interim results (InterimTranscript) arrive while the person speaks and the close only has to flush.
 */
export class Transcriber {
  private readonly filter: HallucinationFilter;
  private readonly calls: EngineCalls;
  private readonly log: Logger;
  private readonly newId: () => string;
  /** Work started at a pause of the open segment (preempt()). */
  private readonly specs: Speculations;
  /** The segment being transcribed: the next waits for it. */
  private readonly turn = new OneAtATime();

  constructor(private readonly o: TranscriberOptions) {
    this.log = o.logger;
    this.newId = o.newId ?? randomUUID;
    this.filter = new HallucinationFilter(o.filter);
    for (const slot of o.engines) if (!slot.engine) this.log.warn(`speech-to-text: ${slot.id} is not available`, { reason: slot.missing });
    this.calls = new EngineCalls({ engines: o.engines, breaker: o.breaker, clock: o.clock, log: o.logger, bus: o.bus });
    this.specs = new Speculations(o.bus);
  }

  /** The circuit breaker of a remote engine (status pages, tests). */
  breaker(id: EngineId): CircuitBreaker | undefined {
    return this.calls.breaker(id);
  }

  /**
   * A segment opened (its pre-roll and first frames in `pcm`): if the first engine streams and its
   * circuit allows, start streaming it. `key` names it until it closes ("@<first sample>").
   * `onHearing` is called whenever what is heard so far changes. Null when nothing streams.
   */
  open(key: string, pcm: Int16Array, onHearing?: (h: InterimTranscript) => void): LiveSegment | null {
    const first = this.o.engines[0];
    const engine = first?.engine;
    if (!engine?.openLive) return null;
    const hearing = new InterimTranscript(this.o.stabilizer);
    const live = this.calls.openLive(engine, key, hearing, (e) => this.onEvent(key, engine.id, hearing, e, onHearing));
    live?.write(pcm);
    return live;
  }

  /** The segment will not be transcribed (too short, cancelled): its stream is thrown away. */
  cancel(segment: LiveSegment | null, why: string): void {
    const live = segment as Live | null;
    if (live) this.calls.cancel(live, why);
  }

  /**
   * The open segment `key` has gone quiet (the VAD hangover is running): start the first engine on
   * what was said so far, so that if the person has stopped the transcript is ready at the close.
   * Only for an engine that takes whole segments (a streaming one is already done at the close), and
   * at most one in flight — a discarded one still occupies the engine until it finishes.
   */
  preempt(key: string, pcm: Int16Array, onReady?: (t: Transcript) => void): boolean {
    const engine = this.o.engines[0]?.engine;
    if (!engine || engine.openLive || !this.specs.free) return false;
    const spec = this.specs.start(key, engine, pcm.length, this.attempt(engine, { id: key, pcm }, null, new InterimTranscript(this.o.stabilizer)));
    // Only news while it still stands: not after speech resumed or the segment closed.
    if (onReady) void spec.promise.then((o) => spec.stands() && 'transcript' in o && onReady(o.transcript));
    return true;
  }

  /** Speech resumed in segment `key` (or it was dropped): its speculative transcript is stale. */
  discardPreempt(key: string): void {
    this.specs.discard(key);
  }

  /**
   * Transcribe a closed segment, using its live stream when there is one, or the speculative
   * transcript started at its pause (`key` names the open segment it was started for). `handOver`:
   * the opening check's local engine gave no judgement; the whole goes to the engines after it.
   */
  transcribe(segment: SttSegment, liveSegment: LiveSegment | null = null, key?: string, handOver?: HandOver): Promise<SegmentTranscript> {
    // One segment at a time: a caller that hands over segments as they close (`hark
    // transcribe`) gets each one's own speech-to-text time, not the wait behind the ones before it.
    const askedAt = this.o.clock.now();
    return this.inTurn(() => this.transcribeNow(this.waited(segment, askedAt), liveSegment, key, handOver));
  }

  /**
   * Opening check: is there a base-frame phrase at the start of this segment? Asked of the
   * local engine only — the check exists to spare its CPU a whole inference on radio, and a cloud
   * engine hears the whole as cheaply. Local words (or a blank it is believed on) are `judged`. A local
   * blank or hallucination on clear speech, a failure, a deadline, or a local engine still busy with
   * abandoned work: `whole`, when a later engine can take it — the cloud hears the whole segment once,
   * never the opening. With no later engine the local answer stands, as it would for a whole segment.
   * A judged opening is not announced: the caller does (announce()) when it becomes the segment's.
   * `key`: the open segment it is the opening of; a transcript started at its pause that heard the
   * whole opening is its check, not another inference.
   */
  opening(segment: SttSegment, key?: string): Promise<OpeningCheck> {
    const askedAt = this.o.clock.now();
    return this.inTurn(() => this.openingNow(this.waited(segment, askedAt), key));
  }

  /**
   * The segment with its wait behind the segments before it (the caller's queue, then its turn here)
   * added up — when the caller counts from the close (the daemon, live). A caller that hands over a
   * file's segments all at once (`hark transcribe`, `hark replay`) gives none: no deadline of theirs
   * counts the wait, as nobody is waiting for an action.
   */
  private waited(segment: SttSegment, askedAt: number): SttSegment {
    if (segment.waitedMs === undefined) return segment;
    return { ...segment, waitedMs: segment.waitedMs + (this.o.clock.now() - askedAt) };
  }

  private inTurn<T>(f: () => Promise<T>): Promise<T> {
    return this.turn.run(f);
  }

  private async openingNow(segment: SttSegment, key: string | undefined): Promise<OpeningCheck> {
    const slots = this.available();
    const local = slots[0];
    // A cloud engine first: no opening check (it would cost a request, and save no local CPU).
    if (!local || local.remote) return { kind: 'whole', handOver: null };
    const heardAlready = this.specs.covering(key, local, segment.pcm.length);
    // It cannot answer in time (busy with abandoned work, or too much ahead of it): the whole goes to
    // the fallback now, and the local engine is asked last — on the whole — only if that fails.
    const why = heardAlready ? null : this.tooLate(local, slots.slice(1), segment);
    if (why) {
      const failure = new EngineFailure(local.id, 'unavailable', why);
      const attempt = recordAttempt(local.id, { failure }, new InterimTranscript(this.o.stabilizer), undefined, undefined, this.filter);
      return { kind: 'whole', handOver: { after: local.id, reason: failure.reason, attempts: [attempt], sttMs: 0, askLast: true } };
    }
    const startedAt = this.o.clock.now();
    const audio = toAudio(segment);
    const heard = new InterimTranscript(this.o.stabilizer);
    const outcome = await (heardAlready ?? this.attempt(local, audio, null, heard));
    const verdict = judge(local, outcome, segment.maxProb, { filter: this.filter, clearSpeechProb: this.o.clearSpeechProb });
    if (!verdict.accept && slots.length > 1) {
      const reason = `${verdict.reason}, on its opening`;
      return {
        kind: 'whole',
        handOver: {
          after: local.id,
          reason,
          attempts: [recordAttempt(local.id, outcome, heard, undefined, verdict.reason, this.filter)],
          sttMs: Math.round(this.o.clock.now() - startedAt),
        },
      };
    }
    const attempts = [recordAttempt(local.id, outcome, heard, undefined, verdict.accept ? undefined : verdict.reason, this.filter)];
    const hearing: SegmentHeard =
      'transcript' in outcome
        ? this.hearing(segment, local.id, outcome.transcript, undefined, startedAt)
        : { kind: 'dropped', reason: verdict.accept ? '' : verdict.reason, rawText: '', engine: null };
    const result: SegmentTranscript = {
      segmentId: segment.index,
      attempts,
      hearing,
      sttMs: Math.round(this.o.clock.now() - startedAt),
      audioSec: segment.pcm.length / 16_000,
    };
    return { kind: 'judged', transcript: result };
  }

  /** The built engines in the order they are asked. */
  private available(): SttEngine[] {
    return this.o.engines.flatMap((s) => (s.engine ? [s.engine] : []));
  }

  /**
   * Why a local engine would answer this segment too late (SttEngine.unavailableFor), when an engine
   * in `later` could take it instead; null when it would not be late, or nobody else could take it.
   */
  private tooLate(engine: SttEngine, later: readonly SttEngine[], segment: SttSegment): string | null {
    if (engine.remote || !this.usableFallback(later)) return null;
    return engine.unavailableFor?.(segment.pcm.length, segment.waitedMs ?? 0) ?? null;
  }

  /** A later engine that can take a segment now: built, and its circuit not open. */
  private usableFallback(later: readonly SttEngine[]): SttEngine | null {
    return later.find((e) => this.calls.breaker(e.id)?.state !== 'open') ?? null;
  }

  private async transcribeNow(
    segment: SttSegment,
    liveSegment: LiveSegment | null,
    key: string | undefined,
    handOver: HandOver | undefined,
  ): Promise<SegmentTranscript> {
    const live = liveSegment as Live | null;
    // The opening's time counts: the segment's speech-to-text began with it.
    const startedAt = this.o.clock.now() - (handOver?.sttMs ?? 0);
    const audio = toAudio(segment);
    const attempts: SttAttempt[] = [...(handOver?.attempts ?? [])];
    const reasons: string[] = handOver ? [handOver.reason] : [];
    let fallbackReason: string | undefined = handOver?.reason;
    let hearing: SegmentHeard | null = null;
    // The chain for this segment: after the opening's engine when it handed over.
    const all = this.o.engines;
    const from = handOver ? all.findIndex((s) => s.id === handOver.after) : -1;
    const queue: EngineSlot[] = handOver ? all.slice(from + 1) : [...all];
    const deferred = new Set<SttEngine>();
    if (handOver?.askLast && all[from]?.engine) {
      deferred.add(all[from].engine);
      queue.push(all[from]);
    }
    try {
      for (let i = 0; i < queue.length; i++) {
        const slot = queue[i]!;
        if (!slot.engine) {
          reasons.push(`no ${slot.id}: ${slot.missing}`);
          continue;
        }
        const engine = slot.engine;
        const rest = queue.slice(i + 1).flatMap((s) => (s.engine ? [s.engine] : []));
        if (fallbackReason) {
          const from = attempts[attempts.length - 1]?.engine ?? all[0]!.id;
          this.o.bus.emit('stt.fallback', { segmentId: segment.index, from, to: engine.id, reason: fallbackReason });
        }
        // A local engine that cannot answer in time — still running abandoned work (whisper.cpp cannot
        // be stopped), or with too much ahead of this segment — would make it wait and then overrun
        // its own deadline: the next engine goes first, and this one is asked last, only if none answers.
        // Not when this segment's own work is already under way (the transcript started at its pause).
        const own = attempts.length === 0 && !live && this.specs.standing(key, engine);
        const why = !own && !deferred.has(engine) ? this.tooLate(engine, rest, segment) : null;
        let outcome: Outcome;
        if (why) {
          deferred.add(engine);
          queue.push(slot);
          outcome = { failure: new EngineFailure(engine.id, 'unavailable', why) };
        } else {
          const useLive = live && !live.done && live.engine === engine.id ? live : null;
          if (live && live !== useLive && !live.done) this.cancel(live, 'another engine is transcribing the segment');
          const heardSoFar = useLive?.hearing ?? new InterimTranscript(this.o.stabilizer);
          const preempted = attempts.length === 0 && !useLive ? this.specs.take(key, engine) : null;
          outcome = await (preempted ?? this.attempt(engine, audio, useLive, heardSoFar));
          const verdict = judge(engine, outcome, segment.maxProb, { filter: this.filter, clearSpeechProb: this.o.clearSpeechProb });
          attempts.push(recordAttempt(engine.id, outcome, heardSoFar, fallbackReason, verdict.accept ? undefined : verdict.reason, this.filter));
          // The last engine asked: its transcript is final even when it would otherwise hand over.
          const last = queue.slice(i + 1).every((s) => !s.engine);
          if (verdict.accept || (last && 'transcript' in outcome)) {
            hearing = this.hearing(segment, engine.id, (outcome as { transcript: Transcript }).transcript, fallbackReason, startedAt);
            break;
          }
          reasons.push(verdict.reason);
          fallbackReason = verdict.reason;
          continue;
        }
        attempts.push(recordAttempt(engine.id, outcome, new InterimTranscript(this.o.stabilizer), fallbackReason, undefined, this.filter));
        reasons.push(outcome.failure.reason);
        fallbackReason = outcome.failure.reason;
      }
    } catch (err) {
      // A bug, not an engine failure: report it with the segment and keep the daemon going.
      this.log.error('speech-to-text failed on a segment', { segment: segment.index, error: errorMessage(err) });
      reasons.push(`internal error: ${errorMessage(err)}`);
    } finally {
      if (live && !live.done) this.cancel(live, 'the segment was not transcribed');
      if (key !== undefined) this.discardPreempt(key);
    }
    hearing ??= { kind: 'dropped', reason: reasons.join('; ') || 'no speech-to-text engine is available', rawText: '', engine: null };
    const result: SegmentTranscript = {
      segmentId: segment.index,
      attempts,
      hearing,
      sttMs: Math.round(this.o.clock.now() - startedAt),
      audioSec: segment.pcm.length / 16_000,
    };
    this.announce(result);
    return result;
  }

  private attempt(engine: SttEngine, audio: SegmentAudio, live: Live | null, heard: InterimTranscript): Promise<Outcome> {
    return this.calls.attempt(engine, audio, live, (e) => this.onEvent(String(audio.id), engine.id, heard, e));
  }

  /** The words of the transcript that stood, through the hallucination filter: heard, or dropped with why. */
  private hearing(segment: SttSegment, engine: EngineId, t: Transcript, fallbackReason: string | undefined, startedAt: number): SegmentHeard {
    const drop = this.filter.check(t.rawText, t.text, t.language);
    if (drop) return { kind: 'dropped', reason: drop.reason, rawText: t.rawText, engine };
    const now = this.o.clock.now();
    const u: Utterance = {
      id: this.newId(),
      text: t.text,
      rawText: t.rawText,
      engine,
      segmentId: segment.index,
      sttMs: Math.max(0, Math.round(now - startedAt)),
      atMs: now,
      closeReason: 'segment-end',
    };
    if (fallbackReason) u.fallbackReason = fallbackReason;
    if (t.language) u.language = t.language;
    if (t.tokens) u.tokens = t.tokens;
    if (t.words) u.words = t.words.map((w) => ({ word: w.word, start: w.start, end: w.end }));
    return { kind: 'heard', utterance: u };
  }

  private onEvent(segmentId: string, engine: EngineId, hearing: InterimTranscript, e: AsrEvent, onHearing?: (h: InterimTranscript) => void): void {
    if (e.kind === 'partial' || e.kind === 'final') {
      const { kind, ...rest } = e;
      this.o.bus.emit(kind === 'final' ? 'asr.final' : 'asr.partial', { ...rest, segmentId });
      if (hearing.result(e)) {
        this.o.bus.emit('hearing.update', { segmentId, engine, stableText: hearing.stableText, rawText: hearing.rawText, atMs: this.o.clock.now() });
        try {
          onHearing?.(hearing);
        } catch (err) {
          this.log.error('live hearing listener failed', { error: errorMessage(err) });
        }
      }
    } else if (e.kind === 'utterance-end' || e.kind === 'speech-started') {
      this.o.bus.emit('asr.boundary', { segmentId, kind: e.kind, atSec: e.kind === 'utterance-end' ? e.lastWordEnd : e.timestamp, receivedAt: e.receivedAt });
    }
  }

  /** A segment's transcript is final: logged and told (utterance.final or .dropped, and stt.segment). */
  announce(r: SegmentTranscript): void {
    const h = r.hearing;
    if (h.kind === 'heard') {
      const u = h.utterance;
      this.log.info('utterance', { id: u.id, segment: u.segmentId, engine: u.engine, text: u.text, sttMs: u.sttMs, fallback: u.fallbackReason });
      this.o.bus.emit('utterance.final', u);
    } else {
      this.log.info('nothing heard', { segment: r.segmentId, engine: h.engine, reason: h.reason, raw: h.rawText });
      this.o.bus.emit('utterance.dropped', { segmentId: r.segmentId, engine: h.engine, rawText: h.rawText, reason: h.reason });
    }
    this.o.bus.emit('stt.segment', r);
  }
}

function toAudio(segment: SttSegment): SegmentAudio {
  return {
    id: segment.index,
    pcm: segment.pcm,
    ...(segment.maxProb !== undefined ? { maxProb: segment.maxProb } : {}),
    ...(segment.maxTokens !== undefined ? { maxTokens: segment.maxTokens } : {}),
  };
}
