import { z } from 'zod';
import { readMessage, type Message } from './message.js';

/**
 * proposals.yaml: the words of the intent pass in a language, for what a language model proposed:
 * each intent's yes/no question (`ask`, with the {slots} below) and what hark asks when a part is
 * missing (`clarify`), what it says when the model's answer cannot be used (`unclear`), and how a
 * timer is named inside a question (`a_timer`: "a pasta timer", "un temporizador de pasta";
 * `the_timer`: "the rice timer"). Every built-in intent is asked in every whole pack; an intent a
 * config adds may be asked here too, by its name. Pure.
 */

/** The intents hark ships (the intent pass's defaults): every pack asks each of them. */
export const PROPOSAL_INTENTS = [
  'set_timer',
  'cancel_timer',
  'add_to_list',
  'remove_from_list',
  'read_list',
  'inventory_count',
  'locate_item',
  'report_issue',
  'call_manager',
] as const;

/** Slots a question may use (the intent pass's proposal-slots.ts fills each). */
export const ASK_SLOTS = ['object', 'item', 'quantity', 'unit', 'list', 'duration', 'timer', 'theTimer'] as const;

/** The unknown {slot} in a question, or null. */
export function unknownAskSlot(template: string): string | null {
  for (const m of template.matchAll(/\{(\w*)\}/g)) if (!(ASK_SLOTS as readonly string[]).includes(m[1]!)) return m[1]!;
  return null;
}

const text = (what: string) =>
  z
    .string({ error: (i) => (i.input === undefined ? 'is missing: every pack says it' : `must be ${what}`) })
    .trim()
    .min(1, 'must not be empty');
const question = text('a question, such as "Add {object} to the {list} list?"').superRefine((t, ctx) => {
  const slot = unknownAskSlot(t);
  if (slot !== null) ctx.addIssue({ code: 'custom', message: `unknown slot {${slot}} (slots: ${ASK_SLOTS.map((s) => `{${s}}`).join(', ')})` });
});
const intentName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'must be an intent name such as add_to_list');

/** intent → text: each built-in intent required (named when missing), a config's own allowed. */
function perIntent(value: z.ZodType<string>, what: string) {
  return z.record(intentName, value, { error: `must map intent names to ${what}` }).superRefine((r, ctx) => {
    for (const name of PROPOSAL_INTENTS)
      if (!(name in r)) ctx.addIssue({ code: 'custom', path: [name], message: `is missing: every pack writes the ${what} of each built-in intent` });
  });
}

/** A message of the pack, such as `example`, reading only the slots hark gives it (`allowed`). */
const message = (example: string, allowed: readonly string[]) =>
  text(`a message, such as "${example}"`).transform((source, ctx): Message => {
    const m = readMessage(source, allowed, 'this');
    if (typeof m !== 'string') return m;
    ctx.addIssue({ code: 'custom', message: m });
    return z.NEVER;
  });

/** A timer's name inside a question: a message reading only {name} (none: the timer has none). */
const timerPhrase = message('{name, select, none {a timer} other {a {name} timer}}', ['name']);

/** What the intent pass's own actions say once done, with the arguments each is given. */
export const PROPOSAL_SAID = {
  counted: ['what'],
  located: ['item', 'where'],
  not_located: ['item'],
  reported: ['what'],
  calling: [],
  no_pager: [],
} as const satisfies Record<string, readonly string[]>;

const saidMessage = (args: readonly string[]) => message('Counted {what}.', args);

export const packProposals = z.strictObject({
  ask: perIntent(question, 'questions'),
  clarify: perIntent(text('a question, such as "For how long?"'), 'clarifications'),
  unclear: text('what hark says when the answer cannot be used'),
  /** Said at the first failure of an outage of the intent model, and for each later request in it. */
  unavailable: text('what hark says when the intent model cannot be reached'),
  still_unavailable: text('what hark says while the intent model is still away'),
  a_timer: timerPhrase,
  the_timer: timerPhrase,
  /** What the pass's own actions say (inventory.count, item.locate, issue.report, manager.call). */
  said: z.strictObject(
    Object.fromEntries(Object.entries(PROPOSAL_SAID).map(([k, args]) => [k, saidMessage(args)])) as Record<
      keyof typeof PROPOSAL_SAID,
      ReturnType<typeof saidMessage>
    >,
  ),
});

export type PackProposals = z.infer<typeof packProposals>;
