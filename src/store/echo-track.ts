import type { EchoTrackInput, EchoTrackView } from './records.js';

/**
 * The second track of a segment heard while hark played: checked before it is stored, and
 * read back defensively (the file may be old, damaged or edited by hand). Pure: no I/O.
 *
 * Playback spans are stored as JSON `[[start, end], ...]`, samples from the segment's first sample.
 */

/**
 * At most this many playback spans per segment. The canceller marks whole 32 ms frames, so even a
 * segment at the longest split (tens of seconds) has a few hundred; more is not a real track.
 */
export const MAX_PLAYBACK_SPANS = 4096;

/** What is wrong with a track for a segment of `sampleCount` samples, or null when it can be stored. */
export function echoTrackProblem(track: EchoTrackInput, sampleCount: number): string | null {
  if (!(track.raw instanceof Int16Array)) return 'raw: must be 16-bit samples';
  if (track.raw.length !== sampleCount) return `raw: has ${track.raw.length} samples, the segment has ${sampleCount}`;
  if (!Array.isArray(track.playback)) return 'playback: must be a list of spans';
  if (track.playback.length === 0) return 'playback: no span (a segment not heard over playback has no second track)';
  if (track.playback.length > MAX_PLAYBACK_SPANS) return `playback: ${track.playback.length} spans, at most ${MAX_PLAYBACK_SPANS}`;
  let last = 0;
  for (const [i, span] of track.playback.entries()) {
    const why = spanProblem(span?.start, span?.end, last, sampleCount);
    if (why) return `playback[${i}]: ${why}`;
    last = span.end;
  }
  return null;
}

export function encodePlayback(playback: EchoTrackInput['playback']): string {
  return JSON.stringify(playback.map((s) => [s.start, s.end]));
}

/**
 * The stored spans as the view shows them. Anything unreadable gives no spans and a problem that
 * says what was wrong, never an exception: one bad row must not break the page or the list.
 */
export function readPlayback(text: string, sampleCount: number, sampleRate: number): Pick<EchoTrackView, 'playback' | 'problem'> {
  const bad = (why: string) => ({ playback: [], problem: `playback spans unreadable: ${why}` });
  if (text.length > MAX_PLAYBACK_SPANS * 32) return bad(`${text.length} characters stored, more than any real track`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return bad(`not JSON (${(err as Error).message})`);
  }
  if (!Array.isArray(parsed)) return bad('not a list');
  if (parsed.length > MAX_PLAYBACK_SPANS) return bad(`${parsed.length} spans, at most ${MAX_PLAYBACK_SPANS}`);
  const ms = (n: number) => Math.round((n * 100_000) / sampleRate) / 100;
  const playback: EchoTrackView['playback'] = [];
  let last = 0;
  for (const [i, item] of parsed.entries()) {
    const pair = Array.isArray(item) && item.length === 2 ? (item as unknown[]) : null;
    const why = pair ? spanProblem(pair[0], pair[1], last, sampleCount) : 'not a [start, end] pair';
    if (why) return bad(`span ${i}: ${why}`);
    const [start, end] = pair as [number, number];
    playback.push({ start, end, startMs: ms(start), endMs: ms(end) });
    last = end;
  }
  return { playback, problem: null };
}

function spanProblem(start: unknown, end: unknown, after: number, sampleCount: number): string | null {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return 'start and end must be whole sample numbers';
  const s = start as number;
  const e = end as number;
  if (s < after) return `starts at ${s}, before the previous span ends (${after}): spans must be in order and apart`;
  if (e <= s) return `ends at ${e}, not after its start ${s}`;
  if (e > sampleCount) return `ends at ${e}, past the segment's ${sampleCount} samples`;
  return null;
}
