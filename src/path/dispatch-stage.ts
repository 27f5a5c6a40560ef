import { randomUUID } from 'node:crypto';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Effect } from '../core/effects.js';
import type { Logger } from '../core/log.js';
import type { Utterance } from '../core/utterance.js';
import type { VadConfig } from '../vad/config.js';
import type { Conversation } from './conversation.js';
import { release, type OpenSegment } from './open-segment.js';
import type { PathFront } from './plugins.js';
import type { RecordKeeper } from './record-keeper.js';
import type { SegmentRecord } from './segment-record.js';
import type { WorkLine } from './work-line.js';

/**
 * Stage 4 of a segment's path: dispatch, to the command side. In: a segment's record with its fate; out: the
 * router's actions, in the record (through the RecordKeeper). Only a dispatched fate reaches
 * Conversation.dispatch, once. This is also the one place the path asks the router anything (what it
 * waits for, its hangover, the tap), and the narrow front plug-ins get (front()).
 */
export interface DispatchStageDeps {
  conv: Conversation;
  line: WorkLine;
  records: RecordKeeper;
  bus: Bus;
  clock: Clock;
  log: Logger;
  vad: Pick<VadConfig, 'hangoverMs' | 'routerFrameHangoverMs'>;
  /** Change the VAD hangover from the next frame on (the segment pipeline's setHangoverMs). */
  setHangoverMs?: (ms: number) => void;
}

export class DispatchStage {
  /** The VAD hangover in force: shorter while the top frame waits for a short answer (vad.routerFrameHangoverMs). */
  private hangover: number;

  constructor(private readonly d: DispatchStageDeps) {
    this.hangover = d.vad.hangoverMs;
    // The cascade's hand-over of an open request waits its turn behind every segment closed before it.
    d.conv.lineUp = (run, frame) => d.line.enqueue(run, 'handing over the request failed', { frame });
  }

  get hangoverMs(): number {
    return this.hangover;
  }

  /**
   * A frame above the base waits for an answer (a query, a confirmation, dictation), or a timer asks
   * "which timer?", or the follow-up window after an action is open: what is said next is meant for
   * hark, wake phrase or not. A ringing timer is not here: what stops it ("stop", "ok thanks") is
   * short (transcribed whole anyway) or opens a long segment (the opening check hears it) — a ring
   * must not make every segment of radio a whole inference.
   */
  awaited(): boolean {
    return this.d.conv.core.expectingWords();
  }

  /** Every segment now gets a whole transcript: always-listen mode, or something waits for an answer. */
  wantsWholeTranscript(): boolean {
    return this.d.conv.core.router.mode === 'always-listen' || this.awaited();
  }

  /** The top frame ends on a button tap (dictation, inventory). */
  takesTap(): boolean {
    return this.d.conv.core.router.handlesButton('tap');
  }

  /**
   * The fate is decided: words take the floor from an answer being prepared, anything else
   * gives it back; then only a dispatched utterance reaches the router.
   */
  async dispatch(rec: SegmentRecord, seg: OpenSegment | null): Promise<void> {
    const fate = rec.fate;
    if (fate.kind === 'dispatched' && !seg?.speaking) this.d.conv.interruptAnswer('speech');
    if (seg) release(this.d.conv, seg);
    if (fate.kind === 'dispatched') await this.d.records.during(rec, () => this.d.conv.dispatch(fate.utterance, rec.speechEndAt));
  }

  /**
   * Words that did not come from the microphone (a fleet `cmd/utterance`, a phone, a central system):
   * handled exactly as if heard — the same router, after every segment closed before them.
   */
  heardText(text: string, from: string): Promise<void> {
    return this.d.line.enqueue(
      async () => {
        const u: Utterance = { id: randomUUID(), text: text.trim(), rawText: text, engine: 'text', atMs: this.d.clock.now() };
        if (!u.text) return;
        this.d.log.info('utterance', { id: u.id, engine: 'text', from, text: u.text });
        this.d.bus.emit('utterance.final', u);
        await this.d.conv.dispatch(u);
      },
      'text utterance failed',
      { from },
    );
  }

  /** Give the top frame its tap, after every segment closed before it. */
  buttonTap(): Promise<void> {
    const router = this.d.conv.core.router;
    return this.d.line.enqueue(async () => {
      router.button('tap');
      await router.idle();
    }, 'button tap failed');
  }

  /** The router knows what it waits for: a one-word answer closes after a shorter silence. */
  effect(e: Effect): void {
    if (e.type !== 'stack') return;
    const top = e.frames[e.frames.length - 1];
    const v = this.d.vad;
    const ms = (top !== undefined ? v.routerFrameHangoverMs[top] : undefined) ?? v.hangoverMs;
    if (ms === this.hangover) return;
    this.hangover = ms;
    this.d.setHangoverMs?.(ms);
  }

  /** What plug-ins and the daemon's buttons may ask of the command side. */
  front(): PathFront {
    const core = this.d.conv.core;
    return {
      timers: core.timers,
      lists: () => core.lists.names().map((name) => ({ name, items: core.lists.lines(name) })),
      awaitingWords: () => this.awaited(),
      heardText: (text, from) => this.heardText(text, from),
      abortRequest: () => core.router.abort(),
      stopRinging: () => core.tapStopsRinging(),
    };
  }
}
