import { SAMPLE_RATE, float32ToInt16 } from '../audio/pcm.js';

/**
 * The debug page's logging protocol (docs/decisions.md#the-debug-pages-logging-protocol), so an outside pipeline can log to the same viewer:
 *   { "samples": [float32...], "preroll_length": N, "transcript": "...", "timestamp": N }
 * Optional extras: "sample_rate" (default 16000), "engine", "text" (cleaned), "dropped_reason".
 * Pure validation: the first problem found is reported with the field it is in.
 */
export const MAX_TRANSCRIPT_CHARS = 10_000;
export const MAX_SEGMENT_SECONDS = 120;
const MIN_TIMESTAMP_MS = Date.UTC(2000, 0, 1);
const MAX_FUTURE_MS = 24 * 3600 * 1000;
const KNOWN = new Set(['samples', 'preroll_length', 'transcript', 'timestamp', 'sample_rate', 'engine', 'text', 'dropped_reason']);

export interface PostedSegment {
  pcm: Int16Array;
  prerollSamples: number;
  sampleRate: number;
  transcript: string;
  /** Wall-clock ms since the epoch. */
  startedAt: number;
  engine?: string;
  text?: string;
  droppedReason?: string;
  /** Fields we did not recognise (accepted and ignored, so a newer sender still logs). */
  ignored: string[];
}

export type Checked<T> = { ok: true; value: T } | { ok: false; field: string; message: string };

export function validatePostedSegment(body: unknown, nowMs: number): Checked<PostedSegment> {
  const fail = (field: string, message: string): Checked<PostedSegment> => ({ ok: false, field, message });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return fail('(body)', `must be a JSON object with samples, preroll_length, transcript and timestamp (got ${describe(body)})`);
  }
  const b = body as Record<string, unknown>;

  let sampleRate = SAMPLE_RATE;
  if (b.sample_rate !== undefined) {
    if (!Number.isInteger(b.sample_rate) || (b.sample_rate as number) < 8000 || (b.sample_rate as number) > 48_000) {
      return fail('sample_rate', `must be a whole number of Hz between 8000 and 48000 (got ${describe(b.sample_rate)})`);
    }
    sampleRate = b.sample_rate as number;
  }

  const samples = b.samples;
  if (samples === undefined) return fail('samples', 'is required: an array of float samples in [-1, 1]');
  if (!Array.isArray(samples)) return fail('samples', `must be an array of numbers (got ${describe(samples)})`);
  if (samples.length === 0) return fail('samples', 'must not be empty');
  const maxSamples = MAX_SEGMENT_SECONDS * sampleRate;
  if (samples.length > maxSamples) return fail('samples', `has ${samples.length} samples; at most ${maxSamples} (${MAX_SEGMENT_SECONDS} s) are accepted`);
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < -1 || v > 1) {
      return fail(`samples[${i}]`, `must be a finite number within [-1, 1] (got ${describe(v)})`);
    }
  }

  const pre = b.preroll_length;
  if (pre === undefined) return fail('preroll_length', 'is required: the number of samples at the front that came from the pre-roll');
  if (typeof pre !== 'number' || !Number.isInteger(pre) || pre < 0 || pre > samples.length) {
    return fail('preroll_length', `must be a whole number from 0 to the sample count ${samples.length} (got ${describe(pre)})`);
  }

  const transcript = b.transcript;
  if (transcript === undefined) return fail('transcript', 'is required: the raw transcript (an empty string when nothing was heard)');
  if (typeof transcript !== 'string') return fail('transcript', `must be a string (got ${describe(transcript)})`);
  if (codePoints(transcript) > MAX_TRANSCRIPT_CHARS)
    return fail('transcript', `must be at most ${MAX_TRANSCRIPT_CHARS} characters (got ${codePoints(transcript)})`);

  let startedAt = nowMs;
  if (b.timestamp !== undefined && b.timestamp !== null) {
    if (typeof b.timestamp !== 'number' || !Number.isFinite(b.timestamp) || b.timestamp < 0) {
      return fail('timestamp', `must be a non-negative number of seconds (or ms) since the epoch (got ${describe(b.timestamp)})`);
    }
    // The protocol's own senders send seconds (1234567890); a value past the year 5138 in seconds can only be ms.
    startedAt = b.timestamp < 1e11 ? Math.round(b.timestamp * 1000) : Math.round(b.timestamp);
    // A time far off (9e15, nanoseconds) breaks date rendering and would sit at the young end of retention.
    if (startedAt < MIN_TIMESTAMP_MS || startedAt > nowMs + MAX_FUTURE_MS) {
      return fail('timestamp', `must be between 2000-01-01 and one day from now, in seconds or ms since the epoch (got ${describe(b.timestamp)})`);
    }
  }

  const value: PostedSegment = {
    pcm: float32ToInt16(samples as number[]),
    prerollSamples: pre,
    sampleRate,
    transcript,
    startedAt,
    ignored: Object.keys(b).filter((k) => !KNOWN.has(k)),
  };
  for (const [key, prop] of [
    ['engine', 'engine'],
    ['text', 'text'],
    ['dropped_reason', 'droppedReason'],
  ] as const) {
    const v = b[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string' || codePoints(v) > MAX_TRANSCRIPT_CHARS)
      return fail(key, `must be a string of at most ${MAX_TRANSCRIPT_CHARS} characters (got ${describe(v)})`);
    value[prop] = v;
  }
  return { ok: true, value };
}

function codePoints(s: string): number {
  if (s.length <= MAX_TRANSCRIPT_CHARS) return s.length; // UTF-16 units are never fewer than code points
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** A short, safe description of a bad value for an error message (never the whole value). */
function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array of ${v.length}`;
  if (typeof v === 'string') return v.length > 20 ? `a string of ${v.length} characters` : JSON.stringify(v);
  if (typeof v === 'number') return String(v);
  return typeof v;
}
