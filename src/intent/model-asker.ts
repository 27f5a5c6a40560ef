import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { IntentConfig } from './config.js';
import { OutageBreaker } from './outage.js';
import { ModelCallAborted, ModelUnavailable, type ChatMessage, type ModelReply, type ProposalModel } from './proposal-model.js';

/**
 * What asking the model came to. `announced`: the outage line was said for this call (the first
 * failure of an outage); `deferred`: it is owed, to be said when the request is submitted (a
 * speculative call made while the person may still be talking).
 */
export type Consulted = { reply: ModelReply } | { unavailable: string; announced: boolean; deferred?: boolean } | { aborted: true };

/** A model call made ahead of the submission it is for (the first timer). */
interface Speculation {
  text: string;
  result: Promise<Consulted>;
  abort: AbortController;
  /** A submission took it: the person stopping it no longer aborts the call. */
  claimed: boolean;
}

export interface ModelAskerOptions {
  config: IntentConfig;
  model: ProposalModel;
  /** The structured-output schema sent with every call (prompt.ts proposalFormat). */
  format: Record<string, unknown>;
  clock: Clock;
  log: Logger;
  bus?: Bus;
  /** hark says the outage line (the pass words it, in the request's language). */
  announceOutage: () => void;
}

/**
 * The intent pass's one way to the model: each call goes through the outage breaker (one spoken
 * line per outage, then not asking for a while), and a call may be made ahead of its request
 * (prepare: the person paused) and taken by the submission of exactly that text. What the reply
 * means is the pass's business (intent-pass.ts); this only asks, and says when it cannot.
 */
export class ModelAsker {
  private readonly breaker: OutageBreaker;
  /** The model already asked about an open request, before it was submitted. */
  private speculation: Speculation | null = null;
  /** An outage began in a look-ahead (prepare) whose request never came: nobody has been told yet. */
  private unannounced = false;

  constructor(private readonly opts: ModelAskerOptions) {
    const cfg = opts.config;
    this.breaker = new OutageBreaker({ failures: cfg.breakerFailures, openMs: cfg.breakerOpenMs, clock: opts.clock });
  }

  /**
   * Ask ahead for `text` (the whole conversation as the submission will send it). Kept for the
   * submission of exactly that text (claim()); `signal` aborts it while no submission has taken it.
   * An outage found here is said with the request, not now.
   */
  ahead(text: string, messages: ChatMessage[], signal: AbortSignal): Promise<Consulted> {
    this.drop();
    const abort = new AbortController();
    const spec: Speculation = { text, abort, claimed: false, result: this.ask(messages, abort.signal, { deferAnnounce: true }) };
    this.speculation = spec;
    const onAbort = () => {
      if (spec.claimed) return;
      spec.abort.abort(signal.reason);
      if (this.speculation === spec) this.speculation = null;
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    return spec.result;
  }

  /** The call made ahead for exactly this text, if any, now taken by its submission (then pass its result through announced()). */
  claim(text: string): Promise<Consulted> | null {
    const spec = this.speculation;
    this.speculation = null;
    if (!spec) return null;
    if (spec.text !== text || spec.abort.signal.aborted) {
      spec.abort.abort(new Error('another request was submitted'));
      return null;
    }
    spec.claimed = true;
    return spec.result;
  }

  /** Abandon a call made ahead that nobody took. */
  drop(): void {
    const spec = this.speculation;
    this.speculation = null;
    if (spec && !spec.claimed) spec.abort.abort(new Error('a newer request is being prepared'));
  }

  /** True once if an outage began in a look-ahead whose request never came (so the full outage line is owed). */
  takeUnannounced(): boolean {
    const owed = this.unannounced;
    this.unannounced = false;
    return owed;
  }

  /** A speculative call's outage line is said when its request is submitted, not while the person may still be talking. */
  async announced(r: Consulted): Promise<Consulted> {
    if (!('unavailable' in r) || !r.deferred) return r;
    this.unannounced = false;
    this.opts.announceOutage();
    this.opts.bus?.emit('intent.model', { state: 'down', reason: r.unavailable });
    return { unavailable: r.unavailable, announced: true };
  }

  async ask(messages: ChatMessage[], signal?: AbortSignal, opts: { deferAnnounce?: boolean } = {}): Promise<Consulted> {
    const permit = this.breaker.permit();
    if (!permit.allowed) {
      this.opts.log.debug('intent model not asked', { reason: permit.reason });
      return { unavailable: permit.reason, announced: false };
    }
    try {
      const reply = await this.opts.model.propose(messages, this.opts.format, signal);
      this.unannounced = false;
      if (this.breaker.success()) {
        this.opts.log.info('intent model answering again', { model: reply.model });
        this.opts.bus?.emit('intent.model', { state: 'up', reason: 'answered' });
      }
      return { reply };
    } catch (err) {
      if (err instanceof ModelCallAborted) {
        this.breaker.release();
        return { aborted: true };
      }
      const reason = errorMessage(err);
      const { announce, opened } = this.breaker.failure(reason);
      this.opts.log.warn('intent model unavailable', {
        error: reason,
        hint: this.hint(err),
        ...(opened ? { notAskingForMs: this.opts.config.breakerOpenMs } : {}),
      });
      if (announce && opts.deferAnnounce) {
        // A look-ahead's failure is said with the request it was for; if that request never comes
        // (the person went on), the next request's failure says it in full instead.
        this.unannounced = true;
        return { unavailable: reason, announced: false, deferred: true };
      }
      if (announce || this.unannounced) {
        this.unannounced = false;
        this.opts.announceOutage();
        this.opts.bus?.emit('intent.model', { state: 'down', reason });
      }
      return { unavailable: reason, announced: announce };
    }
  }

  /** What to try, for the log line of a failed call. */
  hint(err: unknown): string {
    const kind = err instanceof ModelUnavailable ? err.kind : 'unreachable';
    const m = this.opts.model;
    if (kind === 'model-missing') return `the model is not pulled: ollama pull ${m.model}`;
    if (kind === 'timeout') return `no answer in time: is the Pi busy? try a smaller model, or raise intent.timeoutMs`;
    if (kind === 'rejected') return 'Ollama rejected the request: is it older than 0.5 (structured outputs)? `ollama --version`';
    return `is Ollama running at ${m.host}? systemctl status ollama; hark doctor`;
  }
}
