import type { SentenceSpec } from '../grammar.js';
import { expand, parseTemplate } from '../template.js';
import { INTENTS, REPLIES, REQUIRED_RULES, SLOTS } from './catalog.js';
import { readMessage, type Message } from './message.js';
import type { PackData, PackFile } from './schema.js';

/**
 * A pack's parts checked together, once, when it is read: every template parses and uses only
 * rules the pack has and slots hark reads; every intent and every reply hark says is there, and a
 * reply reads only the arguments hark gives it. Each problem names its file and the path inside
 * it (`sentences.yaml: timer.cancel.0: unknown slot {tmer} ...`). Pure.
 */
export interface PackProblem {
  file: PackFile;
  path: (string | number)[];
  message: string;
}

/** The rule as one template: a list of alternatives is "(a|b|c)". */
export function ruleSource(r: string | readonly string[]): string {
  return typeof r === 'string' ? r : r.length === 1 ? r[0]! : `(${r.join('|')})`;
}

export interface CheckedParts {
  rules: Record<string, string>;
  sentences: SentenceSpec[];
  replies: Map<string, Message>;
}

/** `partial`: the pack grows from a fallback, so an intent it does not write is simply not read in it. */
export function checkParts(d: PackData, problems: PackProblem[], partial = false): CheckedParts {
  const slots = new Set<string>(SLOTS);
  const rules: Record<string, string> = {};
  const parsed = new Map<string, ReturnType<typeof parseTemplate>>();
  for (const [name, r] of Object.entries(d.rules)) {
    rules[name] = ruleSource(r);
    const alts = typeof r === 'string' ? [r] : r;
    alts.forEach((alt, i) => {
      try {
        parseTemplate(alt);
      } catch (err) {
        problems.push({ file: 'rules.yaml', path: typeof r === 'string' ? [name] : [name, i], message: `${(err as Error).message} in "${alt}"` });
      }
    });
    try {
      parsed.set(name, parseTemplate(rules[name]!));
    } catch {
      // reported above, alternative by alternative
    }
  }
  const required = Object.keys(d.sentences).some((i) => i.startsWith('list.')) ? [...REQUIRED_RULES, 'the_list'] : REQUIRED_RULES;
  for (const name of required) if (!(name in d.rules)) problems.push({ file: 'rules.yaml', path: [name], message: `is missing: every pack defines <${name}>` });
  for (const [name, node] of parsed) {
    try {
      expand(node, parsed, slots, [name]);
    } catch (err) {
      problems.push({ file: 'rules.yaml', path: [name], message: (err as Error).message });
    }
  }

  const sentences: SentenceSpec[] = [];
  const known = new Set<string>(INTENTS);
  for (const [intent, templates] of Object.entries(d.sentences)) {
    if (!known.has(intent)) {
      problems.push({ file: 'sentences.yaml', path: [intent], message: `unknown intent "${intent}" (intents: ${[...INTENTS].join(', ')})` });
      continue;
    }
    templates.forEach((t, i) => {
      try {
        expand(parseTemplate(t), parsed, slots);
      } catch (err) {
        problems.push({ file: 'sentences.yaml', path: [intent, i], message: `${(err as Error).message} in "${t}"` });
      }
    });
    sentences.push({ intent, templates });
  }
  if (!partial)
    for (const intent of INTENTS)
      if (!(intent in d.sentences)) problems.push({ file: 'sentences.yaml', path: [intent], message: 'is missing: every pack says how each intent is asked' });

  const replies = new Map<string, Message>();
  for (const [key, source] of Object.entries(d.replies)) {
    const allowed = REPLIES[key];
    if (!allowed) {
      problems.push({ file: 'replies.yaml', path: [key], message: `unknown reply "${key}" (replies: ${Object.keys(REPLIES).join(', ')})` });
      continue;
    }
    const m = readMessage(source, allowed, 'this reply');
    if (typeof m === 'string') {
      problems.push({ file: 'replies.yaml', path: [key], message: m });
      continue;
    }
    const known = Object.keys(d.numbers.say?.cases ?? {});
    const strange = [...m.cases].find(([c]) => !known.includes(c));
    if (strange) {
      problems.push({
        file: 'replies.yaml',
        path: [key],
        message: `unknown case "${strange[0]}" in ${strange[1]} (numbers.yaml say.cases: ${known.join(', ') || 'none'})`,
      });
      continue;
    }
    replies.set(key, m);
  }
  for (const key of Object.keys(REPLIES))
    if (!(key in d.replies)) problems.push({ file: 'replies.yaml', path: [key], message: 'is missing: hark says this reply in every language' });

  checkNumbers(d, problems);
  return { rules, sentences, replies };
}

function checkNumbers(d: PackData, problems: PackProblem[]): void {
  const values = d.numbers.values;
  for (const w of Object.keys(d.numbers.connectors)) {
    if (w in values || w in d.numbers.multipliers)
      problems.push({ file: 'numbers.yaml', path: ['connectors', w], message: `"${w}" is a number word too: a connector only joins` });
  }
  for (const w of Object.keys(d.numbers.multipliers)) {
    if (w in values) problems.push({ file: 'numbers.yaml', path: ['multipliers', w], message: `"${w}" is in values too: a word is a value or a multiplier` });
  }
  for (const [w, v] of Object.entries(values)) if (v < 0) problems.push({ file: 'numbers.yaml', path: ['values', w], message: 'must not be negative' });
  for (const [w, v] of Object.entries(d.durations.units))
    if (!(v > 0)) problems.push({ file: 'durations.yaml', path: ['units', w], message: 'must be a positive number of seconds' });
}
