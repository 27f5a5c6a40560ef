import type { Effect } from '../core/effects.js';
import type { ActionView, SegmentView } from '../store/records.js';

/**
 * What one segment led to, on either side of a replay: the stored record ("old", what happened on
 * the appliance) and the re-run through the new config ("new"). Plain data, no I/O.
 */

/** An action as the store keeps it (src/path/segment-record.ts writes exactly these fields). */
export interface ActionOutcome {
  name: string;
  /** null for a failed action (the daemon stores no args for it). */
  args: unknown;
  /** ok, error, cooldown, superseded */
  outcome: string;
  error?: string | null;
  /**
   * Fired from a timer after the segment was handled (a kitchen timer ringing): the daemon stores
   * those without a segment; replay hangs them on the segment before them, on both sides, so they
   * compare like for like.
   */
  later?: boolean;
}

/** What speech-to-text made of the segment. */
export interface Heard {
  /** Cleaned text of each utterance handed to the router, in order (the daemon skips empty ones). */
  texts: string[];
  /** The language each of those was heard in (a pack code; null: none named), read in it first as on the device. */
  languages?: (string | null)[];
  /** Why nothing reached the router, when nothing did. */
  dropped: string | null;
  engine: string | null;
}

export interface OldOutcome {
  heard: Heard;
  actions: ActionOutcome[];
}

/** What the new VAD settings make of the stored segment's audio. */
export interface VadOutcome {
  /** kept: still one segment; split: more than one; dropped: none; ptt: opened by the button, the VAD does not decide. */
  result: 'kept' | 'split' | 'dropped' | 'ptt';
  pieces: number;
  /** For dropped: why (no frame loud enough, too short). */
  reason?: string;
  /** Highest speech probability the new VAD saw in the stored audio. */
  maxProb?: number;
}

export interface NewOutcome {
  heard: Heard;
  /** Only in full mode with the VAD re-run. */
  vad: VadOutcome | null;
  actions: ActionOutcome[];
  /** Text handed to a target (query and dictation frames): the daemon does not store these. */
  submissions: { frame: string; target: string; text: string }[];
  /** Utterances no rule took, and why: not stored either, shown to explain a missing action. */
  ignored: { frame: string; text: string; reason: string }[];
  /** What hark would have said. */
  said: string[];
  /** When each of `said` was said, in ms after the segment's words ended (the cascade counts from then). */
  saidAfterMs: number[];
  /**
   * How long before the segment's close its words ended: the hangover the device had in force (or an
   * early close's pause), as stored with the segment. The cascade's timers count from then.
   */
  trailingSilenceMs: number;
  /** Frame stacks the segment moved through (each change), bottom to top. */
  stacks: string[][];
}

export interface SegmentReplay {
  id: number;
  /** Wall-clock ms of the first sample (pre-roll included). */
  startedAt: number;
  /** audio: speech-to-text ran on the stored audio; text: the stored transcript went to the router. */
  input: 'audio' | 'text';
  /** Why this segment was replayed differently from the rest (no audio stored, ...). */
  note: string | null;
  /** Set when the segment was not replayed at all, and why. */
  skipped: string | null;
  old: OldOutcome;
  new: NewOutcome | null;
}

export function emptyNewOutcome(heard: Heard, vad: VadOutcome | null = null, trailingSilenceMs = 0): NewOutcome {
  return { heard, vad, actions: [], submissions: [], ignored: [], said: [], saidAfterMs: [], trailingSilenceMs, stacks: [] };
}

/**
 * The stored side. The daemon keeps only the first utterance with text (Conversation.record), so
 * that is the one compared; a segment with no utterance says why from its transcripts.
 */
export function oldOutcome(view: SegmentView, later: readonly ActionView[] = []): OldOutcome {
  const u = view.utterances[0];
  const reasons = view.transcripts.map((t) => t.droppedReason).filter((r): r is string => !!r);
  const heard: Heard = u
    ? { texts: u.text ? [u.text] : [], languages: u.text ? [u.language] : [], dropped: u.text ? null : 'empty utterance', engine: u.engine }
    : {
        texts: [],
        dropped: reasons.length ? [...new Set(reasons)].join('; ') : view.transcripts.length ? 'nothing heard' : 'no transcript stored',
        engine: view.transcripts[view.transcripts.length - 1]?.engine ?? null,
      };
  const row = (a: ActionView, isLater: boolean): ActionOutcome => ({
    name: a.name,
    args: a.args,
    outcome: a.outcome,
    ...(a.error ? { error: a.error } : {}),
    ...(isLater ? { later: true } : {}),
  });
  return { heard, actions: [...view.actions.map((a) => row(a, false)), ...later.map((a) => row(a, true))] };
}

/** The daemon drops a push-to-talk segment cancelled by a tap or a mute hold, and says so in a transcript row. */
export function wasCancelled(view: SegmentView): boolean {
  return view.transcripts.some((t) => t.engine === 'none' && (t.droppedReason ?? '').startsWith('push-to-talk cancelled'));
}

/**
 * Fold one effect from the command core into the new outcome. Action rows are built exactly as
 * Conversation.onEffect builds the rows it stores, so the two sides compare field for field.
 */
export function addEffect(o: NewOutcome, e: Effect, later: boolean, afterMs = 0): void {
  const tag = later ? { later: true } : {};
  switch (e.type) {
    case 'action': {
      const a: ActionOutcome = { name: e.name, args: e.args, outcome: 'ok', ...tag };
      o.actions.push(a);
      if (e.seq !== undefined) firedBySeq(o).set(e.seq, a);
      break;
    }
    case 'action.superseded': {
      // The daemon marks the superseded action's row; replay does the same to its own list.
      const earlier = firedBySeq(o).get(e.seq);
      if (earlier) {
        earlier.outcome = 'superseded';
        earlier.error = `by ${e.by}`;
      }
      break;
    }
    case 'action.failed':
      o.actions.push({ name: e.name, args: null, outcome: 'error', error: e.error, ...tag });
      break;
    case 'action.dropped':
      o.actions.push({ name: e.name, args: e.args, outcome: e.reason, ...tag });
      break;
    case 'submit':
      o.submissions.push({ frame: e.frame, target: e.target, text: e.text });
      break;
    case 'ignored':
      o.ignored.push({ frame: e.frame, text: e.text, reason: e.reason });
      break;
    case 'speak':
      o.said.push(e.text);
      o.saidAfterMs.push(Math.round(afterMs));
      break;
    case 'stack':
      o.stacks.push(e.frames);
      break;
    default:
      break;
  }
}

/** Fired actions of an outcome by the action router's number, kept beside the printed data, not in it. */
const fired = new WeakMap<NewOutcome, Map<number, ActionOutcome>>();
function firedBySeq(o: NewOutcome): Map<number, ActionOutcome> {
  let m = fired.get(o);
  if (!m) fired.set(o, (m = new Map()));
  return m;
}
