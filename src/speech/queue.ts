import './events.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { AlarmLevel } from './alarm-level.js';
import { SPEED_MAX, SPEED_MIN } from './config.js';
import { PRIORITY_RANK, type PlaybackHandle, type Priority, type SpeechItem, type SpeechKind, type SpeechOutcome, type SpeechOutput } from './item.js';

export interface Spoken {
  id: number;
  /** Settles when the item has left the queue, however it left. */
  done: Promise<SpeechOutcome>;
}

interface Entry {
  item: SpeechItem;
  settle: (o: SpeechOutcome) => void;
}

interface Current extends Entry {
  handle: PlaybackHandle | null;
  /** Clock time sound started; null while the item is still being rendered. */
  startedAt: number | null;
  durationMs: number;
}

/** How far back a preempted read-back resumes, so the listener gets the half-heard words again. */
const RESUME_BACKUP_MS = 500;

/**
 * The one thing that decides what hark says next. One item plays at a time; the rest wait by
 * priority. An alert or a confirmation cuts into a long read-back, which then resumes where it was
 * cut. stop() silences everything (barge-in, the button, "stop"). Pure apart from the output it
 * drives: time comes from the clock, and what happens goes out as speak.* events on the bus.
 */
export class SpeechQueue {
  private readonly output: SpeechOutput;
  private readonly clock: Clock;
  private readonly bus: Bus;
  private readonly waiting: Entry[] = [];
  private current: Current | null = null;
  private nextId = 1;
  private readonly alarm: AlarmLevel | null;

  /** `alarm`: how loud a timer's ring plays (its earcon and its name); without it a ring plays at the voice's level. */
  constructor(opts: { output: SpeechOutput; clock: Clock; bus: Bus; alarm?: AlarmLevel }) {
    this.output = opts.output;
    this.clock = opts.clock;
    this.bus = opts.bus;
    this.alarm = opts.alarm ?? null;
  }

  /** Words are playing (not only an earcon): the interruption filter's "hark is speaking". */
  get isSpeaking(): boolean {
    return this.current !== null && this.current.startedAt !== null && this.current.item.kind !== 'earcon';
  }

  /** Any sound is coming out: the echo gate's concern. */
  get isPlaying(): boolean {
    return this.current !== null && this.current.startedAt !== null;
  }

  /** Something is playing, being rendered, or waiting. */
  get busy(): boolean {
    return this.current !== null || this.waiting.length > 0;
  }

  /** The playing item and how far into it (ms from its start, counting a resume offset). */
  position(): { id: number; text: string; atMs: number } | null {
    const c = this.current;
    if (!c || c.startedAt === null) return null;
    return { id: c.item.id, text: c.item.text, atMs: c.item.offsetMs + this.playedMs(c) };
  }

  pending(): readonly SpeechItem[] {
    return this.waiting.map((e) => e.item);
  }

  /**
   * `ring`: this is a timer's ring, after that many of its rings went unanswered (it plays at the alarm's level).
   * `rate`: words a minute for this item alone (a picker's own rate), held within what espeak-ng is asked for.
   * `lang`: said in that language (not the device's first), with its voice.
   */
  say(text: string, opts: { priority?: Priority; ring?: number; rate?: number; lang?: string } = {}): Spoken {
    const rate = opts.rate === undefined || !Number.isFinite(opts.rate) ? undefined : Math.min(SPEED_MAX, Math.max(SPEED_MIN, Math.round(opts.rate)));
    return this.add('speech', text, opts.priority ?? 'normal', undefined, this.gainFor(opts.ring), rate, opts.lang);
  }

  earcon(name: string, opts: { priority?: Priority; ring?: number } = {}): Spoken {
    return this.add('earcon', name, opts.priority ?? 'confirm', undefined, this.gainFor(opts.ring));
  }

  /** Audio already rendered (the response cascade renders ahead of playing). */
  clip(pcm: Int16Array, text: string, opts: { priority?: Priority } = {}): Spoken {
    return this.add('clip', text, opts.priority ?? 'normal', pcm);
  }

  /** Silence what is playing and drop everything queued. Returns false when there was nothing to stop. */
  stop(reason: string): boolean {
    const dropped = this.waiting.splice(0);
    const c = this.current;
    if (!c && dropped.length === 0) return false;
    let playedMs = 0;
    if (c) {
      this.current = null;
      playedMs = this.playedMs(c);
      c.handle?.stop();
      c.settle('stopped');
    }
    for (const e of dropped) e.settle('dropped');
    this.bus.emit('speak.stopped', {
      id: c?.item.id ?? null,
      kind: c?.item.kind ?? null,
      text: c?.item.text ?? '',
      reason,
      playedMs,
      dropped: dropped.length,
    });
    return true;
  }

  private gainFor(ring: number | undefined): number | undefined {
    return ring === undefined || !this.alarm ? undefined : this.alarm.gainDb(ring);
  }

  private add(kind: SpeechKind, text: string, priority: Priority, pcm?: Int16Array, gainDb?: number, rate?: number, lang?: string): Spoken {
    let settle!: (o: SpeechOutcome) => void;
    const done = new Promise<SpeechOutcome>((r) => (settle = r));
    const item: SpeechItem = {
      id: this.nextId++,
      kind,
      text,
      priority,
      offsetMs: 0,
      ...(pcm ? { pcm } : {}),
      ...(gainDb !== undefined ? { gainDb } : {}),
      ...(rate !== undefined ? { rate } : {}),
      ...(lang ? { lang } : {}),
    };
    this.insert({ item, settle });
    const c = this.current;
    if (c && PRIORITY_RANK[priority] <= PRIORITY_RANK.confirm && c.item.priority === 'readback') this.preempt(c);
    else this.pump();
    return { id: item.id, done };
  }

  /** Behind everything of the same or higher priority (first come first served within a priority). */
  private insert(entry: Entry, front = false): void {
    const rank = PRIORITY_RANK[entry.item.priority];
    const at = this.waiting.findIndex((e) => (front ? PRIORITY_RANK[e.item.priority] >= rank : PRIORITY_RANK[e.item.priority] > rank));
    if (at < 0) this.waiting.push(entry);
    else this.waiting.splice(at, 0, entry);
  }

  private preempt(c: Current): void {
    this.current = null;
    const playedMs = this.playedMs(c);
    c.handle?.stop();
    this.bus.emit('speak.stopped', { id: c.item.id, kind: c.item.kind, text: c.item.text, reason: 'preempted', playedMs, dropped: 0 });
    c.item.offsetMs = Math.max(0, c.item.offsetMs + playedMs - RESUME_BACKUP_MS);
    this.insert({ item: c.item, settle: c.settle }, true);
    this.pump();
  }

  private pump(): void {
    if (this.current) return;
    const next = this.waiting.shift();
    if (!next) return;
    const cur: Current = { ...next, handle: null, startedAt: null, durationMs: 0 };
    this.current = cur;
    const live = () => this.current === cur;
    try {
      cur.handle = this.output.play(cur.item, {
        started: (durationMs) => {
          if (!live()) return;
          cur.startedAt = this.clock.now();
          cur.durationMs = durationMs;
          const { id, kind, text, priority, offsetMs, gainDb } = cur.item;
          this.bus.emit('speak.start', { id, kind, text, priority, durationMs, offsetMs, ...(gainDb !== undefined ? { gainDb } : {}) });
        },
        finished: (error) => {
          if (!live()) return;
          this.finish(cur, error);
        },
      });
      // stop() from inside a speak.start listener runs before play() has handed back its handle.
      if (!live()) cur.handle.stop();
    } catch (err) {
      // An output that throws instead of reporting must not wedge the queue.
      if (live()) this.finish(cur, err instanceof Error ? err.message : String(err));
    }
  }

  private finish(cur: Current, error: string | undefined): void {
    this.current = null;
    const { id, kind, text } = cur.item;
    if (error !== undefined) {
      this.bus.emit('speak.error', { id, kind, text, error });
      cur.settle('error');
    } else {
      this.bus.emit('speak.end', { id, kind, text, playedMs: this.playedMs(cur) });
      cur.settle('ended');
    }
    this.pump();
  }

  private playedMs(c: Current): number {
    if (c.startedAt === null) return 0;
    const ms = this.clock.now() - c.startedAt;
    return Math.round(c.durationMs > 0 ? Math.min(ms, c.durationMs) : ms);
  }
}
