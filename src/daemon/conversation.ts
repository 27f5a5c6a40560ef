import type { HarkConfig } from '../config/schema.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import { buildTargets } from '../actions/targets/index.js';
import { CommandCore } from '../router/command-core.js';
import { createIntentRuntime, type IntentRuntime } from '../intent/compose.js';
import type { Effect } from '../router/effects.js';
import type { Speech } from '../speech/create.js';
import type { SttStack } from '../stt/create.js';
import type { SegmentStt } from '../stt/events.js';
import type { Store } from '../store/store.js';
import type { ActionInput, TranscriptInput } from '../store/records.js';
import type { InterruptionFilter } from '../turn/interruption.js';
import type { ResponseCascade } from '../turn/cascade.js';
import type { Segment } from '../vad/segment.js';
import { samplesToMs } from '../audio/pcm.js';
import { applySpeechEffect } from './effects.js';

export interface ConversationDeps {
  config: HarkConfig;
  bus: Bus;
  clock: Clock;
  log: Logger;
  stt: SttStack | null;
  speech: Speech | null;
  barge: InterruptionFilter | null;
  cascade: ResponseCascade<string, string, Int16Array> | null;
  store: () => Store | null;
  voices?: readonly { id: string; say?: string[] }[];
  source: 'mic' | 'file';
}

/** What one segment produced, collected while it is handled and written in one transaction at the end. */
interface SegmentRecord {
  actions: ActionInput[];
  closedAt: number;
  /** Wall-clock ms when the segment closed: the store's times are wall times, taken at the close. */
  closedWallAt: number;
  /** When the person stopped speaking: the close, less the hangover for a VAD close. */
  speechEndAt: number;
}

declare module '../core/bus.js' {
  interface HarkEvents {
    /** A segment has been through speech-to-text and the router: `latencyMs` is close-to-done, `actionMs` close-to-first-action. */
    'segment.handled': { segment: number; utterances: number; actions: string[]; sttMs: number; latencyMs: number; actionMs: number | null };
  }
}

/**
 * The path of one utterance after the segmenter: speech-to-text, the interruption filter while hark
 * speaks, the command router, the effects (voice, actions, targets), and last the segment's rows in
 * the store — written after the action has been dispatched, so no write sits between speech and action.
 * Segments are handled one at a time, in the order they closed.
 */
export class Conversation {
  readonly core: CommandCore;
  /** The local-model intent pass (seed 004), when intent.enabled. */
  readonly intent: IntentRuntime | null;
  private readonly d: ConversationDeps;
  private current: SegmentRecord | null = null;
  private work: Promise<void> = Promise.resolve();
  private topFrame: string | undefined = 'base';

  constructor(d: ConversationDeps) {
    this.d = d;
    const { config, clock, log } = d;
    // The intent pass needs the store open (lists live there); without one its lists are in memory.
    const store = d.store();
    this.intent = config.intent.enabled ? createIntentRuntime({ config, clock, log, bus: d.bus, ...(store ? { store } : {}) }) : null;
    const intent = this.intent;
    this.core = new CommandCore({
      clock,
      router: intent?.router ?? config.router,
      actions: config.actions,
      log: log.child({ component: 'router' }),
      ...(d.voices ? { voices: d.voices as never } : {}),
      ...(intent ? { classifiers: intent.classifiers, plugins: [intent.pass] } : {}),
      onEffect: (e) => this.onEffect(e),
      targets: (emit) => buildTargets(config.actions.targets, { dataDir: config.actions.dataDir, emit, ...(intent ? { intent: intent.target } : {}) }),
    });
    // Load the model now, so the first request does not pay for it. Never throws.
    if (intent && config.intent.warmUp) void intent.pass.warmUp();
    d.stt?.setVocabulary(this.vocabulary());
  }

  /** Words the router listens for, as Whisper's initial prompt (vocabulary biasing). */
  private vocabulary(): string[] {
    const words = new Set<string>();
    for (const frame of Object.values(this.d.config.router.frames ?? {})) {
      for (const rule of (frame as { rules?: unknown[] }).rules ?? []) {
        const r = rule as { exact?: unknown; prefix?: unknown };
        for (const list of [r.exact, r.prefix]) if (Array.isArray(list)) for (const w of list) if (typeof w === 'string' && !w.startsWith('@')) words.add(w);
      }
    }
    return [...words];
  }

  segmentOpened(e: { startSample: number; pcm: Int16Array }): void {
    // A person speaking while an answer is being prepared takes the floor; while hark is speaking the
    // interruption filter decides from the words instead.
    if (!this.d.speech?.queue.isSpeaking) this.d.cascade?.interrupt('speech');
    this.d.stt?.service.segmentOpened(e);
  }

  segmentAudio(frame: Int16Array): void {
    this.d.stt?.service.segmentAudio(frame);
  }

  /** The segmenter dropped a segment (too short): its live stream, if any, is thrown away. */
  segmentDropped(startSample: number): void {
    this.d.stt?.service.segmentDropped({ startSample });
  }

  /** Queue a closed segment; resolves when it (and every one before it) is handled. */
  handleSegment(segment: Segment, cancelled = false): Promise<void> {
    const closedAt = this.d.clock.now();
    const closedWallAt = Date.now();
    this.work = this.work.then(() => this.handle(segment, closedAt, closedWallAt, cancelled)).catch((err) => {
      this.d.log.error('segment handling failed', { segment: segment.index, error: errorMessage(err) });
    });
    return this.work;
  }

  idle(): Promise<void> {
    return this.work;
  }

  /** At shutdown: every queued segment, then every delivery in flight (file appends, webhooks, the model). */
  async drain(): Promise<void> {
    await this.work;
    await this.core.idle();
  }

  dispose(): void {
    this.core.dispose();
  }

  private async handle(segment: Segment, closedAt: number, closedWallAt: number, cancelled: boolean): Promise<void> {
    const hangover = segment.closeReason === 'hangover' ? this.d.config.vad.hangoverMs : 0;
    const rec: SegmentRecord = { actions: [], closedAt, closedWallAt, speechEndAt: closedAt - hangover };
    this.current = rec;
    let result: SegmentStt | null = null;
    let firstActionAt: number | null = null;
    const offAction = this.d.bus.on('router.effect', (e) => {
      if (e.type === 'action' && firstActionAt === null) firstActionAt = this.d.clock.now();
    });
    try {
      if (cancelled) {
        // By now a newer segment may be open: name this one by its start, not "the open one".
        this.d.stt?.service.segmentDropped({ startSample: segment.startSample });
      } else if (this.d.stt) {
        result = await this.d.stt.service.handleSegment(segment);
        for (const u of result.utterances) {
          if (u.text) await this.dispatch(u);
        }
      }
      await this.core.router.idle();
    } finally {
      offAction();
      this.current = null;
    }
    const now = this.d.clock.now();
    this.d.bus.emit('segment.handled', {
      segment: segment.index,
      utterances: result?.utterances.filter((u) => u.text).length ?? 0,
      actions: rec.actions.map((a) => a.name),
      sttMs: result?.sttMs ?? 0,
      latencyMs: Math.round((now - closedAt) * 1000) / 1000,
      actionMs: firstActionAt === null ? null : Math.round((firstActionAt - closedAt) * 1000) / 1000,
    });
    this.record(segment, result, rec, cancelled);
  }

  /** The interruption filter first (while hark speaks, "yeah" must not stop it), then the router. */
  private async dispatch(u: Utterance): Promise<void> {
    // While hark asks "…? Say yes or no.", a "yes" over the end of the question is the answer, not a
    // backchannel: the interruption filter only applies when hark is not waiting for a reply.
    const speaking = this.topFrame !== 'confirm' && (this.d.speech?.queue.isSpeaking ?? false);
    if (this.d.barge) {
      let decision;
      try {
        decision = this.d.barge.transcript({ id: u.id, text: u.text, final: true }, speaking);
      } catch (err) {
        // Seed 002: an error in the filter falls back to letting the person through.
        this.d.log.error('interruption filter failed; allowing', { error: errorMessage(err) });
        decision = { action: 'allow' as const };
      }
      if (decision.action === 'filter') return;
    }
    this.core.dispatch(u);
    // The router, not its deliveries: a model call (up to intent.timeoutMs) or a slow webhook must not
    // hold up the next segment — "stop" has to act while Ollama is still thinking.
    await this.core.router.idle();
  }

  private onEffect(e: Effect): void {
    const atMs = this.d.clock.now();
    if (e.type === 'stack') this.topFrame = e.frames[e.frames.length - 1];
    this.d.bus.emit('router.effect', { ...e, atMs });
    try {
      applySpeechEffect(e, this.d.speech, this.d.cascade, this.topFrame, this.current?.speechEndAt);
    } catch (err) {
      this.d.log.error('speaking failed', { error: errorMessage(err) });
    }
    if (e.type === 'action' || e.type === 'action.failed' || e.type === 'action.dropped') {
      const row: ActionInput =
        e.type === 'action'
          ? { name: e.name, args: e.args, outcome: 'ok' }
          : e.type === 'action.failed'
            ? { name: e.name, outcome: 'error', error: e.error }
            : { name: e.name, args: e.args, outcome: e.reason };
      if (this.current) {
        row.latencyMs = Math.round(atMs - this.current.closedAt);
        this.current.actions.push(row);
      } else {
        // A timer that rang, a confirmation timeout: not part of any segment's handling.
        this.d.store()?.addAction(row);
      }
    }
  }

  private record(segment: Segment, result: SegmentStt | null, rec: SegmentRecord, cancelled: boolean): void {
    const store = this.d.store();
    if (!store) return;
    const transcripts: TranscriptInput[] = (result?.attempts ?? []).map((a) => ({
      engine: a.engine,
      rawText: a.rawText,
      text: a.text,
      ...(a.tokens ? { tokens: a.tokens } : {}),
      sttMs: Math.round(a.sttMs),
      fallbackReason: a.fallbackReason ?? null,
      droppedReason: a.droppedReason ?? a.error ?? (a.outcome === 'skipped' ? 'skipped' : null),
    }));
    if (cancelled) transcripts.push({ engine: 'none', rawText: '', text: '', droppedReason: 'push-to-talk cancelled (tap or mute hold)' });
    const used = result?.utterances.find((u) => u.text);
    store.recordSegment({
      // From the close, not from now: the row is written after speech-to-text, which takes seconds.
      segment: { ...segment, startedAt: rec.closedWallAt - Math.round(samplesToMs(segment.pcm.length)), source: this.d.source },
      transcripts,
      ...(used
        ? { utterance: { id: used.id, text: used.text, rawText: used.rawText, engine: used.engine, ...(used.sttMs !== undefined ? { sttMs: Math.round(used.sttMs) } : {}), ...(used.fallbackReason ? { fallbackReason: used.fallbackReason } : {}) } }
        : {}),
      actions: rec.actions.map((a) => ({ ...a, utteranceId: used?.id ?? null })),
    });
  }
}
