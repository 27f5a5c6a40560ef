import { DEFAULT_LIST } from '../language/list-language.js';
import { english } from '../language/pack/english.js';
import { ASK_SLOTS } from '../language/pack/proposals.js';

/**
 * The intents the Ollama pass may propose (the allowed-intent list), as they are written in
 * YAML under intent.intents. The system prompt is generated from this list (prompt.ts), so adding
 * an intent here is the only edit: the model is told about it and the validator accepts it.
 */
export interface IntentExample {
  /** What a person says. */
  say: string;
  /**
   * The object the model should answer with (null: none), shown to the model as a worked example.
   * Left out, the example is shown as an utterance only.
   */
  object?: string | null;
}

export interface IntentSpec {
  /** What the model answers in "verb": lower case, digits and underscores. */
  name: string;
  /** One line for the model: what the intent is and what its object holds. */
  description: string;
  examples: IntentExample[];
  /** The action a confirmed proposal runs (timer.set, list.add, or one forwarded to a target). */
  action: string;
  /**
   * The yes/no question, with {slots}: "Add {object} to the {list} list?". Left out in the config,
   * it is the English pack's for this intent's name (proposals.yaml: every built-in intent has one),
   * else "<name in words> {object}?"; either way a request is then asked in its own language's pack
   * words where that pack has some for the name (questions.ts).
   */
  ask: string;
  /** Said when the object (or a slot the action needs) is missing: "What should I add?" (default: the pack's, else intent.clarify). */
  clarify?: string;
  /** `ask` and `clarify` in another language, by its code: a request said in it is asked so (before the pack's). */
  askIn?: Record<string, string>;
  clarifyIn?: Record<string, string>;
  /** False when the intent makes sense without an object ("call the manager"). */
  needsObject: boolean;
  /** List actions: the list used when none is named ("add milk" → the shopping list, as the rules' default). */
  list?: string;
}

/** Slots a question template may use (see proposal-slots.ts for what each holds). */
export { ASK_SLOTS };

/** The verb the model uses for "none of these"; reserved, so no intent may be called this. */
export const UNKNOWN_VERB = 'unknown';

/**
 * The prompt template. {intents} becomes the generated list (name, description, examples with
 * their JSON answer); {names} the bare names. The six rules the model is held to, for spoken
 * requests (docs/decisions.md#the-intent-list-is-written-once).
 */
export const DEFAULT_PROMPT = `You read requests spoken to a voice assistant in a busy kitchen or warehouse, transcribed by speech recognition.
Answer with one JSON object {"verb": ..., "object": ...} and nothing else.

Rules:
1. Use the whole conversation to resolve words such as "it", "that one" or "the milk".
2. "verb" must be one of the intent names listed below, written exactly as listed.
3. "object" is what the request is about, in the speaker's words, with numbers written as digits ("3 cases of milk"); null if there is none.
4. If the request is unclear or is none of these intents, answer {"verb": "unknown", "object": null}.
5. Focus on the most recent message; earlier ones are context.
6. Do not invent information the speaker did not give.

Intents:
{intents}`;

const ex = (say: string, object: string | null): IntentExample => ({ say, object });

/** The question a config's intent has when it writes none: the English pack's for its name, else its name in words. */
export function defaultAsk(name: string): string {
  const pack = english().pack.proposals.ask[name];
  if (pack !== undefined) return pack;
  const words = name.replace(/_/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} {object}?`;
}

/** A built-in intent: its question and clarification are the English pack's, read when first asked for. */
const builtIn = (spec: Omit<IntentSpec, 'ask' | 'clarify'>): IntentSpec => ({
  ...spec,
  get ask() {
    return defaultAsk(spec.name);
  },
  get clarify() {
    return english().pack.proposals.clarify[spec.name];
  },
});

/**
 * Kitchen and warehouse defaults, each mapped to an action hark carries out itself. Their questions
 * are in each language pack (packs/<lang>/proposals.yaml), asked in the language of the request.
 */
export const DEFAULT_INTENTS: IntentSpec[] = [
  builtIn({
    name: 'set_timer',
    description: 'start a kitchen timer; the object is how long, with the name of the timer if one was given',
    examples: [ex('time the pasta for eight minutes', 'pasta for 8 minutes'), ex('give me ten minutes on the clock', '10 minutes')],
    action: 'timer.set',
    needsObject: true,
  }),
  builtIn({
    name: 'cancel_timer',
    description: 'stop a running timer; the object is the name of the timer, or null for the latest one',
    examples: [ex('kill the rice timer', 'rice'), ex('never mind the timer', null)],
    action: 'timer.cancel',
    needsObject: false,
  }),
  builtIn({
    name: 'add_to_list',
    description: 'put an item on a list (the shopping list unless another list is named); the object is the item with its quantity',
    examples: [ex('add three cases of milk to the order list', '3 cases of milk'), ex("we're out of napkins", 'napkins')],
    action: 'list.add',
    needsObject: true,
    list: DEFAULT_LIST,
  }),
  builtIn({
    name: 'remove_from_list',
    description: 'take an item off a list; the object is the item',
    examples: [ex('take the napkins off the order list', 'napkins'), ex('scratch the milk, we have enough', 'milk')],
    action: 'list.remove',
    needsObject: true,
    list: DEFAULT_LIST,
  }),
  builtIn({
    name: 'read_list',
    description: 'read a list aloud; the object is the name of the list, or null for the shopping list',
    examples: [ex("what's on the order list", 'order list'), ex('read me the prep list', 'prep list')],
    action: 'list.read',
    needsObject: false,
    list: DEFAULT_LIST,
  }),
  builtIn({
    name: 'inventory_count',
    description: 'record a stock count; the object is the item and how many were counted',
    examples: [ex('we have twelve boxes of gloves', '12 boxes of gloves'), ex('count forty pallets of water in bay two', '40 pallets of water')],
    action: 'inventory.count',
    needsObject: true,
  }),
  builtIn({
    name: 'locate_item',
    description: 'find where an item is kept; the object is the item',
    examples: [ex('where are the paper towels', 'paper towels'), ex('which aisle has the flour', 'flour')],
    action: 'item.locate',
    needsObject: true,
  }),
  builtIn({
    name: 'report_issue',
    description: "report a problem with equipment, stock or safety; the object is the problem in the speaker's words",
    examples: [ex('the walk-in is at ten degrees', 'the walk-in is at 10 degrees'), ex('forklift two is leaking oil', 'forklift 2 is leaking oil')],
    action: 'issue.report',
    needsObject: true,
  }),
  builtIn({
    name: 'call_manager',
    description: 'ask for a manager to come; the object is where or why, or null',
    examples: [ex('get me a manager', null), ex('I need a manager at dock three', 'dock 3')],
    action: 'manager.call',
    needsObject: false,
  }),
];
