import type { SegmentQuery } from '../store/records.js';
import type { Checked } from './post-segment.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;

/**
 * `GET /api/segments?before=&limit=&q=&engine=&dropped=` into a store query. `dropped` takes
 * 1/true (any dropped transcript), 0/false (none dropped) or a reason such as `blank-audio`.
 */
export function parseSegmentQuery(params: URLSearchParams): Checked<SegmentQuery> {
  const fail = (field: string, message: string): Checked<SegmentQuery> => ({ ok: false, field, message });
  const query: SegmentQuery = { limit: DEFAULT_LIMIT };

  const limit = params.get('limit');
  if (limit !== null && limit !== '') {
    if (!/^\d+$/.test(limit) || +limit < 1 || +limit > MAX_LIMIT)
      return fail('limit', `must be a whole number from 1 to ${MAX_LIMIT} (got ${JSON.stringify(limit.slice(0, 20))})`);
    query.limit = +limit;
  }
  const before = params.get('before');
  if (before !== null && before !== '') {
    if (!/^\d{1,15}$/.test(before) || +before < 1)
      return fail('before', `must be a segment id, a whole number from 1 (got ${JSON.stringify(before.slice(0, 20))})`);
    query.before = +before;
  }
  for (const [field, max] of [
    ['q', 200],
    ['engine', 64],
  ] as const) {
    const v = params.get(field);
    if (v === null || v.trim() === '') continue;
    if (v.length > max) return fail(field, `must be at most ${max} characters`);
    query[field] = field === 'q' ? v : v.trim();
  }
  const dropped = params.get('dropped')?.trim();
  if (dropped) {
    if (dropped.length > 64) return fail('dropped', 'must be 1, 0, or a drop reason of at most 64 characters');
    query.dropped = /^(1|true|yes)$/i.test(dropped) ? true : /^(0|false|no)$/i.test(dropped) ? false : dropped;
  }
  return { ok: true, value: query };
}
