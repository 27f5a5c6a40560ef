import type { Node } from './template.js';

/**
 * Matching an expanded template (template.ts) against the words of an utterance. Words match
 * themselves; a slot asks its reader which spans starting here it can read, and with what value.
 * Every way the template can cover the words is found (a slot may read one word or three), each
 * with a score: literal words count 1, a slot's words what its reader says they are worth (a
 * duration or a known timer's name nearly as much as a literal word, a free-text name little). The
 * caller keeps the best. Pure.
 */
export interface SlotMatch {
  /** Index after the span read. */
  end: number;
  value: unknown;
  /** What the span is worth to the match (literal words are 1 each). */
  weight: number;
}

/** Reads the spans a slot can take from words[at]; `ctx` is whatever the reader needs (what hark owns now). */
export type SlotReader<C> = (words: readonly string[], at: number, ctx: C) => SlotMatch[];

interface Caps {
  key: string;
  value: unknown;
  next: Caps | null;
}

interface Partial {
  end: number;
  score: number;
  caps: Caps | null;
}

export interface Match {
  end: number;
  score: number;
  /** Each slot key's values, in the order they were read. */
  slots: Record<string, unknown[]>;
}

/** Partial matches kept per end position: enough for alternatives, bounded for long utterances. */
const KEEP = 6;

function prune(list: Partial[]): Partial[] {
  const byEnd = new Map<number, Partial[]>();
  for (const p of list) {
    const l = byEnd.get(p.end);
    if (l) l.push(p);
    else byEnd.set(p.end, [p]);
  }
  const out: Partial[] = [];
  for (const l of byEnd.values()) {
    l.sort((a, b) => b.score - a.score);
    out.push(...l.slice(0, KEEP));
  }
  return out;
}

/**
 * `prefix`: the words may stop before the template does (a clipped opening: "could the rest of a
 * sentence follow these words?"); whatever of the template is left after the last word matches.
 */
export function matchTemplate<C>(
  node: Node,
  words: readonly string[],
  start: number,
  ctx: C,
  readers: ReadonlyMap<string, SlotReader<C>>,
  prefix = false,
): Match[] {
  const memo = new Map<Node, Map<number, Partial[]>>();
  const slotMemo = new Map<string, SlotMatch[]>();

  const run = (n: Node, at: number): Partial[] => {
    let byPos = memo.get(n);
    const hit = byPos?.get(at);
    if (hit) return hit;
    const r = compute(n, at);
    if (!byPos) memo.set(n, (byPos = new Map()));
    byPos.set(at, r);
    return r;
  };

  const compute = (n: Node, at: number): Partial[] => {
    if (prefix && at >= words.length) return [{ end: at, score: 0, caps: null }];
    switch (n.t) {
      case 'word':
        return words[at] === n.w ? [{ end: at + 1, score: 1, caps: null }] : [];
      case 'rule':
        // Expanded before matching (template.ts expand()); an unexpanded rule matches nothing.
        return [];
      case 'slot': {
        const k = `${n.type}@${at}`;
        let spans = slotMemo.get(k);
        if (!spans) slotMemo.set(k, (spans = at < words.length ? (readers.get(n.type)?.(words, at, ctx) ?? []) : []));
        return spans.map((s) => ({ end: s.end, score: s.weight, caps: { key: n.key, value: s.value, next: null } }));
      }
      case 'alt':
        return prune(n.options.flatMap((o) => run(o, at)));
      case 'seq': {
        let frontier: Partial[] = [{ end: at, score: 0, caps: null }];
        for (const item of n.items) {
          const next: Partial[] = [];
          for (const f of frontier) {
            for (const r of run(item, f.end)) next.push({ end: r.end, score: f.score + r.score, caps: join(r.caps, f.caps) });
          }
          frontier = prune(next);
          if (!frontier.length) break;
        }
        return frontier;
      }
    }
  };

  return run(node, start).map((p) => ({ end: p.end, score: p.score, slots: slotsOf(p.caps) }));
}

/** Captures of a later part go in front of an earlier part's: the list is newest first. */
function join(later: Caps | null, earlier: Caps | null): Caps | null {
  if (!later) return earlier;
  if (!earlier) return later;
  const items: Caps[] = [];
  for (let c: Caps | null = later; c; c = c.next) items.push(c);
  let out = earlier;
  for (let i = items.length - 1; i >= 0; i--) out = { key: items[i]!.key, value: items[i]!.value, next: out };
  return out;
}

function slotsOf(caps: Caps | null): Record<string, unknown[]> {
  const list: Caps[] = [];
  for (let c = caps; c; c = c.next) list.push(c);
  const out: Record<string, unknown[]> = {};
  for (let i = list.length - 1; i >= 0; i--) (out[list[i]!.key] ??= []).push(list[i]!.value);
  return out;
}
