import type { Clock, TimerHandle } from '../core/clock.js';
import type { OutputCallbacks, PlaybackHandle, SpeechItem, SpeechOutput } from './item.js';

/** Speech takes about this long per character at espeak-ng's speed 160 (measured: 60-75 ms). */
export const SIMULATED_MS_PER_CHAR = 70;

/**
 * Playback without a speaker: each item "plays" for a time that grows with its text, on the given
 * clock. `hark simulate` uses it on a virtual clock so interruptions can be tried without audio;
 * tests use it to check what the queue and the filter do to playback.
 */
export class SimulatedOutput implements SpeechOutput {
  private readonly clock: Clock;
  private readonly msPerChar: number;
  private readonly earconMs: number;
  /** Every item played, with when it started and how it ended, for tests and `hark simulate --trace`. */
  readonly log: { id: number; text: string; startMs: number; endMs: number | null; outcome: 'ended' | 'stopped' | null }[] = [];

  /** speech.speed: an item with a rate of its own plays for speed/rate of its time at msPerChar. */
  private readonly speed: number;

  constructor(opts: { clock: Clock; msPerChar?: number; earconMs?: number; speed?: number }) {
    this.clock = opts.clock;
    this.msPerChar = opts.msPerChar ?? SIMULATED_MS_PER_CHAR;
    this.speed = opts.speed ?? 160;
    this.earconMs = opts.earconMs ?? 200;
  }

  durationOf(item: SpeechItem): number {
    const chars = item.text.length * this.msPerChar;
    const full = item.kind === 'earcon' ? this.earconMs : Math.max(1, item.rate !== undefined ? Math.round((chars * this.speed) / item.rate) : chars);
    return Math.max(0, full - item.offsetMs);
  }

  play(item: SpeechItem, cb: OutputCallbacks): PlaybackHandle {
    const duration = this.durationOf(item);
    const entry = { id: item.id, text: item.text, startMs: this.clock.now(), endMs: null as number | null, outcome: null as 'ended' | 'stopped' | null };
    this.log.push(entry);
    let timer: TimerHandle | null = this.clock.setTimer(duration, () => {
      timer = null;
      entry.endMs = this.clock.now();
      entry.outcome = 'ended';
      cb.finished();
    });
    cb.started(duration);
    return {
      stop: () => {
        if (!timer) return;
        this.clock.clearTimer(timer);
        timer = null;
        entry.endMs = this.clock.now();
        entry.outcome = 'stopped';
      },
    };
  }
}
