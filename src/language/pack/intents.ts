import { z } from 'zod';
import { IMPERATIVES, QUESTION_TYPES } from '../intent-types.js';
import { expand, parseTemplate } from '../template.js';

/**
 * intents.yaml: the words of the rule-based intent detector in a language (intent-rules.ts reads
 * them): the imperatives said to hark ("stop", "repite", "noch mal"), what makes words a question
 * ("qué", "wie", "what is"), the kinds of question, and the polite words around an imperative.
 * Each entry is a template (template.ts syntax) with the slots below; a template with a slot hark
 * does not read, or one that does not parse, is refused with its file and path when hark starts.
 */

/** What the detector's templates may read, and the intent slot each fills. */
export const INTENT_TEMPLATE_SLOTS = {
  /** A number, kept as "number 3" ("repeat number 3"). */
  number: 'reference',
  /** A number, kept as the count ("generate 20 questions"). */
  count: 'count',
  /** One of words.yaml's `last` words, as said ("repeat the last one"). */
  last: 'reference',
  /** The rest of the words, as said ("how to fold egg whites"). */
  topic: 'topic',
  /** The rest of the words without a leading article (`articles`): "what is a roux" → roux. */
  thing: 'topic',
  /** Any words, kept nowhere ("make some questions"). */
  gap: '',
} as const;

export type IntentTemplateSlot = keyof typeof INTENT_TEMPLATE_SLOTS;

const SLOT_TYPES: ReadonlySet<string> = new Set(Object.keys(INTENT_TEMPLATE_SLOTS));

const word = z.string({ error: 'must be a word or phrase' }).trim().min(1, 'must not be empty');
const words = z.array(word, { error: 'must be a list of words or phrases' });
const template = z
  .string({ error: 'must be a template, such as "(repeat|say) [the] {last}"' })
  .trim()
  .min(1, 'must not be empty')
  .superRefine((t, ctx) => {
    try {
      expand(parseTemplate(t), new Map(), SLOT_TYPES);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `${(err as Error).message} in "${t}"` });
    }
  });
const templates = z.array(template, { error: 'must be a list of templates' }).default([]);

/**
 * Where a template must match: from the first word (`start`: "stop …"), anywhere (`any`: "… start
 * over"), or as all that was said (`whole`: a Spanish "para" alone is a stop, "para el jueves" is not).
 */
const place = z.strictObject({ whole: templates, start: templates, any: templates }, { error: 'must have whole, start and/or any: lists of templates' });

/** name → place, for the names hark knows; the file's order is the order they are tried in. */
function named<N extends string>(names: readonly N[], what: string) {
  return z
    .record(word, place, { error: `must map each ${what} to its templates` })
    .superRefine((r, ctx) => {
      for (const k of Object.keys(r))
        if (!names.includes(k as N)) ctx.addIssue({ code: 'custom', path: [k], message: `unknown ${what} "${k}" (must be one of ${names.join(', ')})` });
    })
    .transform((r) => r as Partial<Record<N, z.infer<typeof place>>>);
}

export const packIntents = z.strictObject({
  /** Said before an imperative and dropped ("could you repeat that"), and after it ("… please"). */
  polite: z.strictObject({ start: words, end: words.default([]) }),
  /** Dropped from the start of a {thing} ("what is A roux"). */
  articles: words.default([]),
  /** Each imperative's templates; tried in the file's order, the first that matches wins. */
  imperatives: named(IMPERATIVES, 'imperative'),
  /** What makes the words a question (a question mark does too, in every language). */
  question: place,
  /** The kinds of question, in the file's order; a question none of them takes is just a question. */
  questions: named(QUESTION_TYPES, 'kind of question'),
});

export type PackIntents = z.infer<typeof packIntents>;
