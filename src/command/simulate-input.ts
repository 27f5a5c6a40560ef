import { BUTTON_GESTURES, type ButtonGesture } from './spec.js';

/**
 * `hark simulate` input, one line at a time: plain text (an utterance 1 s after the previous
 * line), [tap] (a button tap 1 s after the previous line), {"text": "...", "atMs": N} (an
 * utterance at N ms; atMs optional), [es] text or {"text": "...", "language": "es"} (an utterance
 * that names its language, as a multilingual engine's transcript does), {"button": "tap", "atMs": N} (a button tap at N ms), or
 * {"atMs": N} (only move the clock). Pure, so every malformed shape has a test and a message
 * naming what was wrong.
 *
 * A gesture in brackets is lower case ([tap]); upper-case brackets stay text, so Whisper's special
 * tokens ("[BLANK_AUDIO]") can still be simulated as what an engine wrote.
 */
export type SimLine =
  { kind: 'blank' } | { kind: 'error'; message: string } | { kind: 'event'; atMs: number; text?: string; language?: string; button?: ButtonGesture };

/** Plain-text lines are this far apart. */
export const PLAIN_STEP_MS = 1000;

const SHAPES = 'expected plain text, [tap], [es] text, {"text": "...", "atMs": N, "language": "es"}, {"button": "tap", "atMs": N} or {"atMs": N}';
const GESTURE = /^\[([a-z][a-z-]*)\]$/;
/** A pack code in brackets before the words: "[es] pon un temporizador". */
const LANGUAGE = /^\[([a-z]{2,3}(?:-[a-z0-9]+)*)\]\s+(\S.*)$/;
const CODE = /^[a-z]{2,3}(?:-[a-z0-9]+)*$/;
const KNOWN = BUTTON_GESTURES.map((g) => `[${g}]`).join(', ');

function isGesture(g: unknown): g is ButtonGesture {
  return BUTTON_GESTURES.includes(g as ButtonGesture);
}

export function parseSimLine(line: string, previousAtMs: number): SimLine {
  const trimmed = line.trim();
  if (!trimmed) return { kind: 'blank' };
  const g = GESTURE.exec(trimmed);
  if (g) {
    if (!isGesture(g[1])) return { kind: 'error', message: `unknown button gesture ${trimmed} (known: ${KNOWN})` };
    return { kind: 'event', atMs: previousAtMs + PLAIN_STEP_MS, button: g[1] };
  }
  const l = LANGUAGE.exec(trimmed);
  if (l) return { kind: 'event', atMs: previousAtMs + PLAIN_STEP_MS, text: l[2]!, language: l[1]! };
  if (!trimmed.startsWith('{')) return { kind: 'event', atMs: previousAtMs + PLAIN_STEP_MS, text: trimmed };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (err) {
    return { kind: 'error', message: `not valid JSON (${(err as Error).message}); ${SHAPES}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'error', message: `a JSON line must be an object; ${SHAPES}` };
  const obj = value as Record<string, unknown>;
  const extra = Object.keys(obj).filter((k) => k !== 'text' && k !== 'atMs' && k !== 'button' && k !== 'language');
  if (extra.length)
    return { kind: 'error', message: `unknown field${extra.length > 1 ? 's' : ''} ${extra.map((k) => JSON.stringify(k)).join(', ')}; ${SHAPES}` };
  if (obj.language !== undefined && obj.text === undefined) return { kind: 'error', message: '"language" names the language of a "text"; this line has none' };
  if (obj.text === undefined && obj.atMs === undefined && obj.button === undefined)
    return { kind: 'error', message: `needs "text", "button" or "atMs"; ${SHAPES}` };
  if (obj.text !== undefined && obj.button !== undefined)
    return { kind: 'error', message: 'a line is an utterance ("text") or a button press ("button"), not both' };
  if (obj.text !== undefined && typeof obj.text !== 'string') return { kind: 'error', message: `"text" must be a string, got ${JSON.stringify(obj.text)}` };
  if (obj.language !== undefined && (typeof obj.language !== 'string' || !CODE.test(obj.language)))
    return { kind: 'error', message: `"language" must be a language pack's code ("es", "pt-br"), got ${JSON.stringify(obj.language)}` };
  if (obj.button !== undefined && !isGesture(obj.button))
    return { kind: 'error', message: `"button" must be one of: ${BUTTON_GESTURES.join(', ')}; got ${JSON.stringify(obj.button)}` };
  let atMs: number;
  if (obj.atMs === undefined) atMs = previousAtMs + PLAIN_STEP_MS;
  else if (typeof obj.atMs !== 'number' || !Number.isFinite(obj.atMs) || obj.atMs < 0) {
    return { kind: 'error', message: `"atMs" must be a number of milliseconds (0 or more), got ${JSON.stringify(obj.atMs)}` };
  } else atMs = Math.round(obj.atMs);
  if (atMs < previousAtMs) return { kind: 'error', message: `"atMs" ${atMs} is before the previous line's ${previousAtMs}; time only moves forward` };
  if (obj.button !== undefined) return { kind: 'event', atMs, button: obj.button };
  if (obj.text === undefined) return { kind: 'event', atMs };
  return typeof obj.language === 'string' ? { kind: 'event', atMs, text: obj.text, language: obj.language } : { kind: 'event', atMs, text: obj.text };
}
