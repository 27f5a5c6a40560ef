import './events.js';
import { english } from '../language/pack/english.js';
import type { Language } from '../language/pack/language.js';
import type { IntentOutcome, IntentSink } from '../command/actions/targets/intent.js';
import type { Delivery } from '../command/actions/targets/target.js';
import type { IntentConfig } from './config.js';
import { OneAtATime } from '../core/one-at-a-time.js';
import { errorMessage } from '../core/errors.js';
import type { Classifier, ClassifierInput, ClassifierVerdict } from '../command/classifier.js';
import type { CoreHost, CorePlugin } from '../command/core.js';
import { confirmQuestion } from '../command/frames/confirm.js';
import { ChatMemory } from './chat-memory.js';
import type { IntentRecord } from './events.js';
import { Deduper } from './fingerprint.js';
import { registerIntentActions } from './intent-actions.js';
import { ListenWindow, type Batch } from './listen-window.js';
import { ModelAsker } from './model-asker.js';
import { proposalFormat, renderPrompt } from './prompt.js';
import { NOT_RECOGNISED, readProposal } from './proposal.js';
import type { ModelReply } from './proposal-model.js';
import { actionArgs, fillSlots, missingSlot, proposalSlots } from './proposal-slots.js';
import { askOf, clarifyOf, type Worded } from './questions.js';
import type { Heard, IntentPassOptions, Judged, PreparedProposal } from './intent-pass-io.js';

export type { IntentPassOptions, IntentRecordStore, PreparedProposal } from './intent-pass-io.js';

/**
 * The rule on the appliance (docs/decisions.md#the-model-proposes-the-person-confirms): the model proposes, the person confirms, only then does hark
 * act. Text reaches the pass as a frame's submission (the `intent` target) or through a
 * `{classifier: ollama}` rule; either way the model is asked for {verb, object}, the reply is
 * validated, and then:
 *
 * - PROPOSED → hark asks yes or no (the confirm frame). Yes: a commit record, then the intent's
 *   action. No, or no answer: a discard record, and the conversation is forgotten, and so is the
 *   proposal's always-listen dedup fingerprint (only a committed proposal suppresses a repeat).
 * - AMBIGUOUS → a short clarifying question, kept in the conversation with what was said, and the
 *   frame reopened for the answer ("the milk"). In always-listen mode hark stays quiet instead:
 *   most of what a kitchen says is not meant for it.
 * - The model unreachable → one spoken line per outage, a breaker that stops asking for a while,
 *   and everything else in hark carries on (nothing here blocks the router).
 *
 * Requests are handled one at a time, in order. Time comes from the Clock; the only I/O is the
 * ProposalModel handed in.
 */
export class IntentPass implements CorePlugin, Classifier, IntentSink {
  private host: CoreHost | null = null;
  private readonly cfg: IntentConfig;
  private readonly memory: ChatMemory;
  private readonly window: ListenWindow;
  private readonly dedup: Deduper;
  private readonly asker: ModelAsker;
  private readonly system: string;
  private readonly line = new OneAtATime();
  /** The language always-listen heard last: the window's batch is answered in it. */
  private listenedIn: string | undefined;
  private get lang(): Language {
    return this.opts.language ?? english();
  }
  /** A request's language (one of the device's), else the first. */
  private langOf(code: string | undefined): Language {
    return (code !== undefined ? this.opts.languages?.find((l) => l.code === code) : undefined) ?? this.lang;
  }
  /** The language of the request the model is being asked about now: an outage is said in it. */
  private askingIn: string | undefined;
  /** The outage line: intent.unavailable / stillUnavailable as written, else the pack's, in the request's language. */
  private sayOutage(kind: 'unavailable' | 'still_unavailable'): void {
    const written = kind === 'unavailable' ? this.cfg.unavailable : this.cfg.stillUnavailable;
    if (written !== undefined) this.emit({ type: 'speak', text: written });
    else this.sayIn(this.askingIn, this.langOf(this.askingIn).pack.proposals[kind]);
  }
  /** A line said in a request's language, carrying it when it is not the first (the voice is that language's). */
  private sayIn(code: string | undefined, text: string): void {
    const l = this.langOf(code);
    this.emit({ type: 'speak', text, ...(l !== this.lang ? { lang: l.code } : {}) });
  }
  /** The question hark asks about a judged reply, as the confirm frame or the clarification will say it. */
  private question(j: Judged, lang: Language): Worded {
    if (j.status === 'PROPOSED') {
      const ask = askOf(j.intent, lang);
      return { ...ask, text: fillSlots(ask.text, j.slots, lang) };
    }
    return clarifyOf(j.intent, lang, this.cfg.clarify);
  }
  constructor(private readonly opts: IntentPassOptions) {
    const { config: cfg, clock } = opts;
    this.cfg = cfg;
    this.system = renderPrompt(cfg.prompt, cfg.intents);
    this.memory = new ChatMemory({ maxTurns: cfg.memoryTurns, idleMs: cfg.memoryIdleMs, clock });
    this.asker = new ModelAsker({
      config: cfg,
      model: opts.model,
      format: proposalFormat(cfg.intents),
      clock,
      log: opts.log,
      bus: opts.bus,
      announceOutage: () => this.sayOutage('unavailable'),
    });
    const l = cfg.listen;
    this.dedup = new Deduper({ windowMs: l.dedupWindowMs, threshold: l.dedupThreshold, max: l.dedupMax, clock });
    this.window = new ListenWindow({
      ...l,
      clock,
      // The inactivity trigger fires outside any delivery: queue it like any request.
      onBatch: (batch) => void this.enqueue(() => this.detect(batch)),
    });
  }

  /** The system prompt as sent (for `hark config`-style inspection and tests). */
  get prompt(): string {
    return this.system;
  }

  describe(): string {
    return `Ollama ${this.opts.model.model} at ${this.opts.model.host}`;
  }

  // ---- CorePlugin ----

  attach(host: CoreHost): void {
    this.host = host;
    registerIntentActions(host.actions, {
      lists: this.opts.lists,
      emit: host.emit,
      forwarded: this.opts.forwarded ?? (() => false),
      log: this.opts.log,
      language: (code) => this.langOf(code),
    });
  }
  get busy(): boolean {
    return this.line.busy;
  }
  idle(): Promise<void> {
    return this.line.idle();
  }
  dispose(): void {
    this.window.dispose();
    this.asker.drop();
  }

  /** Load the model ahead of the first request. Never throws: a failure is logged, and the first request will say it. */
  async warmUp(): Promise<boolean> {
    const started = performance.now();
    try {
      await this.opts.model.warmUp();
      this.opts.log.info('intent model loaded', { model: this.opts.model.model, host: this.opts.model.host, ms: Math.round(performance.now() - started) });
      return true;
    } catch (err) {
      this.opts.log.warn('intent model warm-up failed; hark will try again on the first request', { error: errorMessage(err), hint: this.asker.hint(err) });
      return false;
    }
  }

  // ---- entry points ----

  /**
   * The response cascade's first timer: the person has paused after saying `text` into an open request (wake-word
   * mode), so ask the model now rather than when the frame submits. The reply is kept for the
   * submission of exactly that text (submit()), and what hark will say is returned, so it can be
   * rendered ahead. Nothing is said or recorded here. `signal` aborts it while no submission has
   * taken it: the person went on speaking, and the request is not what was asked about.
   */
  async prepare(text: string, signal: AbortSignal, lang?: string): Promise<PreparedProposal> {
    const said = text.trim();
    if (!said || this.listening) return { spoken: null };
    // Exactly what fromRequest() will send: the conversation so far and this turn.
    const messages = [...this.memory.messages(), { role: 'user' as const, content: said }];
    while (messages.length > this.cfg.memoryTurns * 2) messages.shift();
    while (messages.length > 1 && messages[0]!.role === 'assistant') messages.shift();
    const r = await this.asker.ahead(said, [{ role: 'system', content: this.system }, ...messages], signal);
    if (!('reply' in r)) return { spoken: null };
    const l = this.langOf(lang);
    const j = this.judge(r.reply.content, said, l);
    const q = this.question(j, l);
    // The confirm frame asks in the request's language whoever wrote the question; a clarification
    // written in the config is said as written, in the first language's voice.
    if (j.status === 'PROPOSED') return { spoken: confirmQuestion(q.text, l), ...(l !== this.lang ? { lang: l.code } : {}) };
    return { spoken: q.text, ...(q.inLanguage && l !== this.lang ? { lang: l.code } : {}) };
  }

  /** A frame's submission (the intent target). Resolves once the question is asked. */
  submit(d: Delivery): Promise<IntentOutcome> {
    const heard: Heard = { text: (d.text ?? '').trim(), ids: d.utteranceIds ?? [], ...(d.lang ? { lang: d.lang } : {}) };
    if (!heard.text) return Promise.resolve({ detail: 'nothing to read' });
    return this.enqueue(() => (this.listening ? this.fromListening(heard) : this.fromRequest(heard, d.frame)));
  }

  /** A `{classifier: ollama}` rule. The question is asked after the rule's own verbs ran. */
  classify(input: ClassifierInput, signal: AbortSignal): Promise<ClassifierVerdict | null> {
    return this.enqueue(async (): Promise<ClassifierVerdict | null> => {
      if (signal.aborted) return null;
      const heard: Heard = { text: input.text, ids: [input.utteranceId] };
      this.memory.add('user', heard.text);
      const r = await this.asker.ask([{ role: 'system', content: this.system }, ...this.memory.messages()], signal);
      if (!('reply' in r)) {
        this.memory.dropUnanswered();
        return null;
      }
      const j = this.judge(r.reply.content, heard.text, this.lang);
      if (j.status === 'PROPOSED')
        return { label: j.intent.name, slots: { intent: j.intent.name, target: j.target ?? '' }, after: () => this.propose(j, heard, r.reply) };
      return { label: 'ambiguous', slots: { reason: j.reason }, after: () => this.ambiguous(j, heard, r.reply, undefined) };
    });
  }

  /** The speaker paused (always-listen): a trigger for the window. */
  pause(): void {
    const batch = this.window.pause();
    if (batch) void this.enqueue(() => this.detect(batch));
  }

  // ---- the two paths ----

  private get listening(): boolean {
    return this.host?.router.mode === 'always-listen';
  }

  /** Wake-word mode: someone spoke to hark; the last N turns are the context. */
  private async fromRequest(heard: Heard, frame: string | undefined): Promise<IntentOutcome> {
    this.askingIn = heard.lang;
    const ahead = this.asker.claim(heard.text);
    this.memory.add('user', heard.text);
    const r = ahead ? await this.asker.announced(await ahead) : await this.asker.ask([{ role: 'system', content: this.system }, ...this.memory.messages()]);
    if (!('reply' in r)) {
      this.memory.dropUnanswered();
      // Someone spoke to hark and is waiting: every request the model cannot take is answered, not
      // only the first of an outage (that one was announced in full by consult), so nobody believes
      // a request went through when it only went to the file.
      if ('unavailable' in r && !r.announced) {
        this.sayOutage(this.asker.takeUnannounced() ? 'unavailable' : 'still_unavailable');
      }
      return { unavailable: 'unavailable' in r ? r.unavailable : 'abandoned' };
    }
    const j = this.judge(r.reply.content, heard.text, this.langOf(heard.lang));
    if (j.status === 'PROPOSED') {
      this.propose(j, heard, r.reply);
      return { detail: `proposed ${j.intent.name}` };
    }
    // Not one of hark's intents at all ("turn on the extractor fan"): the house may know it. One of
    // them with a part missing ("add to the list") is still hark's to ask about.
    if (!j.intent && this.opts.handOver?.(frame)) {
      this.memory.dropUnanswered();
      this.ambiguous(j, heard, r.reply, undefined, false);
      return { handOver: j.reason };
    }
    this.ambiguous(j, heard, r.reply, frame);
    return { detail: `ambiguous: ${j.reason}` };
  }

  /** Always-listen mode: text joins the window; the model is asked when it triggers. */
  private async fromListening(heard: Heard): Promise<IntentOutcome> {
    this.listenedIn = heard.lang;
    const batch = this.window.add(heard) ?? this.window.pause();
    if (!batch) return { detail: 'heard; waiting for a trigger (rate limit)' };
    return this.detect(batch);
  }

  private async detect(batch: Batch): Promise<IntentOutcome> {
    this.askingIn = this.listenedIn;
    const content = batch.context ? `Previous context:\n${batch.context}\n\nCurrent transcript to analyze:\n${batch.newText}` : batch.newText;
    const r = await this.asker.ask([
      { role: 'system', content: this.system },
      { role: 'user', content },
    ]);
    if (!('reply' in r)) return { unavailable: 'unavailable' in r ? r.unavailable : 'abandoned' };
    const heard: Heard = { text: batch.newText, ids: batch.ids, ...(this.listenedIn ? { lang: this.listenedIn } : {}) };
    const j = this.judge(r.reply.content, batch.newText, this.langOf(heard.lang));
    if (j.status !== 'PROPOSED') {
      this.ambiguous(j, heard, r.reply, undefined);
      return { detail: `ambiguous: ${j.reason}` };
    }
    // Always-listen deduplication: the fingerprint is what was said, not the proposal's verb and object, so "add
    // oat milk" after "add milk" (another item) or "3 cases" after "2 cases" is a new request.
    const key = batch.newText;
    if (!this.dedup.admit(key)) {
      this.opts.log.info('intent proposal suppressed: the same was proposed moments ago', { intent: j.intent.name, target: j.target, text: batch.newText });
      return { detail: `duplicate of a recent ${j.intent.name} proposal` };
    }
    this.propose(j, heard, r.reply, key);
    return { detail: `proposed ${j.intent.name}` };
  }

  // ---- the model's reply ----

  /** Validate the reply and read the object's parts; anything short of a full proposal is ambiguous. */
  private judge(content: string, text: string, lang: Language): Judged {
    const p = readProposal(content, this.cfg.intents);
    if (p.status === 'AMBIGUOUS') return p;
    const slots = proposalSlots(p.intent, p.target, text, lang);
    const missing = missingSlot(p.intent, slots);
    if (missing)
      return {
        status: 'AMBIGUOUS',
        reason: `${p.intent.name} without ${missing === 'seconds' ? 'a duration' : `a ${missing}`} in "${p.target ?? ''}"`,
        intent: p.intent,
      };
    return { status: 'PROPOSED', intent: p.intent, target: p.target, slots };
  }

  // ---- what the person hears ----

  /** `dedupKey`: what the always-listen deduper admitted for this proposal; forgotten again unless it is committed. */
  private propose(j: Extract<Judged, { status: 'PROPOSED' }>, heard: Heard, reply: ModelReply, dedupKey?: string): void {
    const { intent, target, slots } = j;
    const base = { intent: intent.name, target, text: heard.text, model: reply.model, latencyMs: reply.latencyMs, utteranceIds: [...heard.ids] };
    this.emit({ type: 'proposal', intent: intent.name, target });
    this.record({ ...base, kind: 'proposal', reason: null, slots: { ...slots } });
    const settle = (reason: 'no' | 'timeout') => {
      this.forget();
      // Turned down or unanswered: the same request said again deserves a fresh proposal.
      if (dedupKey !== undefined) this.dedup.forget(dedupKey);
      this.emit({ type: 'discard', intent: intent.name, reason });
      this.record({ ...base, kind: 'discard', reason: reason === 'no' ? 'the person said no' : 'no answer in time' });
    };
    this.requireHost().router.confirm({
      prompt: this.question(j, this.langOf(heard.lang)).text,
      ...(heard.lang ? { lang: heard.lang } : {}),
      onYes: () => {
        this.forget();
        this.emit({ type: 'commit', intent: intent.name, target, utteranceIds: [...heard.ids], model: reply.model, latencyMs: reply.latencyMs });
        this.record({ ...base, kind: 'commit', reason: null, slots: { ...slots } });
        // Said in another of the device's languages, the action answers in it ("Temporizador de pasta puesto …").
        const lang = heard.lang && this.langOf(heard.lang) !== this.lang ? { lang: heard.lang } : {};
        this.requireHost().actions.submit({ name: intent.action, args: { ...actionArgs(intent, target, slots, heard.ids), ...lang } });
      },
      onNo: () => {
        settle('no');
        this.sayIn(heard.lang, this.langOf(heard.lang).reply('confirm.cancelled'));
      },
      onTimeout: () => settle('timeout'),
    });
  }

  /** `ask`: say the clarifying question (false when the text is handed over to another agent). */
  private ambiguous(j: Extract<Judged, { status: 'AMBIGUOUS' }>, heard: Heard, reply: ModelReply, reopen: string | undefined, ask = true): void {
    this.emit({ type: 'ambiguous', text: heard.text, reason: j.reason });
    this.record({
      kind: 'ambiguous',
      intent: j.intent?.name ?? null,
      target: null,
      text: heard.text,
      reason: j.reason,
      model: reply.model,
      latencyMs: reply.latencyMs,
      utteranceIds: [...heard.ids],
    });
    const fields = { reason: j.reason, text: heard.text, reply: reply.content.slice(0, 200) };
    // "unknown" is the model doing its job; anything else is a reply hark could not use.
    if (j.reason === NOT_RECOGNISED || j.intent) this.opts.log.info('intent ambiguous', fields);
    else this.opts.log.warn('intent reply unusable', fields);
    if (this.listening || !ask) return;
    const question = this.question(j, this.langOf(heard.lang));
    if (question.inLanguage) this.sayIn(heard.lang, question.text);
    else this.emit({ type: 'speak', text: question.text });
    this.memory.add('assistant', question.text);
    // The answer to a question must not need the wake word again.
    if (reopen) this.requireHost().router.open(reopen);
  }

  private forget(): void {
    this.memory.clear();
    this.window.clear();
  }

  private record(r: IntentRecord): void {
    this.opts.bus?.emit('intent.record', r);
    const store = this.opts.store;
    if (!store) return;
    const last = r.utteranceIds[r.utteranceIds.length - 1];
    store.addIntent({
      kind: r.kind,
      intent: r.intent,
      target: r.target,
      slots: { ...(r.slots ?? {}), text: r.text, utteranceIds: r.utteranceIds },
      model: r.model,
      latencyMs: r.latencyMs,
      reason: r.reason,
      ...(last ? { utteranceId: last } : {}),
    });
  }

  private emit(e: Parameters<CoreHost['emit']>[0]): void {
    this.requireHost().emit(e);
  }

  private requireHost(): CoreHost {
    if (!this.host) throw new Error('the intent pass is not attached to a command core (pass it in CommandCore plugins)');
    return this.host;
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    return this.line.run(work);
  }
}
