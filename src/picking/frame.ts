import type { CompiledRule } from '../command/compile.js';
import { Frame, type FrameHost, type VerbContext } from '../command/frame.js';
import type { FrameSpec } from '../command/spec.js';
import type { PickDialogue } from './dialogue.js';

export const PICKING_FRAME = 'picking';

/**
 * The frame stack only knows kinds for the frames it makes from config; this one is made by picking.
 * "inventory" is the nearest kind (exclusive, kept through pauses of any length) and nothing but
 * error messages reads a frame's kind once it is open.
 */
const SPEC: FrameSpec = { kind: 'inventory', rules: [] };

/**
 * One rule: the words the dialogue's step expects, or one of its commands. It has no check-parent,
 * so the frame is exclusive: anything else — a colleague's talk, the PA — is reported `ignored` by
 * the router's walk, never acted on, and never cuts hark off (the interruption filter asks the same
 * rule).
 */
function heardRule(dialogue: PickDialogue): CompiledRule {
  return {
    index: 0,
    kind: 'pattern',
    when: undefined,
    verbs: [{ v: 'op', op: 'heard' }],
    match: (input) => (dialogue.takes(input.said) ? {} : null),
    phrases: undefined,
    literalStart: undefined,
    classifier: undefined,
    button: undefined,
  };
}

/** The picking dialogue on the router's stack: the router hears, the dialogue decides. */
export class PickingFrame extends Frame {
  constructor(
    host: FrameHost,
    private readonly dialogue: PickDialogue,
  ) {
    super(PICKING_FRAME, SPEC, [heardRule(dialogue)], host);
  }

  override op(op: string, ctx: VerbContext): void {
    if (op === 'heard') return this.dialogue.hear(ctx.said, ctx.utterance.id);
    return super.op(op, ctx);
  }
}
