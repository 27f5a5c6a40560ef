import type { Clock } from '../core/clock.js';

/**
 * ChatMemory (docs/decisions.md#chat-memory-is-the-last-few-turns): the last N turns (a turn is what the person said and what hark answered)
 * sent with each request, so "the milk" after "what should I add?" is read in context. Trimmed
 * oldest first. Cleared on yes and on no, because a settled request is no context for the next.
 *
 * Unlike the seed, it also forgets after a quiet spell (idleMs): a clarification left unanswered
 * at breakfast must not colour a request at lunch.
 */
export type ChatRole = 'user' | 'assistant';
export interface ChatTurnMessage {
  role: ChatRole;
  content: string;
}

export class ChatMemory {
  private history: ChatTurnMessage[] = [];
  private lastAt = 0;

  constructor(private readonly opts: { maxTurns: number; idleMs: number; clock: Clock }) {
    if (!Number.isInteger(opts.maxTurns) || opts.maxTurns < 1) throw new Error(`maxTurns must be a whole number of at least 1, got ${opts.maxTurns}`);
  }

  add(role: ChatRole, content: string): void {
    this.expire();
    this.history.push({ role, content });
    this.lastAt = this.opts.clock.now();
    const max = this.opts.maxTurns * 2;
    if (this.history.length > max) this.history.splice(0, this.history.length - max);
    // Whole turns only: an answer whose question was trimmed away would mislead the model.
    while (this.history.length > 1 && this.history[0]!.role === 'assistant') this.history.shift();
  }

  /** Drop the last message if it is the person's unanswered one (the model never heard it). */
  dropUnanswered(): void {
    if (this.history[this.history.length - 1]?.role === 'user') this.history.pop();
  }

  /** A copy, oldest first: callers cannot edit the memory through it. */
  messages(): ChatTurnMessage[] {
    this.expire();
    return this.history.map((m) => ({ ...m }));
  }

  clear(): void {
    this.history = [];
  }

  get length(): number {
    return this.history.length;
  }

  private expire(): void {
    if (this.history.length && this.opts.clock.now() - this.lastAt >= this.opts.idleMs) this.history = [];
  }
}
