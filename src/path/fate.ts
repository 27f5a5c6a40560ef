import type { Utterance } from '../core/utterance.js';
import type { SegmentTranscript } from '../stt/events.js';
import type { Segment } from '../vad/segment.js';
import type { Conversation } from './conversation.js';
import { barge, bargeFailed, forgetBarge, type OpenSegment } from './open-segment.js';
import type { Arbiter } from './plugins.js';

/**
 * Stage 3 of a segment's path: its fate. In: its words (a transcript, or none) and how it closed.
 * Out: one Fate. Only a `dispatched` fate carries words to the command side (stage 4), so a dropped,
 * filtered, yielded or cancelled segment is never dispatched, and a segment has exactly one fate.
 */

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

/** What the fate is decided on. */
export interface FateInput {
  segment: Segment;
  /** Its words; null when no engine ran. */
  transcript: SegmentTranscript | null;
  /** The open segment it was, with its barge-in decisions (null for a segment closed without one). */
  seg: OpenSegment | null;
  /** A push-to-talk tap or a mute hold cancelled it. */
  cancelled: boolean;
}

/** The fate of a segment's words: the interruption filter decides on them, on the same ids it used while they were said. */
export function decideFate(conv: Conversation, input: FateInput): Fate {
  const fate = fateOf(conv, input);
  // Its words came to nothing: no decision about it may still be waiting to time out.
  if (input.seg && fate.kind !== 'dispatched' && fate.kind !== 'filtered') forgetBarge(conv, input.seg);
  return fate;
}

function fateOf(conv: Conversation, { segment, transcript: t, seg, cancelled }: FateInput): Fate {
  if (cancelled) return { kind: 'cancelled', reason: 'push-to-talk cancelled (tap or mute hold)' };
  if (!t) return { kind: 'dropped', reason: 'no speech-to-text' };
  if (t.hearing.kind === 'dropped') {
    // A transcription failure allows the interruption — the person spoke over hark and
    // nobody can tell it was only "yeah". (A blank or a hallucination is a transcript: no words.)
    if (t.hearing.engine === null && seg?.speaking) bargeFailed(conv, seg, t.hearing.reason);
    return { kind: 'dropped', reason: t.hearing.reason };
  }
  const u = t.hearing.utterance;
  const decision = barge(conv, seg, seg?.key ?? `#${segment.index}`, u.text, true, seg?.speaking ?? false, u.language);
  // A content frame (dictation, inventory) takes every word: a backchannel lets hark talk on, but is still content.
  if (decision?.action === 'filter' && !conv.takesEveryWord()) return { kind: 'filtered', utterance: u, reason: decision.reason };
  return { kind: 'dispatched', utterance: u };
}

/** Between the transcript and the dispatch: a dispatched fate may yield to a device that heard it better (fleet, satellite). */
export async function arbitrate(arbiter: Arbiter | undefined, segment: Segment, fate: Fate): Promise<Fate> {
  if (fate.kind !== 'dispatched' || !arbiter) return fate;
  const verdict = await arbiter.decide(segment, fate.utterance);
  return verdict.act ? fate : { kind: 'yielded', utterance: fate.utterance, reason: `yielded to ${verdict.to}` };
}
