import type { Bus } from '../core/bus.js';
import type { Logger } from '../core/log.js';
import type { TimeUp } from '../core/time-up.js';
import type { SttConfig } from '../stt/config.js';
import type { SttStack } from '../stt/create.js';
import type { SegmentTranscript } from '../stt/events.js';
import type { HandOver } from '../stt/transcriber.js';
import type { Segment } from '../vad/segment.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import type { Fate } from './fate.js';
import type { OpenSegment } from './open-segment.js';
import { longSpeechSeconds } from './opening.js';
import type { OpeningJudge, OpeningVerdict } from './opening-check.js';

/**
 * Stage 2 of a segment's path: its words. In: a closed segment as the line hands it over (WordsInput).
 * Out: its transcript, or a fate already decided here (Words). Work in proportion to what
 * matters — in wake-word mode with nothing waiting for an answer and no push-to-talk, a segment that
 * waited past stt.queue.maxWaitMs is stored for replay (`backlog`), and a long one is transcribed on
 * its opening first: whole only when the opening starts with the wake phrase (or another base-frame
 * phrase). That check normally ran while the segment was open (open-segment.ts); here its
 * verdict is taken, and the check runs only when it could not run earlier.
 */

declare module '../core/bus.js' {
  interface HarkEvents {
    /** A segment not transcribed whole on purpose: no wake phrase at its start, or the backlog. */
    'segment.skipped': { segment: number; reason: SkipReason; waitedMs: number };
  }
}

export type SkipReason = 'no-wake-phrase' | 'backlog-wait' | 'backlog-memory';

/** Why a segment got no whole transcript on purpose (the metrics count them by this). */
export const NO_WAKE_PHRASE = 'no wake phrase at its start';
export const BACKLOG = 'backlog';
/** hark is stopping: speech-to-text's time is up. */
const STOPPING: unique symbol = Symbol('stopping');

export interface WordsInput {
  segment: Segment;
  seg: OpenSegment | null;
  /** How long it waited in the line, and whether past the wait bound. */
  waitedMs: number;
  late: boolean;
}

/** The transcript (null: none), or the fate when it is already decided here (the backlog, no wake phrase, stopping). */
export interface Words {
  transcript: SegmentTranscript | null;
  decided: Fate | null;
}

export interface WordsDeps {
  stt: SttStack;
  config: SttConfig;
  bus: Bus;
  log: Logger;
  /** The opening check; null: it cannot be used (the base frame's rules can match anywhere). */
  judge: OpeningJudge | null;
  /** Every segment gets a whole transcript now (always-listen, or something waits for an answer). */
  wantsWholeTranscript: () => boolean;
  /** The VAD hangover in force (a hangover close ends on that much silence). */
  hangoverMs: () => number;
  /** Fires when hark is stopping and speech-to-text's time is up. */
  outOfTime: TimeUp;
}

export class WordsStage {
  constructor(private readonly d: WordsDeps) {}

  async hear({ segment: s, seg, waitedMs: waited, late }: WordsInput): Promise<Words> {
    const { stt, config } = this.d;
    const gated = s.openedBy !== 'ptt' && !this.d.wantsWholeTranscript();
    if (gated && late) {
      stt.transcriber.cancel(seg?.live ?? null, 'backlog');
      if (seg) stt.transcriber.discardPreempt(seg.key);
      this.skipped(s.index, 'backlog-wait', waited);
      return {
        transcript: null,
        decided: {
          kind: 'untranscribed',
          reason: `${BACKLOG}: waited ${(waited / 1000).toFixed(1)} s for speech-to-text (stt.queue.maxWaitMs); replay it with hark replay`,
        },
      };
    }
    const stopping: Words = { transcript: null, decided: { kind: 'untranscribed', reason: 'not transcribed: hark was stopping (replay it with hark replay)' } };
    // Its deadline counts from its close: the queue's wait, and the opening's time when the whole follows it.
    let waitedMs = waited;
    let verdict: OpeningVerdict | null = null;
    if (gated && !seg?.live && this.d.judge) {
      // Checked while it was open: its verdict (or the check, still running). Null: it was not, or
      // the check itself failed; then it is checked now, as a closed segment.
      const early = seg?.opening?.verdict;
      if (early) {
        const v = await this.inTime(early);
        if (v === STOPPING) return stopping;
        verdict = v;
      }
      const opening = verdict ? null : this.opening(s);
      if (opening) {
        if (seg) stt.transcriber.discardPreempt(seg.key);
        const v = await this.inTime(this.d.judge.judge({ index: s.index, pcm: opening, maxProb: s.maxProb, waitedMs: waited }, seg?.key));
        if (v === STOPPING) return stopping;
        verdict = v;
        if (v?.kind === 'wake') waitedMs += v.sttMs;
      }
    }
    // The opening check is the local engine's (see Transcriber.opening): when it gives no judgement
    // (it heard nothing on clear speech, failed, or is still busy), the whole goes on to the cloud once.
    let handOver: HandOver | undefined;
    if (verdict?.kind === 'pass') handOver = verdict.handOver ?? undefined;
    if (verdict?.kind === 'none') {
      if (seg) stt.transcriber.discardPreempt(seg.key);
      const head = asSegment(verdict.transcript, s.index);
      stt.transcriber.announce(head);
      const why = `${NO_WAKE_PHRASE} (only its first ${config.opening.seconds} s transcribed)`;
      // The opening's attempts as they went, and one row that says what became of the segment.
      const attempts = head.attempts.map((a) => (a.droppedReason || a.error ? a : { ...a, droppedReason: why }));
      if (attempts.every((a) => a.droppedReason !== why))
        attempts.push({ engine: 'none', outcome: 'skipped', rawText: '', text: '', sttMs: 0, droppedReason: why });
      this.skipped(s.index, 'no-wake-phrase', waited);
      return { transcript: { ...head, attempts }, decided: { kind: 'dropped', reason: NO_WAKE_PHRASE } };
    }
    const t = await this.d.outOfTime.race(
      stt.transcriber.transcribe({ index: s.index, pcm: s.pcm, maxProb: s.maxProb, waitedMs }, seg?.live ?? null, seg?.key, handOver),
      null,
    );
    if (!t) return stopping;
    return { transcript: t, decided: null };
  }

  /** Not transcribed whole on purpose: logged and told (the metrics count them). */
  skipped(segment: number, reason: SkipReason, waitedMs: number): void {
    this.d.log.info('segment not transcribed whole', { segment, reason, waitedMs: Math.round(waitedMs) });
    this.d.bus.emit('segment.skipped', { segment, reason, waitedMs: Math.round(waitedMs) });
  }

  /** The segment's opening (pre-roll and stt.opening.seconds of speech), or null when it is short enough to transcribe whole. */
  private opening(s: Segment): Int16Array | null {
    // A hangover close ends on the hangover's silence: what matters is how long the speech ran. A
    // 2.5 s command closed by a 600 ms hangover is one inference, not an opening and then the whole.
    const trailing = s.closeReason === 'hangover' ? Math.round((this.d.hangoverMs() / 1000) * SAMPLE_RATE) : 0;
    const speech = s.pcm.length - s.prerollSamples - trailing;
    if (speech <= longSpeechSeconds(this.d.config.opening.seconds) * SAMPLE_RATE) return null;
    return this.d.judge!.openingOf(s.pcm, s.prerollSamples);
  }

  /** `p`, or STOPPING when hark's stop leaves speech-to-text no more time. */
  private inTime<T>(p: Promise<T>): Promise<T | typeof STOPPING> {
    return this.d.outOfTime.race(p, STOPPING);
  }
}

/** A transcript made of the open segment (named by its key) as the closed segment's. */
function asSegment(t: SegmentTranscript, index: number): SegmentTranscript {
  const hearing = t.hearing.kind === 'heard' ? { ...t.hearing, utterance: { ...t.hearing.utterance, segmentId: index } } : t.hearing;
  return { ...t, segmentId: index, hearing };
}
