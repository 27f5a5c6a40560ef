import type { EngineId } from '../core/utterance.js';
import type { HallucinationFilter } from './hallucination-filter.js';
import type { EngineFailure, Transcript } from './types.js';

export type SttMode = 'local-first' | 'cloud-first' | 'local-only' | 'cloud-only';
export type { EngineId };

/** The engines a mode uses, in order; an explicit list (stt.engines) wins over the mode. */
export function engineOrder(mode: SttMode, explicit: readonly EngineId[] = []): EngineId[] {
  if (explicit.length > 0) return [...explicit];
  switch (mode) {
    case 'local-first':
      return ['whisper', 'deepgram'];
    case 'cloud-first':
      return ['deepgram', 'whisper'];
    case 'local-only':
      return ['whisper'];
    case 'cloud-only':
      return ['deepgram'];
  }
}

export type Verdict = { accept: true } | { accept: false; reason: string };

export interface JudgeOptions {
  filter: HallucinationFilter;
  /** A segment whose VAD peak reaches this is clear speech (undefined peak: assume it is). */
  clearSpeechProb: number;
}

/**
 * Does this attempt stand, or should the next engine get the same segment? Pure.
 *
 * Any failure hands over (error, deadline, no socket, no final, circuit open) — including a failure
 * part-way, after some words came: the next engine redoes the whole segment. A transcript stands,
 * except a blank or filtered one from an engine whose blanks are not trusted (local Whisper) on a
 * segment the VAD was sure held speech: that is Whisper failing quietly ([BLANK_AUDIO] on a clean
 * command), and the next engine gets a go. A cloud model's blank is believed — it is the
 * better ear, and asking Whisper after it would only add a hallucination risk.
 */
export function judge(
  engine: { id: EngineId; trustBlank: boolean },
  outcome: { transcript: Transcript } | { failure: EngineFailure },
  peak: number | undefined,
  o: JudgeOptions,
): Verdict {
  if ('failure' in outcome) return { accept: false, reason: outcome.failure.reason };
  if (engine.trustBlank) return { accept: true };
  const drop = o.filter.check(outcome.transcript.rawText, outcome.transcript.text, outcome.transcript.language);
  if (!drop) return { accept: true };
  const clear = peak === undefined || peak >= o.clearSpeechProb;
  if (!clear) return { accept: true };
  const peakNote = peak === undefined ? 'no VAD score' : `VAD peak ${peak.toFixed(2)}`;
  return { accept: false, reason: `${engine.id} ${drop.code} on clear speech (${drop.reason}; ${peakNote})` };
}
