import { randomUUID } from 'node:crypto';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { SttEngineName, Utterance, UtteranceCloseReason } from '../core/utterance.js';
import { cleanText } from './clean-text.js';
import type { HallucinationFilter } from './hallucination-filter.js';
import { Stabilizer, textWords, type StabilizerOptions, type StableWord } from './stabilizer.js';
import type { AsrEvent, AsrResult, AsrWord, SttToken } from './types.js';

export interface UtteranceBuilderOptions {
  /** No new words for this long closes a live utterance (seed 000: 750 ms). */
  silenceGapMs: number;
  /** Text ending in . ? ! and no new words for this long closes it (seed 000: 300 ms). */
  punctuationPauseMs: number;
  /** Hard guard from open (seed 000: 12 s). */
  maxDurationMs: number;
  /** Hard guard on text length (seed 000: 500). */
  maxChars: number;
  stabilizer: StabilizerOptions;
}

/** What the builder knows about the segment whose results it is being given. */
export interface SegmentContext {
  segmentId: number | string;
  engine: Exclude<SttEngineName, 'text'>;
  /** Set when this engine is the fallback, and why the first one failed. */
  fallbackReason?: string;
  /** Clock time the segment was handed to speech-to-text (sttMs counts from here). */
  startedAt: number;
  /**
   * Results arrive as the person speaks (a live Deepgram stream): the time-based close rules apply.
   * False for a segment transcribed after it closed (Whisper, or audio sent to Deepgram in one go),
   * where the gaps between results say nothing about pauses in speech.
   */
  live: boolean;
  /** Whisper's raw tokens, kept on the utterance. */
  tokens?: SttToken[];
}

export type UtteranceEvent =
  | { type: 'open'; id: string; segmentId: number | string; engine: Exclude<SttEngineName, 'text'>; atMs: number }
  | { type: 'update'; id: string; segmentId: number | string; stableText: string; rawText: string; durationMs: number }
  | { type: 'final'; utterance: Utterance }
  /** A transcript that is not passed on (blank, non-speech, hallucination), with `dropReason` set. */
  | { type: 'dropped'; utterance: Utterance };

interface Span {
  text: string;
  /** End of the span on the segment's audio timeline (s); -1 when the engine gives no timing. */
  end: number;
}

interface Active {
  id: string;
  openedAt: number;
  finals: Span[];
  partial: Span | null;
  stabilizer: Stabilizer;
  lastUpdate: { stable: string; raw: string };
  silence: TimerHandle | null;
  punctuation: TimerHandle | null;
  maxDuration: TimerHandle | null;
}

const TERMINAL = /[.?!]["')\]]?$/;
/** Word timings from a streaming engine are in seconds; two words closer than this are the same word. */
const EPSILON_S = 0.01;

/**
 * Seed 000's UtteranceBuilder: IDLE until the first word, ACTIVE until a close rule fires, then
 * utterance.final (or utterance.dropped with the filter's reason). Both engines come through here, so
 * downstream sees one kind of utterance: Whisper gives one final per segment and the segment's end
 * closes it; Deepgram streams partials and finals and any seed-000 rule may close first.
 *
 * Pure: no I/O, time only from the Clock, output only through `sink`.
 */
export class UtteranceBuilder {
  private ctx: SegmentContext | null = null;
  private active: Active | null = null;
  /** Segment-relative time (s) up to which audio belongs to an utterance already closed. */
  private closedThrough = -1;
  /** Raw text seen in this segment, to explain an empty segment. */
  private segmentRaw: string[] = [];
  private producedInSegment = 0;

  constructor(
    private readonly opts: UtteranceBuilderOptions,
    private readonly clock: Clock,
    private readonly filter: HallucinationFilter,
    private readonly sink: (e: UtteranceEvent) => void,
    private readonly newId: () => string = randomUUID,
  ) {}

  get state(): 'idle' | 'active' {
    return this.active ? 'active' : 'idle';
  }

  get segment(): SegmentContext | null {
    return this.ctx;
  }

  /** Results that follow belong to this segment (times in them are relative to its first sample). */
  beginSegment(ctx: SegmentContext): void {
    if (this.ctx) this.endSegment();
    this.ctx = ctx;
    this.closedThrough = -1;
    this.segmentRaw = [];
    this.pendingPartialRaw = false;
    this.producedInSegment = 0;
  }

  /**
   * Update what is known about the current segment without ending it: a live segment gets its index,
   * its fallback reason and its STT start time only when it closes.
   */
  retarget(ctx: SegmentContext): void {
    if (this.ctx) this.ctx = { ...ctx, live: this.ctx.live || ctx.live };
    else this.beginSegment(ctx);
  }

  asr(event: AsrEvent): void {
    if (!this.ctx) return;
    switch (event.kind) {
      case 'partial':
      case 'final':
        this.result(event);
        return;
      case 'utterance-end':
        if (this.active) this.close('utterance-end');
        return;
      case 'speech-started':
        // Someone is talking again: a pause after "." was not the end after all.
        if (this.active) this.clear('punctuation');
        return;
      case 'metadata':
        return;
    }
  }

  /**
   * The segment is done (Whisper answered, or Deepgram flushed after Finalize): close what is open,
   * and if the segment produced nothing, say why with a dropped utterance.
   */
  endSegment(): void {
    if (!this.ctx) return;
    if (this.active) this.close('segment-end');
    if (this.producedInSegment === 0) this.dropEmptySegment();
    this.ctx = null;
  }

  /**
   * This engine's attempt at the segment failed part-way (the socket died after some partials) and
   * another engine will redo it: what was open is dropped, saying so, and nothing else is reported.
   */
  abandonSegment(reason: string): void {
    if (!this.ctx) return;
    const a = this.active;
    if (a) {
      this.active = null;
      for (const k of ['silence', 'punctuation', 'maxDuration'] as const) this.clearTimer(a, k);
      const rawText = this.rawText(a);
      this.sink({ type: 'dropped', utterance: this.utterance(a.id, rawText, cleanText(rawText), 'segment-end', `abandoned: ${reason}`) });
    }
    this.ctx = null;
  }

  /** No engine could transcribe the segment: one dropped utterance carries every reason. */
  failSegment(ctx: SegmentContext, reason: string): void {
    if (this.ctx) this.endSegment();
    this.ctx = ctx;
    this.sink({ type: 'dropped', utterance: this.utterance(this.newId(), '', '', 'segment-end', reason) });
    this.ctx = null;
  }

  /** Daemon stopping: whatever is open is final now. */
  shutdown(): void {
    if (this.active) this.close('shutdown');
    this.ctx = null;
  }

  private result(e: AsrResult): void {
    const fresh = this.unclosedPart(e);
    if (!fresh) return;
    if (e.kind === 'final' || fresh.text) this.noteRaw(e.kind, fresh.text);
    const text = cleanText(fresh.text);
    if (!this.active) {
      if (!text) return;
      this.open();
    }
    const a = this.active!;
    const words = stableWords(fresh.words, text);
    // Where this result's audio ends: its last word when timed (a later result re-timing the same
    // words stays behind it), else its span; -1 when the engine gives no timing (Whisper).
    const end = fresh.words.length > 0 ? fresh.words[fresh.words.length - 1]!.end : e.duration > 0 ? e.start + e.duration : -1;
    const before = this.rawText(a);
    if (e.kind === 'final') {
      if (fresh.text.trim()) a.finals.push({ text: fresh.text.trim(), end });
      a.partial = null;
      a.stabilizer.final(words);
    } else {
      a.partial = fresh.text.trim() ? { text: fresh.text.trim(), end } : null;
      a.stabilizer.partial(words);
    }
    const raw = this.rawText(a);
    if (raw !== before) this.heard(a);
    this.update(a);
    if (cleanText(raw).length >= this.opts.maxChars) this.close('max-length');
  }

  /** Drop the words of a result that an already-closed utterance took (a late final for its span). */
  private unclosedPart(e: AsrResult): { text: string; words: AsrWord[] } | null {
    if (this.closedThrough < 0) return { text: e.text, words: e.words };
    if (e.words.length === 0) return e.start + e.duration <= this.closedThrough + EPSILON_S ? null : { text: e.text, words: e.words };
    const words = e.words.filter((w) => w.start >= this.closedThrough - EPSILON_S);
    if (words.length === 0) return null;
    if (words.length === e.words.length) return { text: e.text, words };
    return { text: words.map((w) => w.punctuated ?? w.word).join(' '), words };
  }

  private open(): void {
    const ctx = this.ctx!;
    const now = this.clock.now();
    const a: Active = {
      id: this.newId(),
      openedAt: now,
      finals: [],
      partial: null,
      stabilizer: new Stabilizer(this.opts.stabilizer),
      lastUpdate: { stable: '', raw: '' },
      silence: null,
      punctuation: null,
      maxDuration: null,
    };
    this.active = a;
    if (ctx.live) a.maxDuration = this.clock.setTimer(this.opts.maxDurationMs, () => this.closeIf(a, 'max-duration'));
    this.sink({ type: 'open', id: a.id, segmentId: ctx.segmentId, engine: ctx.engine, atMs: now });
  }

  /** The text changed, so someone is still talking: the silence clock starts over, and a terminal mark starts the punctuation clock. */
  private heard(a: Active): void {
    if (!this.ctx?.live) return;
    this.clearTimer(a, 'silence');
    a.silence = this.clock.setTimer(this.opts.silenceGapMs, () => this.closeIf(a, 'silence'));
    this.rearmPunctuation(a);
  }

  private rearmPunctuation(a: Active): void {
    if (!this.ctx?.live) return;
    this.clearTimer(a, 'punctuation');
    if (TERMINAL.test(this.rawText(a))) a.punctuation = this.clock.setTimer(this.opts.punctuationPauseMs, () => this.closeIf(a, 'punctuation'));
  }

  private update(a: Active): void {
    const stable = a.stabilizer.text;
    const raw = this.rawText(a);
    if (stable === a.lastUpdate.stable && raw === a.lastUpdate.raw) return;
    a.lastUpdate = { stable, raw };
    this.sink({ type: 'update', id: a.id, segmentId: this.ctx!.segmentId, stableText: stable, rawText: raw, durationMs: this.clock.now() - a.openedAt });
  }

  private closeIf(a: Active, reason: UtteranceCloseReason): void {
    if (this.active === a) this.close(reason);
  }

  private close(reason: UtteranceCloseReason): void {
    const a = this.active!;
    this.active = null;
    for (const k of ['silence', 'punctuation', 'maxDuration'] as const) this.clearTimer(a, k);
    const spans = a.partial ? [...a.finals, a.partial] : a.finals;
    this.closedThrough = Math.max(this.closedThrough, ...spans.map((s) => s.end));
    const rawText = this.rawText(a);
    const text = cleanText(rawText);
    this.producedInSegment++;
    const drop = this.filter.check(rawText, text);
    if (drop) this.sink({ type: 'dropped', utterance: this.utterance(a.id, rawText, text, reason, drop.reason) });
    else this.sink({ type: 'final', utterance: this.utterance(a.id, rawText, text, reason) });
  }

  private dropEmptySegment(): void {
    const rawText = this.segmentRaw.join(' ').trim();
    const drop = this.filter.check(rawText) ?? { reason: `no words: ${JSON.stringify(rawText)}` };
    this.sink({ type: 'dropped', utterance: this.utterance(this.newId(), rawText, '', 'segment-end', drop.reason) });
  }

  private utterance(id: string, rawText: string, text: string, closeReason: UtteranceCloseReason, dropReason?: string): Utterance {
    const ctx = this.ctx!;
    const now = this.clock.now();
    const u: Utterance = {
      id,
      text,
      rawText,
      engine: ctx.engine,
      segmentId: ctx.segmentId,
      sttMs: Math.max(0, Math.round(now - ctx.startedAt)),
      atMs: now,
      closeReason,
    };
    if (ctx.fallbackReason) u.fallbackReason = ctx.fallbackReason;
    if (ctx.tokens) u.tokens = ctx.tokens;
    if (dropReason !== undefined) u.dropReason = dropReason;
    return u;
  }

  /** Keep what an empty segment "said" ([BLANK_AUDIO], "."): finals always, the latest partial in place. */
  private noteRaw(kind: 'partial' | 'final', text: string): void {
    const t = text.trim();
    if (kind === 'final') {
      if (this.pendingPartialRaw) this.segmentRaw.pop();
      this.pendingPartialRaw = false;
      if (t) this.segmentRaw.push(t);
      return;
    }
    if (this.pendingPartialRaw) this.segmentRaw.pop();
    this.segmentRaw.push(t);
    this.pendingPartialRaw = true;
  }
  private pendingPartialRaw = false;

  private rawText(a: Active): string {
    const parts = a.finals.map((f) => f.text);
    if (a.partial) parts.push(a.partial.text);
    return parts.join(' ');
  }

  private clear(which: 'punctuation' | 'silence'): void {
    if (this.active) this.clearTimer(this.active, which);
  }

  private clearTimer(a: Active, which: 'silence' | 'punctuation' | 'maxDuration'): void {
    this.clock.clearTimer(a[which]);
    a[which] = null;
  }
}

function stableWords(words: readonly AsrWord[], text: string): StableWord[] {
  if (words.length === 0) return textWords(text);
  return words.map((w) => ({ text: w.punctuated ?? w.word, confidence: w.confidence }));
}
