import type { Clock } from '../core/clock.js';
import { normalise } from '../language/text.js';

/**
 * Deduplication for always-listen mode: in a kitchen the same request is said twice
 * ("we need milk" ... "yeah, get milk"), and the window re-reads earlier speech as context, so the
 * same proposal would come back. A proposal is reduced to a fingerprint (its significant words,
 * sorted) and suppressed when one at least `threshold` similar (Jaccard) was seen within
 * `windowMs`. At most `max` fingerprints are kept; the oldest go first.
 *
 * Only a proposal that stands is remembered: one the person turned down ("no") or left unanswered
 * is forgotten (`forget`), so saying it again gets a fresh proposal (proposals are
 * non-binding; a refusal must not silence the request for the rest of the window).
 * Why: docs/decisions.md#always-listen-mode-a-two-buffer-window-deduplication-a-rate-limit.
 */
const STOP_WORDS = new Set(
  // Fillers and acknowledgements too: "yeah, get milk" is "get milk" said again.
  (
    'yeah yes ok okay um uh so well oh also too ' +
    'a an the and or but of to in on at for from with by is are was were be been it its this that these those i we you he she they me us my our your some any more please can could would will just so do does did have has had get got need needs'
  ).split(' '),
);

export function fingerprint(text: string): string[] {
  const words = normalise(text.replace(/_/g, ' '))
    .split(' ')
    .filter((w) => w && !STOP_WORDS.has(w));
  return [...new Set(words)].sort();
}

export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  const setB = new Set(b);
  let inter = 0;
  for (const w of new Set(a)) if (setB.has(w)) inter++;
  return inter / new Set([...a, ...b]).size;
}

const NUMBER = /^(\d+(\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|dozen|half)$/;

/** A different quantity is a different request, however alike the rest ("2 cases of milk" vs "3 cases of milk"). */
function sameNumbers(a: readonly string[], b: readonly string[]): boolean {
  const na = a.filter((w) => NUMBER.test(w)).join(' ');
  const nb = b.filter((w) => NUMBER.test(w)).join(' ');
  return na === nb;
}

export interface DedupOptions {
  windowMs: number;
  threshold: number;
  max: number;
}

export class Deduper {
  private seen: { words: string[]; at: number }[] = [];

  constructor(private readonly opts: DedupOptions & { clock: Clock }) {}

  /** True (and remembered) when `text` is new; false when a similar one was seen within the window. */
  admit(text: string): boolean {
    const now = this.opts.clock.now();
    this.seen = this.seen.filter((s) => now - s.at < this.opts.windowMs);
    const words = fingerprint(text);
    if (this.seen.some((s) => jaccard(s.words, words) >= this.opts.threshold && sameNumbers(s.words, words))) return false;
    this.seen.push({ words, at: now });
    if (this.seen.length > this.opts.max) this.seen.splice(0, this.seen.length - this.opts.max);
    return true;
  }

  /**
   * Forget the fingerprint `admit` remembered for `text` (the same text: the most recent exact
   * match, never a merely similar one). True when one was forgotten.
   */
  forget(text: string): boolean {
    const key = fingerprint(text).join(' ');
    for (let i = this.seen.length - 1; i >= 0; i--) {
      if (this.seen[i]!.words.join(' ') !== key) continue;
      this.seen.splice(i, 1);
      return true;
    }
    return false;
  }

  get size(): number {
    return this.seen.length;
  }

  clear(): void {
    this.seen = [];
  }
}
