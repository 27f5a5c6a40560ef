import { said } from '../language/text.js';
import type { ActionOutcome, Heard, NewOutcome, SegmentReplay } from './outcome.js';

/**
 * Judging a replayed segment against what happened, and saying it in one line. Pure.
 *
 * Only what both sides know is compared: the text the router got, and the actions (name, args,
 * outcome). The new side also knows submissions, ignored utterances and speech, which the store
 * does not keep; those explain a difference, they are not one.
 */
export type Difference = 'vad' | 'text' | 'actions';

export interface Verdict {
  replay: SegmentReplay;
  status: 'differs' | 'same' | 'skipped';
  differences: Difference[];
}

export function judge(r: SegmentReplay): Verdict {
  if (r.skipped || !r.new) return { replay: r, status: 'skipped', differences: [] };
  const differences: Difference[] = [];
  const vad = r.new.vad;
  if (vad && (vad.result === 'dropped' || vad.result === 'split')) differences.push('vad');
  if (!sameText(r.old.heard, r.new.heard)) differences.push('text');
  if (!sameActions(r.old.actions, r.new.actions)) differences.push('actions');
  return { replay: r, status: differences.length ? 'differs' : 'same', differences };
}

/**
 * The first utterance on each side (the daemon stores only that one), as the router sees it:
 * "Set a timer." and "set a timer" are the same command, so case and punctuation do not count.
 */
function sameText(a: Heard, b: Heard): boolean {
  return said(a.texts[0] ?? '').norm === said(b.texts[0] ?? '').norm;
}

function sameActions(a: readonly ActionOutcome[], b: readonly ActionOutcome[]): boolean {
  return a.length === b.length && a.every((x, i) => actionKey(x) === actionKey(b[i]!));
}

/** Identity of an action for comparing: name, args (key order ignored) and outcome. Not the error text or timing. */
function actionKey(a: ActionOutcome): string {
  return `${a.name}\u0000${canonical(a.args ?? null)}\u0000${a.outcome}`;
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

// ---- one line per segment ----

/** `timer.set{seconds=600}`, `repeat[cooldown]`, `timer.done{seconds=60} (later)`. */
export function formatAction(a: ActionOutcome): string {
  const args = a.args && typeof a.args === 'object' && !Array.isArray(a.args) ? Object.entries(a.args as Record<string, unknown>) : [];
  const body = args.length ? `{${args.map(([k, v]) => `${k}=${typeof v === 'string' ? v : canonical(v)}`).join(',')}}` : '';
  const outcome = a.outcome === 'ok' ? '' : a.outcome === 'error' ? `[error${a.error ? `: ${a.error}` : ''}]` : `[${a.outcome}]`;
  return `${a.name}${body}${outcome}${a.later ? ' (later)' : ''}`;
}

function formatActions(list: readonly ActionOutcome[], why: string | null): string {
  if (list.length) return list.map(formatAction).join(', ');
  return why ? `(none: ${why})` : '(none)';
}

function formatText(h: Heard): string {
  if (h.texts.length === 0) return `(nothing: ${h.dropped ?? 'nothing heard'})`;
  const more = h.texts.length > 1 ? ` (+${h.texts.length - 1} more)` : '';
  // The language it was heard in, as a simulate line names it: `[es] "Pausa arroz."`.
  const language = h.languages?.[0];
  return (language ? `[${language}] ` : '') + JSON.stringify(h.texts[0]) + more;
}

/** Why the new run fired no action, from what only the new side knows. */
export function whyNoAction(n: NewOutcome): string | null {
  if (n.vad?.result === 'dropped') return 'the VAD drops the segment';
  if (n.heard.texts.length === 0) return `nothing heard: ${n.heard.dropped ?? 'blank'}`;
  if (n.submissions.length) return n.submissions.map((s) => `submitted to ${s.target}: ${JSON.stringify(s.text)}`).join('; ');
  if (n.ignored.length) return `ignored: ${n.ignored[n.ignored.length - 1]!.reason}`;
  const last = n.stacks[n.stacks.length - 1];
  if (last) return `${last.join(' > ')} frame open`;
  return null;
}

function formatVad(n: NewOutcome): string | null {
  const v = n.vad;
  if (!v || v.result === 'kept' || v.result === 'ptt') return null;
  if (v.result === 'split') return `vad: split into ${v.pieces}`;
  return `vad: dropped${v.reason ? ` (${v.reason})` : ''}`;
}

export interface LineOptions {
  /** Include the date (the replay spans more than one day). */
  withDate: boolean;
}

/** `#1234 10:32:05 differs  text: "..." → "..."  actions: timer.set{seconds=600} → (none: ignored: ...)` */
export function formatLine(v: Verdict, opts: LineOptions): string {
  const r = v.replay;
  const head = `#${r.id} ${formatTime(r.startedAt, opts.withDate)} ${v.status}`;
  const note = r.note ? `  [${r.note}]` : '';
  if (v.status === 'skipped' || !r.new) return `${head}  (${r.skipped ?? 'not replayed'})`;
  const parts: string[] = [];
  const vad = formatVad(r.new);
  if (vad) parts.push(vad);
  const oldText = formatText(r.old.heard);
  const newText = formatText(r.new.heard);
  parts.push(v.differences.includes('text') ? `text: ${oldText} → ${newText}` : `text: ${oldText}`);
  const oldActions = formatActions(r.old.actions, null);
  const newActions = formatActions(r.new.actions, r.new.actions.length ? null : whyNoAction(r.new));
  parts.push(v.differences.includes('actions') ? `actions: ${oldActions} → ${newActions}` : `actions: ${oldActions}`);
  return `${head}  ${parts.join('  ')}${note}`;
}

function formatTime(ms: number, withDate: boolean): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  const time = `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
  return withDate ? `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${time}` : time;
}

/** True when the segments fall on more than one local calendar day. */
export function spansDays(times: readonly number[]): boolean {
  const days = new Set(times.map((t) => new Date(t).toDateString()));
  return days.size > 1;
}

// ---- the summary ----

export interface Summary {
  replayed: number;
  differ: number;
  same: number;
  skipped: number;
  /** Skip reasons with their counts. */
  skippedBy: Record<string, number>;
  /** Segments replayed from their stored text (all of them with --text-only; in full mode, those without audio). */
  fromText: number;
  /** How often each kind of difference occurred. */
  differences: Record<Difference, number>;
}

export function summarise(verdicts: readonly Verdict[]): Summary {
  const s: Summary = { replayed: 0, differ: 0, same: 0, skipped: 0, skippedBy: {}, fromText: 0, differences: { vad: 0, text: 0, actions: 0 } };
  for (const v of verdicts) {
    if (v.status === 'skipped') {
      s.skipped++;
      const why = v.replay.skipped ?? 'not replayed';
      s.skippedBy[why] = (s.skippedBy[why] ?? 0) + 1;
      continue;
    }
    s.replayed++;
    if (v.replay.input === 'text') s.fromText++;
    if (v.status === 'differs') s.differ++;
    else s.same++;
    for (const d of v.differences) s.differences[d]++;
  }
  return s;
}

/** `42 segments replayed (text only): 3 differ, 38 same; 1 skipped (1 nothing was heard)` */
export function formatSummary(s: Summary, mode: 'full' | 'text-only'): string {
  const n = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
  const skipped = s.skipped
    ? `; ${s.skipped} skipped (${Object.entries(s.skippedBy)
        .map(([why, k]) => `${k} ${why}`)
        .join(', ')})`
    : '';
  const kinds = s.differ
    ? ` [${(Object.entries(s.differences) as [Difference, number][])
        .filter(([, k]) => k > 0)
        .map(([d, k]) => `${d} ${k}`)
        .join(', ')}]`
    : '';
  const text = mode === 'full' && s.fromText ? `; ${s.fromText} from stored text (no audio stored)` : '';
  return `${n(s.replayed, 'segment')} replayed${mode === 'text-only' ? ' (text only)' : ''}: ${s.differ} differ${kinds}, ${s.same} same${skipped}${text}`;
}
