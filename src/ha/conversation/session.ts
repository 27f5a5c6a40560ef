import type { Clock } from '../../core/clock.js';

/**
 * The conversation hark holds with Home Assistant: its conversation_id, kept for follow-ups and
 * forgotten after a quiet spell, and whether the last reply asked something back. Pure: time
 * comes from the Clock.
 */
export class ConversationSession {
  private conversationId: string | undefined;
  private lastAt = 0;
  private answerBy: number | undefined;

  constructor(private readonly opts: { clock: Clock; idleMs: number; followUpMs: number }) {}

  /** The id to continue with, or undefined when there is none or it has gone quiet too long. */
  id(): string | undefined {
    if (this.conversationId !== undefined && this.opts.clock.now() - this.lastAt > this.opts.idleMs) this.forget();
    return this.conversationId;
  }

  /**
   * True while Home Assistant waits for the answer to its question (continue_conversation), for
   * followUpMs after the reply: the next submission is that answer, and goes straight to it.
   */
  get awaitingAnswer(): boolean {
    if (this.answerBy !== undefined && this.opts.clock.now() > this.answerBy) this.answerBy = undefined;
    return this.answerBy !== undefined;
  }

  /** A request is on its way: whatever question was pending is being answered by it. */
  asked(): void {
    this.answerBy = undefined;
  }

  /** Home Assistant replied. A reply without an id ends the conversation. */
  replied(conversationId: string | null, asksBack: boolean): void {
    const now = this.opts.clock.now();
    this.conversationId = conversationId ?? undefined;
    this.lastAt = now;
    this.answerBy = asksBack ? now + this.opts.followUpMs : undefined;
  }

  forget(): void {
    this.conversationId = undefined;
    this.answerBy = undefined;
  }
}
