import { MODES, type Mode } from '../core/effects.js';
import { VERBS, type Verb } from './topics.js';

/**
 * Commands that arrive over MQTT, validated (pure). A payload is a JSON object; `say` and
 * `utterance` also take a bare string. Anything else is refused with a reason naming what was wrong,
 * which the client publishes on event/error.
 */
export type FleetCommand =
  | { verb: 'say'; text: string }
  | { verb: 'utterance'; text: string }
  | { verb: 'timer'; action: 'set'; seconds: number; label?: string }
  | { verb: 'timer'; action: 'cancel' | 'pause' | 'resume'; label?: string; all: boolean }
  | { verb: 'mode'; mode: Mode };

export type Parsed = { ok: true; command: FleetCommand } | { ok: false; error: string };

const MAX_TEXT = 1000;
const MAX_TIMER_S = 24 * 3600;

const bad = (error: string): Parsed => ({ ok: false, error });

/** JSON, or — for the text verbs — the payload as plain text when it is not JSON. */
function decode(verb: Verb, raw: string): { value: unknown } | { error: string } {
  const trimmed = raw.trim();
  if (!trimmed) return { error: `${verb}: empty payload` };
  try {
    return { value: JSON.parse(trimmed) };
  } catch {
    if (verb === 'say' || verb === 'utterance' || verb === 'mode') return { value: trimmed };
    return { error: `${verb}: payload is not JSON (expected an object such as ${example(verb)})` };
  }
}

function example(verb: Verb): string {
  switch (verb) {
    case 'say':
    case 'utterance':
      return '{"text": "..."}';
    case 'timer':
      return '{"action": "set", "seconds": 300, "label": "pasta"}';
    case 'mode':
      return '{"mode": "always-listen"}';
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function parseCommand(verb: string, raw: string): Parsed {
  if (!(VERBS as readonly string[]).includes(verb)) return bad(`unknown command "${verb}" (known: ${VERBS.join(', ')})`);
  const v = verb as Verb;
  const d = decode(v, raw);
  if ('error' in d) return bad(d.error);
  const value = d.value;
  switch (v) {
    case 'say':
    case 'utterance': {
      const text = typeof value === 'string' ? value : isObject(value) ? value.text : undefined;
      if (typeof text !== 'string') return bad(`${v}: missing "text" (a string; expected ${example(v)} or a bare string)`);
      if (!text.trim()) return bad(`${v}: "text" is empty`);
      if (text.length > MAX_TEXT) return bad(`${v}: "text" is longer than ${MAX_TEXT} characters`);
      return { ok: true, command: { verb: v, text: text.trim() } };
    }
    case 'mode': {
      const mode = typeof value === 'string' ? value : isObject(value) ? value.mode : undefined;
      if (typeof mode !== 'string' || !(MODES as readonly string[]).includes(mode))
        return bad(`mode: "mode" must be one of ${MODES.join(', ')} (got ${JSON.stringify(mode ?? null)})`);
      return { ok: true, command: { verb: 'mode', mode: mode as Mode } };
    }
    case 'timer':
      return parseTimer(value);
  }
}

function parseTimer(value: unknown): Parsed {
  if (!isObject(value)) return bad(`timer: payload must be a JSON object such as ${example('timer')}`);
  const { action, seconds, label, all } = value;
  if (label !== undefined && (typeof label !== 'string' || !label.trim() || label.length > 100))
    return bad('timer: "label" must be a non-empty string of at most 100 characters');
  const named = typeof label === 'string' ? { label: label.trim().toLowerCase() } : {};
  if (action === 'set') {
    if (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TIMER_S)
      return bad(`timer: "seconds" must be a whole number from 1 to ${MAX_TIMER_S} (got ${JSON.stringify(seconds ?? null)})`);
    return { ok: true, command: { verb: 'timer', action: 'set', seconds, ...named } };
  }
  if (action === 'cancel' || action === 'pause' || action === 'resume') {
    if (all !== undefined && typeof all !== 'boolean') return bad('timer: "all" must be true or false');
    return { ok: true, command: { verb: 'timer', action, all: all === true, ...named } };
  }
  return bad(`timer: "action" must be one of set, cancel, pause, resume (got ${JSON.stringify(action ?? null)})`);
}
