import { z } from 'zod';
import { ms, oneOf, section } from '../core/config-fields.js';
import { MODES } from '../core/effects.js';
import { parseFrames, parseVoices, type SpecIssue } from './parse-spec.js';
import type { FramesSpec, VoiceSpec } from './spec.js';
import { englishFillers } from '../language/pack/english.js';

function report(ctx: z.core.$RefinementCtx, issues: SpecIssue[]): void {
  for (const i of issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path });
}

/**
 * router: the frame stack. `frames` is validated by hand (router/parse-spec.ts) so that every
 * problem names its rule: router.frames.query.rules.2.pattern: invalid regular expression: ...
 */
export const routerSection = section({
  /** Mode at start-up: wake-word (say "computer" first) or always-listen. */
  mode: oneOf(MODES as unknown as readonly ['wake-word', 'always-listen'], 'wake-word'),
  /**
   * After hark acts on a command, this long during which the person may go on without the wake
   * word ("and two pints of milk", "make it ten minutes"); the LED shows it. 0 turns it off.
   */
  followUpMs: ms(6000, 0, 60_000),
  /** Words that alone are not "real words" for a catch-all rule. */
  fillers: z.array(z.string({ error: 'must be a word' }).min(1, 'must not be empty'), { error: 'must be a list of words' }).default([...englishFillers()]),
  /** Voices the picker offers: an id, or {id, say: [names people say]}. */
  voices: z
    .unknown()
    .optional()
    .transform((raw, ctx): VoiceSpec[] => {
      const { voices, issues } = parseVoices(raw);
      report(ctx, issues);
      return voices;
    }),
  /** Frames by name; a default frame named here is overlaid, its `rules` replaced if given. */
  frames: z
    .unknown()
    .optional()
    .transform((raw, ctx): FramesSpec => {
      const { frames, issues } = parseFrames(raw);
      report(ctx, issues);
      return frames;
    }),
});

export type RouterConfig = z.infer<typeof routerSection>;

/**
 * Cross-section check (called from the top-level schema): every target a frame or a forward names
 * must exist in actions.targets.
 */
export function checkRouterTargets(
  cfg: { router: RouterConfig; actions: { targets: Record<string, unknown>; forward: Record<string, string[]> } },
  ctx: z.core.$RefinementCtx,
): void {
  const known = Object.keys(cfg.actions.targets);
  for (const [name, frame] of Object.entries(cfg.router.frames)) {
    if (frame.target !== undefined && !known.includes(frame.target)) {
      ctx.addIssue({
        code: 'custom',
        path: ['router', 'frames', name, 'target'],
        message: `unknown target "${frame.target}" (actions.targets has: ${known.join(', ')})`,
      });
    }
  }
  for (const [action, targets] of Object.entries(cfg.actions.forward)) {
    targets.forEach((t, i) => {
      if (!known.includes(t))
        ctx.addIssue({ code: 'custom', path: ['actions', 'forward', action, i], message: `unknown target "${t}" (actions.targets has: ${known.join(', ')})` });
    });
  }
}
