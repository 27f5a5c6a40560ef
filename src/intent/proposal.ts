import { UNKNOWN_VERB, type IntentSpec } from './intent-spec.js';

/**
 * The proposal's validation: what the model said becomes PROPOSED only if its verb, lower-cased and
 * trimmed, is one of the allowed intents. Everything else (an unknown verb, "unknown", an empty
 * or unparsable reply, JSON of the wrong shape) is AMBIGUOUS, with a reason a technician can read
 * in the log. Pure: a string in, a verdict out; nothing here trusts the model.
 * Why: docs/decisions.md#the-model-proposes-the-person-confirms.
 */
/** The reason given when the model answered "unknown": it did its job, nothing was wrong. */
export const NOT_RECOGNISED = 'the model did not recognise a request';

export type Proposal =
  | { status: 'PROPOSED'; intent: IntentSpec; target: string | null }
  | {
      status: 'AMBIGUOUS';
      reason: string;
      /** Set when the verb was fine but something it needs was missing (the clarification names it). */
      intent?: IntentSpec;
    };

/** Long replies are cut in reasons, so one garbage answer cannot flood the log. */
function clip(text: string, max = 80): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

export function readProposal(content: string, intents: readonly IntentSpec[]): Proposal {
  const ambiguous = (reason: string, intent?: IntentSpec): Proposal => (intent ? { status: 'AMBIGUOUS', reason, intent } : { status: 'AMBIGUOUS', reason });
  if (!content.trim()) return ambiguous('the model returned an empty reply');
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return ambiguous(`the reply is not JSON: ${JSON.stringify(clip(content))}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ambiguous(`the reply is not a JSON object: ${clip(content)}`);
  const obj = value as Record<string, unknown>;
  if (!('verb' in obj)) return ambiguous(`the reply has no "verb": ${clip(content)}`);
  if (typeof obj.verb !== 'string') return ambiguous(`"verb" is not text: ${clip(JSON.stringify(obj.verb))}`);
  const verb = obj.verb.trim().toLowerCase();
  if (!verb) return ambiguous('the verb is empty');
  if (verb === UNKNOWN_VERB) return ambiguous(NOT_RECOGNISED);
  const intent = intents.find((i) => i.name === verb);
  if (!intent) return ambiguous(`"${clip(verb, 40)}" is not one of the allowed intents`);

  let target: string | null;
  const o = obj.object;
  if (o === undefined || o === null) target = null;
  else if (typeof o === 'string') target = o.trim() || null;
  // A small model sometimes answers a count as a bare number; that is still the speaker's object.
  else if (typeof o === 'number' && Number.isFinite(o)) target = String(o);
  else return ambiguous(`"object" must be text or null, got ${clip(JSON.stringify(o))}`, intent);
  if (intent.needsObject && target === null) return ambiguous(`${intent.name} needs an object and the model gave none`, intent);
  return { status: 'PROPOSED', intent, target };
}
