import { ASK_SLOTS, UNKNOWN_VERB, type IntentSpec } from './intent-spec.js';

/**
 * Prompt as config, without the trap of a list written twice: once in code and once in the prompt,
 * and changing one without the other made the model propose
 * intents the code then rejected. Here the template holds {intents}, the list is rendered into it,
 * and the structured-output schema is built from the same list, so all three always agree.
 */

export const PROMPT_PLACEHOLDERS = ['intents', 'names'] as const;

/** Intent names are what the model writes back: lower case, digits and underscores. */
export const INTENT_NAME = /^[a-z][a-z0-9_]{0,39}$/;

function exampleLine(say: string, verb: string, object: string | null | undefined): string {
  return object === undefined ? `  "${say}"` : `  "${say}" → ${JSON.stringify({ verb, object })}`;
}

/** The intent list as the model reads it. */
export function renderIntents(intents: readonly IntentSpec[]): string {
  return intents.map((i) => [`- ${i.name}: ${i.description}`, ...i.examples.map((e) => exampleLine(e.say, i.name, e.object))].join('\n')).join('\n');
}

/** The system prompt: the template with {intents} and {names} filled in. */
export function renderPrompt(template: string, intents: readonly IntentSpec[]): string {
  // One pass, so text inside the rendered list (a description mentioning {names}) is left alone.
  const list = renderIntents(intents);
  const names = [...intents.map((i) => i.name), UNKNOWN_VERB].join(', ');
  return template.replace(/\{(intents|names)\}/g, (_m, k: string) => (k === 'intents' ? list : names));
}

/**
 * Ollama's `format`: a JSON schema the model's output is constrained to. The verb is an enum of
 * the allowed names, so even a 0.5B model cannot spell an intent that does not exist; the reply is
 * still validated, because a server without grammar support (or a proxy) may ignore `format`.
 */
export function proposalFormat(intents: readonly IntentSpec[]): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      verb: { type: 'string', enum: [...intents.map((i) => i.name), UNKNOWN_VERB] },
      object: { type: ['string', 'null'] },
    },
    required: ['verb', 'object'],
  };
}

export interface PromptIssue {
  path: (string | number)[];
  message: string;
}

const PLACEHOLDER = /\{([^{}\s]*)\}/g;
/** A word that looks like an intent name (two or more parts joined by underscores). */
const SNAKE_WORD = /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/g;

/**
 * Everything that would leave the template unable to name an intent, or name one twice: a missing
 * {intents}, an unknown placeholder, an intent name the model cannot write, a reserved or repeated
 * name, an intent written into the template by hand, and question templates with unknown slots.
 */
export function checkPromptAndIntents(template: string, intents: readonly IntentSpec[]): PromptIssue[] {
  const issues: PromptIssue[] = [];
  const used = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  for (const p of new Set(used)) {
    if (!(PROMPT_PLACEHOLDERS as readonly string[]).includes(p)) {
      issues.push({ path: ['prompt'], message: `unknown placeholder {${p}} (known: ${PROMPT_PLACEHOLDERS.map((n) => `{${n}}`).join(', ')})` });
    }
  }
  if (!used.includes('intents')) {
    issues.push({
      path: ['prompt'],
      message: 'must contain {intents}: the intent list is written there, so the model can name every intent in intent.intents',
    });
  }
  const names = new Set<string>();
  intents.forEach((intent, i) => {
    if (!INTENT_NAME.test(intent.name)) {
      const hint = intent.name
        .toLowerCase()
        .trim()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '');
      issues.push({
        path: ['intents', i, 'name'],
        message: `the prompt cannot name "${intent.name}": use lower case letters, digits and underscores, starting with a letter${hint ? ` (e.g. ${hint})` : ''}`,
      });
    } else if (intent.name === UNKNOWN_VERB) {
      issues.push({ path: ['intents', i, 'name'], message: `"${UNKNOWN_VERB}" is what the model answers when nothing fits; it cannot be an intent` });
    } else if (names.has(intent.name)) {
      issues.push({ path: ['intents', i, 'name'], message: `"${intent.name}" is listed twice` });
    }
    names.add(intent.name);
    const texts: [(string | number)[], string | undefined][] = [
      [['ask'], intent.ask],
      [['clarify'], intent.clarify],
      ...Object.entries(intent.askIn ?? {}).map(([code, t]): [(string | number)[], string] => [['askIn', code], t]),
      ...Object.entries(intent.clarifyIn ?? {}).map(([code, t]): [(string | number)[], string] => [['clarifyIn', code], t]),
    ];
    for (const [field, text] of texts) {
      for (const [, slot] of (text ?? '').matchAll(PLACEHOLDER)) {
        if (!(ASK_SLOTS as readonly string[]).includes(slot!)) {
          issues.push({ path: ['intents', i, ...field], message: `unknown slot {${slot}} (known: ${ASK_SLOTS.map((s) => `{${s}}`).join(', ')})` });
        }
      }
    }
  });
  const outside = template.replace(PLACEHOLDER, ' ');
  for (const word of new Set(outside.match(SNAKE_WORD) ?? [])) {
    issues.push({
      path: ['prompt'],
      message: names.has(word)
        ? `names the intent ${word} itself; {intents} already lists every intent, so write intents only under intent.intents`
        : `names "${word}", which is not in intent.intents: the model would propose it and hark would reject it`,
    });
  }
  if (intents.length === 0) issues.push({ path: ['intents'], message: 'must list at least one intent' });
  return issues;
}
