import { DeliveryError, type Delivery } from '../../command/actions/targets/target.js';
import type { ConversationSink } from '../../command/actions/targets/home-assistant.js';
import type { HaConversationConfig } from './config.js';
import type { Clock } from '../../core/clock.js';
import { OneAtATime } from '../../core/one-at-a-time.js';
import { errorMessage } from '../../core/errors.js';
import type { Logger } from '../../core/log.js';
import type { CoreHost, CorePlugin } from '../../command/core.js';
import type { Effect } from '../../core/effects.js';
import type { ActionInput, RowLink } from '../../store/records.js';
import { HaCallError, type FailureKind, type HaClient } from './client.js';
import type { ConversationReply, ConversationRequest } from './reply.js';
import { ConversationSession } from './session.js';

/** The action name the exchange is recorded under (the debug page's actions). */
export const HA_ACTION = 'ha.conversation';

export interface HaActionStore {
  addAction(a: ActionInput & RowLink): number | null;
}

export interface HaConversationOptions {
  config: HaConversationConfig;
  client: HaClient;
  clock: Clock;
  log: Logger;
  /** Where each exchange is recorded (the SQLite store), linked to the utterance it came from. */
  store?: HaActionStore;
}

/**
 * Home Assistant's conversation agent as the place for what hark's own rules do not take: a
 * frame's submission goes as text to /api/conversation/process, the reply's speech is said, and a
 * reply that asks something back reopens the frame so the answer needs no wake word (and goes
 * with the same conversation_id). Requests go one at a time, in order, each bounded by
 * ha.conversation.timeoutMs; the router never waits for them (they are deliveries).
 *
 * A failure (no token, unreachable, timeout, 401, HTTP error, a reply that is not one) gets a
 * short spoken notice and a log line naming what failed, and is recorded like a reply.
 */
export class HaConversation implements CorePlugin, ConversationSink {
  private host: CoreHost | null = null;
  private readonly session: ConversationSession;
  private readonly line = new OneAtATime();

  constructor(private readonly opts: HaConversationOptions) {
    const c = opts.config;
    this.session = new ConversationSession({ clock: opts.clock, idleMs: c.conversationIdleMs, followUpMs: c.followUpMs });
  }

  describe(): string {
    const c = this.opts.config;
    return `Home Assistant ${c.url} (agent ${c.agentId || 'default'}${c.language ? `, ${c.language}` : ''})`;
  }

  /** Home Assistant asked something back and waits for the answer (the intent pass lets it through). */
  get awaitingAnswer(): boolean {
    return this.session.awaitingAnswer;
  }

  // ---- CorePlugin ----

  attach(host: CoreHost): void {
    this.host = host;
  }
  get busy(): boolean {
    return this.line.busy;
  }
  idle(): Promise<void> {
    return this.line.idle();
  }
  dispose(): void {
    this.session.forget();
  }

  // ---- ConversationSink ----

  declines(_d: Delivery): string | null {
    if (this.opts.config.inAlwaysListen || this.session.awaitingAnswer) return null;
    return this.host?.router.mode === 'always-listen' ? 'always-listen mode (ha.conversation.inAlwaysListen is off)' : null;
  }

  converse(d: Delivery): Promise<string> {
    return this.line.run(() => this.exchange(d));
  }

  private async exchange(d: Delivery): Promise<string> {
    const text = (d.text ?? '').trim();
    if (!text) return 'nothing to send';
    const c = this.opts.config;
    const conversationId = this.session.id();
    this.session.asked();
    const request: ConversationRequest = {
      text,
      // Words said in another of the device's languages are asked, and answered, in that language.
      ...(d.lang ? { language: d.lang } : c.language ? { language: c.language } : {}),
      ...(c.agentId ? { agent_id: c.agentId } : {}),
      ...(conversationId ? { conversation_id: conversationId } : {}),
    };
    const started = performance.now();
    let reply: ConversationReply;
    try {
      reply = await this.opts.client.process(request);
    } catch (err) {
      const ms = Math.round(performance.now() - started);
      const kind: FailureKind = err instanceof HaCallError ? err.kind : 'unreachable';
      const message = errorMessage(err);
      // A refused token or a missing one will not mend itself within the conversation: start afresh.
      if (kind === 'unauthorized' || kind === 'no-token') this.session.forget();
      this.opts.log.warn('Home Assistant conversation failed', { kind, error: message, text, ms });
      if (c.speakFailures) this.emit({ type: 'speak', text: this.notice(kind) });
      this.record(d, { name: HA_ACTION, args: { request, ms }, outcome: 'error', error: message, latencyMs: ms });
      throw new DeliveryError(`Home Assistant: ${message}`, 1);
    }
    const ms = Math.round(performance.now() - started);
    this.session.replied(reply.conversationId, reply.continueConversation);
    this.opts.log.info('Home Assistant answered', {
      text,
      responseType: reply.responseType,
      ...(reply.errorCode ? { code: reply.errorCode } : {}),
      speech: reply.speech,
      conversationId: reply.conversationId,
      continueConversation: reply.continueConversation,
      ms,
    });
    if (reply.speech) this.emit({ type: 'speak', text: reply.speech, ...(d.lang ? { lang: d.lang } : {}) });
    this.record(d, {
      name: HA_ACTION,
      args: { request, reply, ms },
      outcome: reply.responseType === 'error' ? 'declined' : 'ok',
      ...(reply.errorCode ? { error: reply.errorCode } : {}),
      latencyMs: ms,
    });
    // The answer to Home Assistant's question must not need the wake word.
    const listening = reply.continueConversation && d.frame !== undefined && this.requireHost().router.open(d.frame);
    return `${reply.responseType}${reply.errorCode ? ` (${reply.errorCode})` : ''}: ${JSON.stringify(reply.speech)} in ${ms} ms${listening ? '; listening for the answer' : ''}`;
  }

  private notice(kind: FailureKind): string {
    const c = this.opts.config;
    if (kind === 'unauthorized' || kind === 'no-token') return c.refused;
    if (kind === 'garbled') return c.garbled;
    return c.unavailable;
  }

  private record(d: Delivery, row: ActionInput): void {
    const last = d.utteranceIds?.[d.utteranceIds.length - 1];
    try {
      this.opts.store?.addAction({ ...row, ...(last ? { utteranceId: last } : {}) });
    } catch (err) {
      this.opts.log.error('cannot record the Home Assistant exchange', { error: errorMessage(err) });
    }
  }

  private emit(e: Effect): void {
    this.requireHost().emit(e);
  }

  private requireHost(): CoreHost {
    if (!this.host) throw new Error('the Home Assistant conversation is not attached to a command core (pass it in CommandCore plugins)');
    return this.host;
  }
}
