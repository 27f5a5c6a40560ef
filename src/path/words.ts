import type { Bus } from '../core/bus.js';
import type { Logger } from '../core/log.js';
import type { KitchenLanguage } from '../language/kitchen.js';
import type { SttConfig } from '../stt/config.js';
import type { SttStack } from '../stt/create.js';
import type { SegmentTranscript } from '../stt/events.js';
import type { HandOver } from '../stt/transcriber.js';
import type { Segment } from '../vad/segment.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import type { Fate } from './fate.js';
import type { OpenSegment } from './open-segment.js';
import { opensImperative, startsWithPhrase } from './opening.js';

/**
 * Stage 2 of a segment's path: its words. In: a closed segment as the line hands it over (WordsInput).
 * Out: its transcript, or a fate already decided here (Words). Issue 21: work in proportion to what
 * matters — in wake-word mode with nothing waiting for an answer and no push-to-talk, a segment that
 * waited past stt.queue.maxWaitMs is stored for replay (`backlog`), and a long one is transcribed on
 * its opening first: whole only when the opening starts with the wake phrase (or another base-frame
 * phrase).
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
/** Tokens Whisper decodes of an opening: the wake phrase and a word or two (timestamps and specials count too). */
const OPENING_TOKENS = 12;
/** While a timer rings, an opening starting with one of these is transcribed whole (kitchen/timer-language's ring-stop words). */
const RING_STOP_OPENINGS = ['stop', 'ok', 'okay', 'thanks', 'thank you', 'got it', 'alright', 'enough', 'quiet', 'dismiss', 'silence', 'turn it off', 'cheers', 'shut up'].map((p) => p.split(' '));

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
  /** The base frame's own phrases (wake phrase first); null: the opening check cannot be used. */
  phrases: string[][] | null;
  /** Every segment gets a whole transcript now (always-listen, or something waits for an answer). */
  wantsWholeTranscript: () => boolean;
  /** A kitchen timer rings: its stop words open a segment too. */
  ringing: () => boolean;
  language: () => KitchenLanguage;
  /** The VAD hangover in force (a hangover close ends on that much silence). */
  hangoverMs: () => number;
  /** Resolves when hark is stopping and speech-to-text's time is up. */
  outOfTime: Promise<void>;
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
      return { transcript: null, decided: { kind: 'untranscribed', reason: `${BACKLOG}: waited ${(waited / 1000).toFixed(1)} s for speech-to-text (stt.queue.maxWaitMs); replay it with hark replay` } };
    }
    const stopping: Words = { transcript: null, decided: { kind: 'untranscribed', reason: 'not transcribed: hark was stopping (replay it with hark replay)' } };
    const opening = gated && !seg?.live ? this.opening(s) : null;
    // The opening check is the local engine's (see Transcriber.opening): when it gives no judgement
    // (it heard nothing on clear speech, failed, or is still busy), the whole goes on to the cloud once.
    let handOver: HandOver | undefined;
    // Its deadline counts from its close: the queue's wait, and the opening's time when the whole follows it.
    let waitedMs = waited;
    if (opening) {
      if (seg) stt.transcriber.discardPreempt(seg.key);
      const check = await Promise.race([stt.transcriber.opening({ index: s.index, pcm: opening, maxProb: s.maxProb, maxTokens: OPENING_TOKENS, waitedMs: waited }), this.d.outOfTime.then(() => null)]);
      if (!check) return stopping;
      if (check.kind === 'whole') handOver = check.handOver ?? undefined;
      else {
        const head = check.transcript;
        waitedMs += head.sttMs;
        const heard = head.hearing.kind === 'heard' ? head.hearing.utterance.text : '';
        const phrases = this.d.ringing() ? [...this.d.phrases!, ...RING_STOP_OPENINGS] : this.d.phrases!;
        if (!startsWithPhrase(heard, phrases) && !opensImperative(heard, this.d.language())) {
          const why = `${NO_WAKE_PHRASE} (only its first ${config.opening.seconds} s transcribed)`;
          // The opening's attempts as they went, and one row that says what became of the segment.
          const attempts = head.attempts.map((a) => (a.droppedReason || a.error ? a : { ...a, droppedReason: why }));
          if (attempts.every((a) => a.droppedReason !== why)) attempts.push({ engine: 'none', outcome: 'skipped', rawText: '', text: '', sttMs: 0, droppedReason: why });
          this.skipped(s.index, 'no-wake-phrase', waited);
          return { transcript: { ...head, attempts }, decided: { kind: 'dropped', reason: NO_WAKE_PHRASE } };
        }
      }
    }
    const t = await Promise.race([stt.transcriber.transcribe({ index: s.index, pcm: s.pcm, maxProb: s.maxProb, waitedMs }, seg?.live ?? null, seg?.key, handOver), this.d.outOfTime.then(() => null)]);
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
    if (!this.d.phrases) return null;
    const end = s.prerollSamples + Math.round(this.d.config.opening.seconds * SAMPLE_RATE);
    // A hangover close ends on the hangover's silence: what matters is how long the speech ran. A
    // 2.5 s command closed by a 600 ms hangover is one inference, not an opening and then the whole.
    const trailing = s.closeReason === 'hangover' ? Math.round((this.d.hangoverMs() / 1000) * SAMPLE_RATE) : 0;
    // Within half a second of the whole: the whole costs hardly more, and no words are cut off.
    if (s.pcm.length - trailing <= end + SAMPLE_RATE / 2) return null;
    return s.pcm.subarray(0, end);
  }
}
