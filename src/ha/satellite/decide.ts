import type { Effect } from '../../core/effects.js';

/** What the router did with one segment's words, as the bus reported it. */
export interface LocalTurn {
  /** The segment's fate in the segment path ('dispatched', 'dropped', …). */
  fate: string;
  openedBy: 'vad' | 'ptt';
  /** Router effects emitted while the segment was routed, in order. */
  effects: readonly Effect[];
  /** Actions the segment fired. */
  actions: readonly string[];
  /** Home Assistant asked a question back (continue_conversation) and its answer window is open. */
  followUp: boolean;
}

export type Verdict = { to: 'local'; why: string } | { to: 'ha'; why: string };

/**
 * localFirst: does this segment go to Home Assistant? Pure; the satellite calls it after hark's own
 * rules have had the segment (its transcript, its router turn), so what they take — a timer, a
 * list, a mode word, dictation — never needs the network.
 *
 * It goes to Home Assistant when it was addressed to hark (the wake phrase, the button, or the
 * answer to Home Assistant's own question) and no rule took it: the only rules that matched were
 * the wake phrase and the catch-all of a query frame (which would otherwise keep the words as a
 * note), and no action fired. Dictation and inventory catch-alls are hark's, never Home Assistant's.
 */
export function decide(turn: LocalTurn, frameKinds: Readonly<Record<string, string>>): Verdict {
  if (turn.fate !== 'dispatched') return { to: 'local', why: `not dispatched (${turn.fate})` };
  if (turn.actions.length > 0) return { to: 'local', why: `hark acted: ${turn.actions.join(', ')}` };
  const matched = turn.effects.filter((e): e is Extract<Effect, { type: 'matched' }> => e.type === 'matched');
  const kind = (frame: string) => frameKinds[frame];
  const wake = matched.some((m) => kind(m.frame) === 'base' && (m.kind === 'prefix' || m.kind === 'catch-all'));
  const queryCatchAll = matched.some((m) => kind(m.frame) === 'query' && m.kind === 'catch-all');
  const other = matched.filter(
    (m) => !(kind(m.frame) === 'base' && (m.kind === 'prefix' || m.kind === 'catch-all')) && !(kind(m.frame) === 'query' && m.kind === 'catch-all'),
  );
  if (other.length > 0) return { to: 'local', why: `hark's ${other[0]!.frame} frame took it (${other[0]!.kind})` };
  if (queryCatchAll && (wake || turn.openedBy === 'ptt' || turn.followUp)) return { to: 'ha', why: 'addressed to hark and no rule of hark took it' };
  const ignored = turn.effects.find((e) => e.type === 'ignored');
  if (turn.followUp && ignored && kind(ignored.frame) === 'base') return { to: 'ha', why: "the answer to Home Assistant's question" };
  if (turn.openedBy === 'ptt' && ignored && kind(ignored.frame) === 'base') return { to: 'ha', why: 'the button, and no rule of hark took it' };
  return { to: 'local', why: matched.length === 0 ? 'not addressed to hark' : 'hark kept it' };
}

/**
 * localFirst off: is this utterance for Home Assistant before hark's rules see it? Addressed to
 * hark — it starts with a wake phrase (the base frame's prefix rules), came with the button, or
 * answers Home Assistant's own question. Pure; `norm` is the router's normalised text.
 */
export function addressedBeforeRules(o: { norm: string; openedBy: 'vad' | 'ptt'; followUp: boolean; wakePhrases: readonly string[] }): string | null {
  if (o.followUp) return "the answer to Home Assistant's question";
  if (o.openedBy === 'ptt') return 'the button';
  const wake = o.wakePhrases.find((p) => o.norm === p || o.norm.startsWith(`${p} `));
  return wake ? `the wake phrase "${wake}"` : null;
}
