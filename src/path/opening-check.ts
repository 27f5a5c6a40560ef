import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { KitchenLanguage } from '../language/kitchen.js';
import type { SttConfig } from '../stt/config.js';
import type { SttStack } from '../stt/create.js';
import type { SegmentTranscript } from '../stt/events.js';
import type { HandOver, SttSegment } from '../stt/transcriber.js';
import { SAMPLE_RATE } from '../audio/pcm.js';
import { opensForBase } from './opening.js';

/**
 * The wake-phrase check of a long segment's opening, as one step both ends of the path
 * take: the open segment while it is still being said (the verdict is in before the close),
 * and the words stage at the close when it could not run earlier. In: the opening's audio. Out: a
 * verdict — transcribe the whole (`wake`), hand the whole to the engines after the local one
 * (`pass`: it gave no judgement), or store it with the opening's words (`none`).
 * Why: docs/decisions.md#the-opening-check-of-a-long-segment.
 */

/** Tokens Whisper decodes of an opening: the wake phrase and a word or two (timestamps and specials count too). */
const OPENING_TOKENS = 12;

export type OpeningVerdict =
  /** It opens with a phrase the base frame acts on: the whole is transcribed. `sttMs`: the check's own time. */
  | { kind: 'wake'; sttMs: number }
  /** The local engine gave no judgement (blank on clear speech, failed, too late): the whole goes on past it. */
  | { kind: 'pass'; handOver: HandOver | null }
  /** No wake phrase: the opening's words are all the segment gets. */
  | { kind: 'none'; transcript: SegmentTranscript };

export interface OpeningJudgeDeps {
  stt: SttStack;
  config: Pick<SttConfig, 'opening'>;
  log: Logger;
  /** The base frame's own phrases (wake phrase first). */
  phrases: string[][];
  /** A kitchen timer rings: its stop words open a segment too. */
  ringing: () => boolean;
  language: () => KitchenLanguage;
}

export class OpeningJudge {
  constructor(private readonly d: OpeningJudgeDeps) {}

  /** A segment's opening: its pre-roll and stt.opening.seconds of speech (a view of `pcm`, no copy). */
  openingOf(pcm: Int16Array, prerollSamples: number): Int16Array {
    return pcm.subarray(0, prerollSamples + Math.round(this.d.config.opening.seconds * SAMPLE_RATE));
  }

  /**
   * Check an opening (`segment.pcm`) of the open segment `key` (a transcript started at one of its
   * pauses that heard the whole opening is used: no second inference). Never rejects: a failure of the check itself (a bug, not an
   * engine's failure, which the transcriber already turns into `pass`) is logged and gives null, and
   * the segment is then judged at its close as if it had not been checked.
   */
  async judge(segment: Omit<SttSegment, 'maxTokens'>, key?: string): Promise<OpeningVerdict | null> {
    try {
      const check = await this.d.stt.transcriber.opening({ ...segment, maxTokens: OPENING_TOKENS }, key);
      if (check.kind === 'whole') return { kind: 'pass', handOver: check.handOver };
      const head = check.transcript;
      const heard = head.hearing.kind === 'heard' ? head.hearing.utterance.text : '';
      return opensForBase(heard, this.d.phrases, this.d.ringing(), this.d.language())
        ? { kind: 'wake', sttMs: head.sttMs }
        : { kind: 'none', transcript: head };
    } catch (err) {
      this.d.log.error('the opening check failed', { segment: segment.index, error: errorMessage(err) });
      return null;
    }
  }
}
