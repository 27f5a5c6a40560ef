import { SAMPLE_RATE } from '../../audio/pcm.js';
import type { Clock, TimerHandle } from '../../core/clock.js';
import { cleanText } from '../clean-text.js';
import type { LiveStream } from '../engine.js';
import { EngineFailure, type AsrEvent, type AsrWord, type Transcript } from '../types.js';

/** What a stream needs from the engine that owns its socket. */
export interface StreamHost {
  readonly clock: Clock;
  readonly finalizeTimeoutMs: number;
  sendAudio(stream: DeepgramStream, pcm: Int16Array): void;
  sendFinalize(stream: DeepgramStream): void;
  streamDone(stream: DeepgramStream): void;
  warn(msg: string, fields: Record<string, unknown>): void;
}

/** A final that ends this close to (or past) the end of the audio sent covers the segment. */
const COVERAGE_SLACK_S = 0.05;

/**
 * One segment's trip through the Deepgram socket: its audio (pre-roll included) goes out as it is
 * written, Finalize goes after the last sample, and the segment is done when Deepgram answers the
 * Finalize (a final with from_finalize) — or when its finals already cover all the audio, since
 * Deepgram does not promise a from_finalize reply when nothing was left to flush.
 *
 * Times in the events handed on are relative to the segment's first sample: the socket's timeline
 * runs on across segments, the utterance builder's does not.
 */
export class DeepgramStream implements LiveStream {
  /** Position of this segment's first sample on the socket's audio timeline. */
  readonly offsetSamples: number;
  samples = 0;
  finalizeSent = false;
  private finals: { text: string; words: AsrWord[]; confidence: number; end: number; language?: string }[] = [];
  private failure: EngineFailure | null = null;
  private finished = false;
  private finishing = false;
  private timer: TimerHandle | null = null;
  private readonly startedAt: number;
  private settle!: { resolve: (t: Transcript) => void; reject: (e: EngineFailure) => void };
  readonly done: Promise<Transcript>;

  constructor(
    private readonly host: StreamHost,
    readonly segmentId: number | string,
    offsetSamples: number,
    private readonly onEvent: (e: AsrEvent) => void,
  ) {
    this.offsetSamples = offsetSamples;
    this.startedAt = host.clock.now();
    this.done = new Promise<Transcript>((resolve, reject) => (this.settle = { resolve, reject }));
    // A stream that fails before anyone awaits it must not become an unhandled rejection.
    this.done.catch(() => {});
  }

  get offsetSec(): number {
    return this.offsetSamples / SAMPLE_RATE;
  }

  get endSec(): number {
    return (this.offsetSamples + this.samples) / SAMPLE_RATE;
  }

  get active(): boolean {
    return !this.finished;
  }

  /** Audio for this segment, in order. Ignored once finish() was called. */
  write(pcm: Int16Array): void {
    if (this.finishing || this.finished || pcm.length === 0) return;
    this.samples += pcm.length;
    this.host.sendAudio(this, pcm);
  }

  /** The segment is complete: flush it. Resolves with its transcript or rejects with an EngineFailure. */
  finish(): Promise<Transcript> {
    if (!this.finishing && !this.finished) {
      this.finishing = true;
      this.host.sendFinalize(this);
    }
    return this.done;
  }

  /** Called by the host when Finalize actually went out (after any audio queued while connecting). */
  finalizeWent(): void {
    this.finalizeSent = true;
    // Deepgram's own endpointing may already have finalised every sample: nothing left to flush.
    const last = this.finals[this.finals.length - 1];
    if (last && this.samples > 0 && last.end >= this.endSec - COVERAGE_SLACK_S) {
      this.complete();
      return;
    }
    this.timer = this.host.clock.setTimer(this.host.finalizeTimeoutMs, () => this.finalizeTimedOut());
  }

  deliver(e: AsrEvent): void {
    if (this.finished) return;
    const rel = relative(e, this.offsetSec);
    const end = e.kind === 'final' ? e.start + e.duration : 0;
    if (rel.kind === 'final')
      this.finals.push({ text: rel.text, words: rel.words, confidence: rel.confidence, end, ...(rel.language ? { language: rel.language } : {}) });
    this.onEvent(rel);
    if (rel.kind !== 'final' || !this.finalizeSent) return;
    if (rel.fromFinalize || end >= this.endSec - COVERAGE_SLACK_S) this.complete();
  }

  /** The segment will not be transcribed: flush what was sent and forget the answer. */
  cancel(): void {
    this.finish().catch(() => {});
  }

  fail(f: EngineFailure): void {
    if (this.finished) return;
    this.failure = f;
    this.end();
    this.settle.reject(f);
  }

  private finalizeTimedOut(): void {
    if (this.finished) return;
    if (this.finals.length > 0) {
      // Finals came but neither a from_finalize nor full coverage: take what Deepgram gave.
      this.host.warn('deepgram: no reply to Finalize; using the finals received', { segment: this.segmentId, finals: this.finals.length });
      this.complete();
      return;
    }
    this.fail(new EngineFailure('deepgram', 'no-final', `no final within ${this.host.finalizeTimeoutMs} ms of Finalize`));
  }

  private complete(): void {
    const rawText = this.finals
      .map((f) => f.text)
      .filter(Boolean)
      .join(' ');
    const confident = this.finals.filter((f) => f.text);
    const t: Transcript = {
      engine: 'deepgram',
      rawText,
      text: cleanText(rawText),
      words: this.finals.flatMap((f) => f.words),
      ms: Math.round(this.host.clock.now() - this.startedAt),
    };
    // The segment's language: the one the most of its words were heard in.
    const heard = new Map<string, number>();
    for (const f of confident) if (f.language) heard.set(f.language, (heard.get(f.language) ?? 0) + Math.max(1, f.words.length));
    const language = [...heard].sort((a, b) => b[1] - a[1])[0]?.[0];
    if (language) t.language = language;
    if (confident.length > 0) t.confidence = confident.reduce((s, f) => s + f.confidence, 0) / confident.length;
    this.end();
    this.settle.resolve(t);
  }

  private end(): void {
    this.finished = true;
    this.host.clock.clearTimer(this.timer);
    this.host.streamDone(this);
  }

  /** For logs: why it failed, if it did. */
  get failedWith(): EngineFailure | null {
    return this.failure;
  }
}

function relative(e: AsrEvent, offset: number): AsrEvent {
  if (offset === 0) return e;
  switch (e.kind) {
    case 'partial':
    case 'final':
      return {
        ...e,
        start: Math.max(0, e.start - offset),
        words: e.words.map((w) => ({ ...w, start: Math.max(0, w.start - offset), end: Math.max(0, w.end - offset) })),
      };
    case 'utterance-end':
      return { ...e, lastWordEnd: Math.max(0, e.lastWordEnd - offset) };
    case 'speech-started':
      return { ...e, timestamp: Math.max(0, e.timestamp - offset) };
    default:
      return e;
  }
}
