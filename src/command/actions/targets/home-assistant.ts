import type { Delivery, Target } from './target.js';

/** The target name frames' submissions are routed to while the conversation agent is configured (ha.conversation.frames). */
export const HA_TARGET = 'home-assistant';

/** What carries a submission to Home Assistant's conversation agent (src/ha/conversation/agent.ts). */
export interface ConversationSink {
  /** One line for people: "Home Assistant http://ha:8123 (agent conversation.home_assistant)". */
  describe(): string;
  /** Resolves with a short detail once the reply is spoken; rejects with a DeliveryError naming what failed (the notice already said). */
  converse(d: Delivery): Promise<string>;
  /** Why this submission is not for Home Assistant now (always-listen chatter), or null. */
  declines(d: Delivery): string | null;
}

/**
 * Hands a frame's submitted text to Home Assistant's conversation agent: what hark's own rules do
 * not handle goes to the house. Resolves once the reply has been handed to hark's voice.
 */
export class HomeAssistantTarget implements Target {
  readonly type = 'home-assistant';
  constructor(
    readonly name: string,
    private readonly sink: ConversationSink,
    /** The frame's own target before it was pointed here: it keeps what Home Assistant declines. */
    private readonly fallback: (frame: string | undefined) => Target | undefined = () => undefined,
  ) {}
  describe(): string {
    return this.sink.describe();
  }
  async deliver(d: Delivery): Promise<string | undefined> {
    const why = this.sink.declines(d);
    if (!why) return this.sink.converse(d);
    const other = this.fallback(d.frame);
    if (!other) return `not sent to Home Assistant: ${why}`;
    return `not sent to Home Assistant (${why}); kept in ${other.describe()}: ${(await other.deliver(d)) ?? 'delivered'}`;
  }
}
