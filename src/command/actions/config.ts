import { z } from 'zod';
import { intBetween, ms, nonEmpty, section } from '../../core/config-fields.js';
import { DEFAULT_ACTION_POLICY } from './action-router.js';

const ACTION_NAME = /^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$/;
const actionName = z.string({ error: 'must be an action name' }).regex(ACTION_NAME, 'must be an action name such as repeat or timer.done');

const fileTarget = z.strictObject({
  type: z.literal('file'),
  /** Relative paths are under actions.dataDir. */
  path: nonEmpty('submissions.jsonl'),
});
const webhookTarget = z.strictObject({
  type: z.literal('webhook'),
  url: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }),
  timeoutMs: ms(3000, 50, 60_000),
  retries: intBetween(0, 10, 2),
  backoffMs: ms(500, 0, 60_000),
  headers: z.record(z.string(), z.string({ error: 'must be a string' })).optional(),
});
const speakTarget = z.strictObject({ type: z.literal('speak') });

const target = z.discriminatedUnion('type', [fileTarget, webhookTarget, speakTarget], {
  error: 'must be file (with path), webhook (with url) or speak',
});
export type TargetConfig = z.infer<typeof target>;

export const DEFAULT_TARGETS: Record<string, TargetConfig> = {
  file: { type: 'file', path: 'submissions.jsonl' },
  inventory: { type: 'file', path: 'inventory.jsonl' },
  speak: { type: 'speak' },
};

/**
 * actions: the action router (cooldowns, last-wins) and the targets frames submit to.
 * Maps given here are laid over the defaults, so naming one cooldown keeps the others.
 */
export const actionsSection = section({
  /** Last-wins window for the conflicting actions below. 0 fires everything at once. */
  conflictWindowMs: ms(DEFAULT_ACTION_POLICY.conflictWindowMs, 0, 10_000),
  cooldownsMs: z
    .record(actionName, ms(0, 0, 600_000))
    .default({})
    .transform((given) => ({ ...DEFAULT_ACTION_POLICY.cooldownsMs, ...given })),
  lastWins: z.array(actionName).default([...DEFAULT_ACTION_POLICY.lastWins]),
  immediate: z.array(actionName).default([...DEFAULT_ACTION_POLICY.immediate]),
  /** Where file targets with relative paths write (the daemon's state directory). */
  dataDir: nonEmpty('/var/lib/hark'),
  targets: z
    .record(z.string().regex(/^[a-z][a-z0-9-]*$/, 'a target name is lower case letters, digits and hyphens'), target)
    .default({})
    .transform((given) => ({ ...DEFAULT_TARGETS, ...given })),
  /** Kitchen timers: a due timer rings (earcon and name) every ringEveryMs until stopped, or until giveUpMs (logged). */
  timers: section({
    ringEveryMs: ms(6000, 2000, 60_000),
    giveUpMs: ms(300_000, 10_000, 3_600_000),
  }),
  /** Fired actions also sent to targets: {"timer.done": [kitchen-display]}. */
  forward: z.record(actionName, z.array(z.string({ error: 'must name a target' }))).default({}),
});

export type ActionsConfig = z.infer<typeof actionsSection>;
