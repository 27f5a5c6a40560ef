import { z } from 'zod';
import { between, flag, intBetween, ms, nonEmpty } from '../core/config-fields.js';
import { INTENT_ACTIONS } from './intent-actions.js';
import { DEFAULT_INTENTS, DEFAULT_PROMPT, defaultAsk, type IntentSpec } from './intent-spec.js';
import { checkPromptAndIntents } from './prompt.js';
import { INTENT_TARGET } from '../command/actions/targets/intent.js';

const ACTION_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;
/** hark's own actions (actions/handlers.ts) besides the intent pass's. */
const BUILT_IN_ACTIONS = ['stop', 'repeat', 'timer.set', 'timer.cancel', 'timer.status', 'timer.done'];
/** Frame kinds that submit text, and so can hand it to the intent pass. */
const SUBMITTING_KINDS = ['query', 'dictation'];

const text = (what: string) =>
  z
    .string({ error: `must be ${what}` })
    .trim()
    .min(1, `must be ${what}`);

const example = z
  .union([text('an utterance'), z.strictObject({ say: text('an utterance'), object: z.string({ error: 'must be text or null' }).nullable() })], {
    error: 'must be an utterance, or {say: utterance, object: what the model should answer}',
  })
  .transform((e) => (typeof e === 'string' ? { say: e } : e));

const intentSpec = z
  .strictObject({
    /** What the model answers in "verb" (checked below, with the prompt). */
    name: z.string({ error: 'must be a name such as add_to_list' }),
    description: text('one line telling the model what the intent is and what its object holds'),
    examples: z.array(example, { error: 'must be a list of example utterances' }).default([]),
    action: z.string({ error: 'must be an action name' }).regex(ACTION_NAME, 'must be an action name such as list.add (lower case, dots between parts)'),
    /** The yes/no question; default the English pack's for this name, else "<name in words> {object}?" (a request in another language: that pack's, where it has one). */
    ask: text('the question hark asks, e.g. "Add {object} to the {list} list?"').optional(),
    clarify: text('what hark asks when the object is missing').optional(),
    /** The question and the clarification in another of the device's languages, by its code ({es: "¿Añado {object} a la lista {list}?"}): a request said in it is asked so. */
    askIn: z
      .record(z.string().regex(/^[a-z]{2,3}(-[a-z0-9]+)?$/, 'must be a language code such as es'), text('the question in that language'), {
        error: 'must map language codes to questions',
      })
      .optional(),
    clarifyIn: z
      .record(z.string().regex(/^[a-z]{2,3}(-[a-z0-9]+)?$/, 'must be a language code such as es'), text('the clarification in that language'), {
        error: 'must map language codes to questions',
      })
      .optional(),
    needsObject: flag(true),
    list: text('a list name').optional(),
  })
  .transform((i): IntentSpec => {
    const { ask, clarify, list, ...rest } = i;
    return {
      ...rest,
      ask: ask ?? defaultAsk(i.name),
      ...(clarify ? { clarify } : {}),
      ...(list ? { list } : {}),
    };
  });

/**
 * intent: the local Ollama intent pass. The prompt is a template and `intents` the list
 * it is generated from; a new intent is one entry here and nothing else. Giving `intents` replaces
 * the default list (`hark config` prints it, to copy from).
 */
export const intentSection = z
  .strictObject({
    /** Run the pass (the daemon). `hark simulate` runs it when given --ollama. */
    enabled: flag(true),
    /** Ollama's address; keep it on 127.0.0.1 on the Pi. */
    host: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL such as http://127.0.0.1:11434' }).default('http://127.0.0.1:11434'),
    /** A model `ollama pull` has fetched; small instruct models answer in well under a second on a Pi 5. */
    model: nonEmpty('qwen2.5:0.5b-instruct'),
    /** How long Ollama keeps the model loaded after a request ("30m", "1h", or -1 for always). */
    keepAlive: z
      .preprocess(
        (v) => (typeof v === 'number' ? String(v) : v),
        z
          .string({ error: 'must be a duration such as 30m or 1h, or -1' })
          .regex(/^(?:-?\d+|(?:\d+(?:\.\d+)?(?:ms|s|m|h))+)$/, 'must be a duration such as 30m or 1h, or -1 (keep loaded)'),
      )
      .default('30m'),
    /** Hard limit for one proposal, retries included: the person is waiting. */
    timeoutMs: ms(6000, 100, 60_000),
    retries: intBetween(0, 5, 2),
    backoffMs: ms(250, 0, 10_000),
    /** Load the model at start, so the first request does not pay for it. */
    warmUp: flag(true),
    warmUpTimeoutMs: ms(120_000, 1000, 600_000),
    /** Failed requests in a row that stop hark asking for breakerOpenMs. */
    breakerFailures: intBetween(1, 20, 1),
    breakerOpenMs: ms(30_000, 1000, 3_600_000),
    /** Turns of conversation sent with each request (wake-word mode). */
    memoryTurns: intBetween(1, 50, 5),
    /** The conversation is forgotten after this long without a word. */
    memoryIdleMs: ms(120_000, 1000, 3_600_000),
    /** Frames whose submissions go to the pass while it runs (their own target otherwise, and during an outage). */
    frames: z
      .array(z.string({ error: 'must be a frame name' }).regex(/^[a-z][a-z0-9-]*$/, 'must be a frame name'), { error: 'must be a list of frame names' })
      .default(['query']),
    /** Said when the model's answer cannot be used (wake-word mode; always-listen stays quiet); default the pack's `unclear`, in the request's language. */
    clarify: text('what hark says when the answer cannot be used').optional(),
    /** Said at the first failure of an outage; default the pack's `unavailable`, in the request's language. */
    unavailable: text('what hark says when the intent model cannot be reached').optional(),
    /** Said for every later request in the same outage (wake-word mode): short, but never silence; default the pack's `still_unavailable`. */
    stillUnavailable: text('what hark says while the intent model is still away').optional(),
    /** Always-listen mode: the two-buffer window, deduplication and rate limit. */
    listen: z
      .strictObject({
        bufferMaxChars: intBetween(50, 10_000, 800),
        contextChars: intBetween(0, 20_000, 1500),
        triggerTimeoutMs: ms(3000, 100, 60_000),
        rateLimitMs: ms(2000, 0, 60_000),
        triggerOnQuestionMark: flag(true),
        triggerOnPause: flag(true),
        dedupWindowMs: ms(30_000, 0, 3_600_000),
        dedupThreshold: between(0, 1, 0.7),
        dedupMax: intBetween(1, 1000, 50),
      })
      .prefault({} as never),
    /** The system prompt; {intents} is replaced by the list below, {names} by the bare names. */
    prompt: nonEmpty(DEFAULT_PROMPT),
    intents: z.array(intentSpec, { error: 'must be a list of intents (name, description, examples, action)' }).default(DEFAULT_INTENTS),
  })
  .superRefine((cfg, ctx) => {
    for (const issue of checkPromptAndIntents(cfg.prompt, cfg.intents)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  })
  .prefault({} as never);

export type IntentConfig = z.infer<typeof intentSection>;

/**
 * Cross-section checks (called from the top-level schema): the frames named exist and submit
 * text, every intent's action is carried out by hark or forwarded to a target, and no target
 * takes the name the pass uses.
 */
export function checkIntentConfig(
  cfg: {
    intent: IntentConfig;
    router: { frames: Record<string, { kind: string }> };
    actions: { targets: Record<string, unknown>; forward: Record<string, string[]> };
  },
  ctx: z.core.$RefinementCtx,
): void {
  cfg.intent.frames.forEach((name, i) => {
    const frame = cfg.router.frames[name];
    if (!frame)
      ctx.addIssue({
        code: 'custom',
        path: ['intent', 'frames', i],
        message: `unknown frame "${name}" (router.frames has: ${Object.keys(cfg.router.frames).join(', ')})`,
      });
    else if (!SUBMITTING_KINDS.includes(frame.kind))
      ctx.addIssue({
        code: 'custom',
        path: ['intent', 'frames', i],
        message: `${/^[aeiou]/.test(frame.kind) ? 'an' : 'a'} ${frame.kind} frame submits no text; only ${SUBMITTING_KINDS.join(' and ')} frames can`,
      });
  });
  const handled = new Set([...BUILT_IN_ACTIONS, ...INTENT_ACTIONS, ...Object.keys(cfg.actions.forward)]);
  cfg.intent.intents.forEach((intent, i) => {
    if (!handled.has(intent.action)) {
      ctx.addIssue({
        code: 'custom',
        path: ['intent', 'intents', i, 'action'],
        message: `nothing carries out "${intent.action}": use one of hark's (${[...BUILT_IN_ACTIONS.filter((a) => a !== 'timer.done'), ...INTENT_ACTIONS].join(', ')}) or forward it to a target (actions.forward.${intent.action})`,
      });
    }
  });
  if (INTENT_TARGET in cfg.actions.targets) {
    ctx.addIssue({
      code: 'custom',
      path: ['actions', 'targets', INTENT_TARGET],
      message: `the target name "${INTENT_TARGET}" is the intent pass's; name this target something else`,
    });
  }
}
