import { z } from 'zod';
import { flag, ms, nonEmpty, section, text } from '../../core/config-fields.js';
import { HA_TARGET } from '../../command/actions/targets/home-assistant.js';

/** Frame kinds that submit text, and so can hand it to Home Assistant. */
const SUBMITTING_KINDS = ['query', 'dictation'];

/**
 * ha.conversation: Home Assistant's conversation agent as the place for what hark's own rules do
 * not handle. Off until `url` is set. The long-lived access token never lives
 * in this file: only in the environment (HARK_HA_TOKEN, in /etc/hark/hark.env).
 */
export const haConversationSection = section({
  /** Home Assistant's base URL, e.g. http://homeassistant.local:8123. Empty: off. */
  url: z
    .string({ error: 'must be an http:// or https:// URL such as http://homeassistant.local:8123' })
    .trim()
    .refine((s) => s === '' || /^https?:\/\/[^/\s]+(\/[^\s]*)?$/.test(s), 'must be an http:// or https:// URL such as http://homeassistant.local:8123')
    .transform((s) => s.replace(/\/+$/, ''))
    .default(''),
  /** The agent that answers (Settings → Voice assistants; e.g. conversation.home_assistant). Empty: Home Assistant's default. */
  agentId: text(''),
  /** The language sent with each request. Empty: Home Assistant's own. */
  language: text('en'),
  /** Hard limit for one request: the person is waiting, and a blocked call must not outlive this. */
  timeoutMs: ms(4000, 500, 30_000),
  /** The conversation_id is kept for follow-ups and forgotten after this long without a request. */
  conversationIdleMs: ms(300_000, 1000, 3_600_000),
  /**
   * After a reply that asks something back (continue_conversation), the next submission of the
   * reopened frame within this long goes straight to Home Assistant (past the intent pass).
   */
  followUpMs: ms(15_000, 1000, 120_000),
  /**
   * In always-listen mode everything said is gathered by the query frame, most of it not meant for
   * anyone: false (the default) keeps it with the frame's own target (the submissions file), and
   * only an answer Home Assistant asked for goes to it. True sends it all.
   */
  inAlwaysListen: flag(false),
  /** Frames whose submissions go to Home Assistant (after the intent pass, when it runs). */
  frames: z
    .array(z.string({ error: 'must be a frame name' }).regex(/^[a-z][a-z0-9-]*$/, 'must be a frame name'), { error: 'must be a list of frame names' })
    .default(['query']),
  /** Say the notice out loud when Home Assistant fails (the log line is always written). */
  speakFailures: flag(true),
  /** Said when Home Assistant cannot be reached, times out or fails (HTTP 5xx). */
  unavailable: nonEmpty("Home Assistant isn't answering."),
  /** Said when Home Assistant refuses the token (HTTP 401). */
  refused: nonEmpty('Home Assistant refused my access token.'),
  /** Said when the reply cannot be read. */
  garbled: nonEmpty("I couldn't understand Home Assistant's answer."),
});

export type HaConversationConfig = z.infer<typeof haConversationSection>;

/**
 * Cross-section checks (called from the top-level schema): the frames named exist and submit text,
 * and no configured target takes the name the conversation agent uses.
 */
export function checkHaConversationConfig(
  cfg: { ha: { conversation: HaConversationConfig }; router: { frames: Record<string, { kind: string }> }; actions: { targets: Record<string, unknown> } },
  ctx: z.core.$RefinementCtx,
): void {
  const c = cfg.ha.conversation;
  c.frames.forEach((name, i) => {
    const frame = cfg.router.frames[name];
    if (!frame)
      ctx.addIssue({
        code: 'custom',
        path: ['ha', 'conversation', 'frames', i],
        message: `unknown frame "${name}" (router.frames has: ${Object.keys(cfg.router.frames).join(', ')})`,
      });
    else if (!SUBMITTING_KINDS.includes(frame.kind))
      ctx.addIssue({
        code: 'custom',
        path: ['ha', 'conversation', 'frames', i],
        message: `a ${frame.kind} frame submits no text; only ${SUBMITTING_KINDS.join(' and ')} frames can`,
      });
  });
  if (HA_TARGET in cfg.actions.targets) {
    ctx.addIssue({
      code: 'custom',
      path: ['actions', 'targets', HA_TARGET],
      message: `the target name "${HA_TARGET}" is Home Assistant's conversation agent's; name this target something else`,
    });
  }
}
