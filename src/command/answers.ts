import { readNumber } from '../language/numbers.js';

/**
 * "repeat number 3" (the repeat with a reference): the third item of what hark last said —
 * a list read back ("The shopping list: eggs, milk and oats.") is items after the colon; anything
 * else is sentences. Pure.
 */
export function numberedPart(text: string, n: number): string | null {
  if (!Number.isInteger(n) || n < 1) return null;
  const colon = text.indexOf(':');
  const parts =
    colon >= 0
      ? text
          .slice(colon + 1)
          .replace(/[.!?]+\s*$/, '')
          .split(/,\s*|\s+and\s+/)
      : text.split(/(?<=[.!?])\s+/);
  const part = parts.map((p) => p.trim()).filter(Boolean)[n - 1];
  return part ?? null;
}

/** "number 3" → 3; "last", "previous" → null (the whole of the last thing said). */
export function referenceNumber(reference: unknown): number | null {
  if (typeof reference !== 'string') return null;
  const w = reference.trim().toLowerCase().split(/\s+/);
  if (w[0] !== 'number') return null;
  const n = readNumber(w, 1);
  return n && n.next === w.length ? n.value : null;
}
