import { HarkError } from '../core/errors.js';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/**
 * `--since`: how far back to replay. A duration counts back from `nowMs` ("90m", "1h", "2d", "1w",
 * or combined "1h30m"); anything else must be a date/time Date.parse understands without guessing
 * ("2026-03-14", "2026-03-14T09:30", "2026-03-14T09:30:00Z"); without a zone it is local time. Returns epoch ms.
 */
export function parseSince(text: string, nowMs: number): number {
  const t = text.trim();
  const dur = /^(?:\d+(?:\.\d+)?[smhdw])+$/i.test(t) ? t.toLowerCase().match(/\d+(?:\.\d+)?[smhdw]/g) : null;
  if (dur) return nowMs - dur.reduce((sum, part) => sum + parseFloat(part) * UNIT_MS[part.slice(-1)]!, 0);
  // ISO-like only: Date.parse also takes "March 7" or "1" and picks a year, which is not what anyone meant.
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) {
    // A bare date is local midnight (Date.parse would take it as UTC midnight, unlike a date-time).
    const ms = Date.parse(t.length === 10 ? `${t}T00:00` : t.replace(' ', 'T'));
    if (Number.isFinite(ms)) return ms;
  }
  throw new HarkError(`--since: expected a duration such as 30m, 1h or 2d, or a time such as 2026-03-14T09:30, got ${JSON.stringify(text)}`, { exitCode: 2 });
}
