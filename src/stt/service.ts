import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import { CircuitBreaker, type CircuitBreakerOptions, type Permit } from '../core/circuit-breaker.js';
import type { SegmentStt, SttAttempt } from './events.js';
import { engineOrder, judge, type EngineId, type SttMode } from './fallback-policy.js';
import { HallucinationFilter, type FilterOptions } from './hallucination-filter.js';
import { EngineFailure, type AsrEvent, type SegmentAudio, type Transcript } from './types.js';
import { UtteranceBuilder, type SegmentContext, type UtteranceBuilderOptions, type UtteranceEvent } from './utterance-builder.js';
import './events.js';

/** The local engine as the service uses it (WhisperEngine, or a test double). */
export interface LocalEngine {
  transcribe(audio: SegmentAudio): Promise<Transcript>;
}

export interface CloudStream {
  write(pcm: Int16Array): void;
  finish(): Promise<Transcript>;
}

/** The cloud engine as the service uses it (DeepgramEngine, or a test double). */
export interface CloudEngine {
  openStream(segmentId: number | string, onEvent: (e: AsrEvent) => void): CloudStream;
}

export interface SttServiceOptions {
  mode: SttMode;
  whisper: LocalEngine | null;
  deepgram: CloudEngine | null;
  /** Why an engine is absent (e.g. "DEEPGRAM_API_KEY is not set"), for the records. */
  missing?: Partial<Record<EngineId, string>>;
  clearSpeechProb: number;
  breaker: CircuitBreakerOptions;
  filter: FilterOptions;
  utterance: UtteranceBuilderOptions;
  clock: Clock;
  logger: Logger;
  bus: Bus;
  newId?: () => string;
}

/** A segment as the service takes it: the VAD's Segment fits (index, pcm, maxProb, startSample). */
export interface SttSegment {
  index: number | string;
  pcm: Int16Array;
  maxProb?: number;
  /** Matches a segment to its live stream (segmentOpened); absent for one-shot use. */
  startSample?: number;
}

interface Job {
  key: number | undefined;
  stream: CloudStream | null;
  permit: Permit | null;
  /** Events that came before this segment had the builder. */
  buffered: AsrEvent[];
  attached: boolean;
  /** Deepgram events for this job are wanted (false once its cloud attempt is over). */
  cloudOpen: boolean;
  segmentId: number | string;
  collected: Utterance[];
}

type Outcome = { transcript: Transcript } | { failure: EngineFailure };

/**
 * Speech-to-text for the daemon and `hark transcribe`: the fallback policy around the two engines,
 * the circuit breaker on the cloud, and seed 000's utterance builder, publishing asr.* and
 * utterance.* events on the bus.
 *
 * Segments are handled one at a time in the order they closed. In the cloud-first modes a segment's
 * audio can stream to Deepgram while it is still open (segmentOpened / segmentAudio, from the
 * segment pipeline's `open` and `audio` events), so partial results reach the builder as the person
 * speaks; handleSegment() then only has to flush it.
 */
export class SttService {
  readonly breaker: CircuitBreaker;
  private readonly filter: HallucinationFilter;
  private readonly builder: UtteranceBuilder;
  private readonly log: Logger;
  private tail: Promise<unknown> = Promise.resolve();
  /** Live jobs by startSample, waiting for their segment to close. */
  private readonly live = new Map<number, Job>();
  /** Live jobs in the order they opened, not yet processed. */
  private pending: Job[] = [];
  /** The job whose segment the builder is on. */
  private owner: Job | null = null;
  private openJob: Job | null = null;
  private closed = false;

  constructor(private readonly o: SttServiceOptions) {
    this.log = o.logger;
    this.filter = new HallucinationFilter(o.filter);
    this.breaker = new CircuitBreaker(o.breaker, o.clock, (state, reason) => {
      (state === 'open' ? this.log.warn : this.log.info)('deepgram circuit ' + state, { reason });
      o.bus.emit('stt.circuit', { state, reason });
    });
    this.builder = new UtteranceBuilder(o.utterance, o.clock, this.filter, (e) => this.onUtterance(e), o.newId);
    for (const e of engineOrder(o.mode)) {
      if (!this.engine(e)) this.log.warn(`stt.mode ${o.mode}: ${e} is not available`, { reason: o.missing?.[e] ?? 'not configured' });
    }
  }

  get mode(): SttMode {
    return this.o.mode;
  }

  // ---- live streaming hooks (cloud-first / cloud-only) ----

  /** A segment opened: in the cloud-first modes, start streaming it (pre-roll + live so far). */
  segmentOpened(info: { startSample: number; pcm: Int16Array }): void {
    if (this.closed || engineOrder(this.o.mode)[0] !== 'deepgram' || !this.o.deepgram) return;
    // Until it closes the segment has no index: its live events carry "@<first sample>".
    const job: Job = { key: info.startSample, stream: null, permit: null, buffered: [], attached: false, cloudOpen: true, segmentId: `@${info.startSample}`, collected: [] };
    const permit = this.breaker.acquire();
    job.permit = permit;
    if (permit.allowed) {
      job.stream = this.o.deepgram.openStream(job.segmentId, (e) => this.onCloudEvent(job, e));
      job.stream.write(info.pcm);
    }
    this.live.set(info.startSample, job);
    this.pending.push(job);
    this.openJob = job;
    this.attachNext();
  }

  /** Live audio of the open segment. */
  segmentAudio(frame: Int16Array): void {
    this.openJob?.stream?.write(frame);
  }

  /**
   * A segment will not be transcribed (too short for the VAD, a cancelled push-to-talk): flush and
   * forget its stream. Without `startSample`, the segment open right now.
   */
  segmentDropped(info: { startSample?: number } = {}): void {
    const job = info.startSample === undefined ? this.openJob : (this.live.get(info.startSample) ?? null);
    if (!job) return;
    this.discard(job, 'the segment was dropped before transcription');
  }

  private discard(job: Job, why: string): void {
    if (this.openJob === job) this.openJob = null;
    if (job.key !== undefined) this.live.delete(job.key);
    this.pending = this.pending.filter((j) => j !== job);
    job.cloudOpen = false;
    job.stream?.finish().catch(() => {});
    if (job.permit?.allowed && job.permit.probe) this.breaker.failure(`probe not completed: ${why}`);
    if (this.owner === job) {
      this.builder.abandonSegment(why);
      job.attached = false;
      this.owner = null;
      this.attachNext();
    }
  }

  // ---- segments ----

  /** Transcribe a closed segment. Resolves when its utterances have been published. */
  handleSegment(segment: SttSegment): Promise<SegmentStt> {
    let job: Job | undefined;
    if (segment.startSample !== undefined) {
      job = this.live.get(segment.startSample);
      this.live.delete(segment.startSample);
    }
    if (job && this.openJob === job) this.openJob = null;
    if (job) job.segmentId = segment.index;
    if (segment.startSample !== undefined) {
      // Streams opened before this segment whose segment never came (nobody told us it was dropped):
      // they would hold the builder's queue forever.
      const stale = [...this.live.values()].filter((j) => j !== job && j.key !== undefined && j.key < segment.startSample!);
      for (const j of stale) this.discard(j, 'its segment never closed');
    }
    const run = this.tail.then(() => this.process(segment, job ?? null));
    this.tail = run.catch(() => {});
    return run;
  }

  /** Wait for queued segments, then close what is open. Engines belong to the caller. */
  async close(): Promise<void> {
    this.closed = true;
    await this.tail;
    for (const j of this.pending) j.stream?.finish().catch(() => {});
    this.pending = [];
    this.builder.shutdown();
  }

  private async process(segment: SttSegment, liveJob: Job | null): Promise<SegmentStt> {
    const startedAt = this.o.clock.now();
    const job: Job = liveJob ?? { key: undefined, stream: null, permit: null, buffered: [], attached: false, cloudOpen: false, segmentId: segment.index, collected: [] };
    job.segmentId = segment.index;
    if (liveJob) this.pending = this.pending.filter((j) => j !== liveJob);
    const audio: SegmentAudio = { id: segment.index, pcm: segment.pcm };
    if (segment.maxProb !== undefined) audio.maxProb = segment.maxProb;
    const attempts: SttAttempt[] = [];
    const reasons: string[] = [];
    let fallbackReason: string | undefined;
    let used: EngineId | null = null;
    let last: { engine: EngineId; outcome: Outcome } | null = null;
    const order = engineOrder(this.o.mode);
    try {
      for (let i = 0; i < order.length; i++) {
        const engine = order[i]!;
        if (!this.engine(engine)) {
          const why = `no ${engine}: ${this.o.missing?.[engine] ?? 'not configured'}`;
          reasons.push(why);
          if (fallbackReason) this.log.warn('no fallback engine', { segment: segment.index, reason: fallbackReason, missing: why });
          continue;
        }
        if (fallbackReason) this.o.bus.emit('stt.fallback', { segmentId: segment.index, from: order[i - 1]!, to: engine, reason: fallbackReason });
        const ctx: SegmentContext = { segmentId: segment.index, engine, startedAt, live: false };
        if (fallbackReason) ctx.fallbackReason = fallbackReason;
        const outcome = engine === 'whisper' ? await this.local(audio) : await this.cloud(audio, job, i === 0 ? liveJob : null, ctx);
        last = { engine, outcome };
        const verdict = judge(engine, outcome, segment.maxProb, { filter: this.filter, clearSpeechProb: this.o.clearSpeechProb });
        attempts.push(attempt(engine, outcome, fallbackReason, verdict.accept ? undefined : verdict.reason, this.filter));
        if (verdict.accept) {
          used = engine;
          this.deliver(engine, outcome as { transcript: Transcript }, ctx, job);
          break;
        }
        if (engine === 'deepgram' && job.attached && this.owner === job) {
          this.builder.abandonSegment(verdict.reason);
          job.attached = false;
        }
        reasons.push(verdict.reason);
        fallbackReason = verdict.reason;
      }
      if (used === null) {
        const ctx: SegmentContext = { segmentId: segment.index, engine: last?.engine ?? order[0]!, startedAt, live: false };
        if (last && 'transcript' in last.outcome) {
          // The last engine did answer, only not well enough to stand (blank on clear speech with no
          // one left to ask): its transcript goes through the builder, which drops it with its reason.
          if (attempts.length > 1 && attempts[attempts.length - 1]!.fallbackReason) ctx.fallbackReason = attempts[attempts.length - 1]!.fallbackReason!;
          used = last.engine;
          this.deliver(last.engine, last.outcome, ctx, job);
        } else {
          this.claim(job);
          this.builder.failSegment(ctx, reasons.join('; ') || 'no speech-to-text engine is available');
        }
      }
    } catch (err) {
      // A bug, not an engine failure: report it with the segment and keep the daemon going.
      this.log.error('speech-to-text failed on a segment', { segment: segment.index, error: errorMessage(err) });
      this.claim(job);
      this.builder.failSegment({ segmentId: segment.index, engine: order[0]!, startedAt, live: false }, `internal error: ${errorMessage(err)}`);
    } finally {
      if (this.owner === job) this.owner = null;
      this.attachNext();
    }
    const result: SegmentStt = { segmentId: segment.index, engine: used, attempts, utterances: job.collected, sttMs: Math.round(this.o.clock.now() - startedAt) };
    const firstFallback = attempts.find((a) => a.fallbackReason)?.fallbackReason;
    if (used && firstFallback) result.fallbackReason = firstFallback;
    this.o.bus.emit('stt.segment', result);
    return result;
  }

  private engine(e: EngineId): LocalEngine | CloudEngine | null {
    return e === 'whisper' ? this.o.whisper : this.o.deepgram;
  }

  private async local(audio: SegmentAudio): Promise<Outcome> {
    try {
      return { transcript: await this.o.whisper!.transcribe(audio) };
    } catch (err) {
      return { failure: err instanceof EngineFailure ? err : new EngineFailure('whisper', 'error', errorMessage(err)) };
    }
  }

  private async cloud(audio: SegmentAudio, job: Job, liveJob: Job | null, ctx: SegmentContext): Promise<Outcome> {
    let stream = liveJob?.stream ?? null;
    let permit = liveJob?.permit ?? null;
    if (liveJob && !stream) {
      // It was refused when the segment opened; ask again now — the circuit may have half-opened.
      permit = null;
    }
    if (!stream) {
      permit = this.breaker.acquire();
      if (!permit.allowed) return { failure: new EngineFailure('deepgram', 'unavailable', permit.reason) };
      job.buffered = [];
      job.cloudOpen = true;
      job.stream = stream = this.o.deepgram!.openStream(audio.id, (e) => this.onCloudEvent(job, e));
      stream.write(audio.pcm);
    } else {
      ctx.live = true;
    }
    this.claim(job, ctx);
    try {
      const transcript = await stream.finish();
      this.breaker.success();
      return { transcript };
    } catch (err) {
      const f = err instanceof EngineFailure ? err : new EngineFailure('deepgram', 'error', errorMessage(err));
      if (f.kind !== 'unavailable') this.breaker.failure(f.reason, { trip: f.kind === 'auth' });
      else if (permit?.allowed && permit.probe) this.breaker.failure(f.reason);
      return { failure: f };
    } finally {
      job.cloudOpen = false;
    }
  }

  /** Publish an accepted transcript through the builder (Deepgram's events are already in it). */
  private deliver(engine: EngineId, outcome: { transcript: Transcript }, ctx: SegmentContext, job: Job): void {
    const t = outcome.transcript;
    if (engine === 'deepgram' && job.attached && this.owner === job) {
      this.builder.endSegment();
      return;
    }
    if (t.tokens) ctx.tokens = t.tokens;
    this.claim(job, ctx);
    this.builder.asr({
      kind: 'final',
      text: t.rawText,
      words: engine === 'deepgram' ? (t.words ?? []) : [],
      confidence: t.confidence ?? 0,
      start: 0,
      duration: 0,
      speechFinal: true,
      fromFinalize: true,
      receivedAt: this.o.clock.now(),
    });
    this.builder.endSegment();
  }

  /** Give the builder to this job (ending whatever it was on), replaying events it missed. */
  private claim(job: Job, ctx?: SegmentContext): void {
    if (this.owner && this.owner !== job) {
      this.builder.abandonSegment('superseded');
      this.owner.attached = false;
    }
    this.owner = job;
    if (!ctx) return;
    if (job.attached && this.builder.segment) {
      // A live segment already streaming into the builder: keep its utterance, update what it is.
      this.builder.retarget(ctx);
      return;
    }
    this.builder.beginSegment(ctx);
    job.attached = true;
    const missed = job.buffered;
    job.buffered = [];
    for (const e of missed) this.builder.asr(e);
  }

  /** When the builder is free, the oldest live segment takes it so its partials flow as they come. */
  private attachNext(): void {
    if (this.owner || this.closed) return;
    const next = this.pending[0];
    if (!next?.stream || next.attached) return;
    this.claim(next, { segmentId: next.segmentId, engine: 'deepgram', startedAt: this.o.clock.now(), live: true });
  }

  private onCloudEvent(job: Job, e: AsrEvent): void {
    if (e.kind === 'partial' || e.kind === 'final') {
      const { kind, ...rest } = e;
      this.o.bus.emit(kind === 'final' ? 'asr.final' : 'asr.partial', { ...rest, segmentId: job.segmentId });
    } else if (e.kind === 'utterance-end' || e.kind === 'speech-started') {
      this.o.bus.emit('asr.boundary', { segmentId: job.segmentId, kind: e.kind, atSec: e.kind === 'utterance-end' ? e.lastWordEnd : e.timestamp, receivedAt: e.receivedAt });
    }
    if (!job.cloudOpen) return;
    if (job.attached && this.owner === job) this.builder.asr(e);
    else job.buffered.push(e);
  }

  private onUtterance(e: UtteranceEvent): void {
    const job = this.owner;
    switch (e.type) {
      case 'open':
        this.o.bus.emit('utterance.open', { id: e.id, segmentId: e.segmentId, engine: e.engine, atMs: e.atMs });
        return;
      case 'update':
        this.o.bus.emit('utterance.update', { id: e.id, segmentId: e.segmentId, stableText: e.stableText, rawText: e.rawText, durationMs: e.durationMs });
        return;
      case 'final':
        job?.collected.push(e.utterance);
        this.log.info('utterance', { id: e.utterance.id, segment: e.utterance.segmentId, engine: e.utterance.engine, text: e.utterance.text, sttMs: e.utterance.sttMs, fallback: e.utterance.fallbackReason, close: e.utterance.closeReason });
        this.o.bus.emit('utterance.final', e.utterance);
        return;
      case 'dropped':
        job?.collected.push(e.utterance);
        this.log.info('utterance dropped', { id: e.utterance.id, segment: e.utterance.segmentId, engine: e.utterance.engine, reason: e.utterance.dropReason, raw: e.utterance.rawText });
        this.o.bus.emit('utterance.dropped', e.utterance);
        return;
    }
  }
}

function attempt(engine: EngineId, outcome: Outcome, fallbackReason: string | undefined, rejected: string | undefined, filter: HallucinationFilter): SttAttempt {
  if ('failure' in outcome) {
    const a: SttAttempt = { engine, outcome: outcome.failure.kind === 'unavailable' ? 'skipped' : 'failed', rawText: '', text: '', sttMs: 0, error: outcome.failure.reason };
    if (fallbackReason) a.fallbackReason = fallbackReason;
    return a;
  }
  const t = outcome.transcript;
  const a: SttAttempt = { engine, outcome: 'ok', rawText: t.rawText, text: t.text, sttMs: t.ms };
  if (t.tokens) a.tokens = t.tokens;
  if (fallbackReason) a.fallbackReason = fallbackReason;
  const drop = rejected ?? filter.check(t.rawText, t.text)?.reason;
  if (drop) a.droppedReason = drop;
  return a;
}
