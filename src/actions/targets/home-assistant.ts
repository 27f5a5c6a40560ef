import type { Delivery, Target } from './target.js';

/** The target name frames' submissions are routed to while the conversation agent is configured (ha.conversation.frames). */
export const HA_TARGET = 'home-assistant';

/** What carries a submission to Home Assistant's conversation agent (src/ha/conversation/agent.ts). */
export interface ConversationSink {
  /** One line for people: "Home Assistant http://ha:8123 (agent conversation.home_assistant)". */
  describe(): string;
  /** Resolves with a short detail once the reply is spoken; rejects with a DeliveryError naming what failed (the notice already said). */
  converse(d: Delivery): Promise<string>;
}

/**
 * Hands a frame's submitted text to Home Assistant's conversation agent: what hark's own rules do
 * not handle goes to the house. Resolves once the reply has been handed to hark's voice.
 */
export class HomeAssistantTarget implements Target {
  readonly type = 'home-assistant';
  constructor(readonly name: string, private readonly sink: ConversationSink) {}
  describe(): string {
    return this.sink.describe();
  }
  deliver(d: Delivery): Promise<string | undefined> {
    return this.sink.converse(d);
  }
}
