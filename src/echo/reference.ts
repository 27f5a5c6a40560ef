import { SAMPLE_RATE } from '../audio/pcm.js';

/**
 * What hark played, on the clock's timeline: the echo canceller's reference.
 *
 * AplayPlayer reports each clip as it starts (the exact samples it hands to aplay, and the instant
 * aplay started) and when it is cut short. Positions are samples on a 16 kHz grid laid over the
 * clock (position = ms * 16), so a stretch of the microphone stamped with the same clock can ask for
 * "what was played then". Overlapping clips (an earcon over speech) are summed, as the speaker sums them.
 * Pure: no I/O, time comes in as arguments.
 */
export interface PlayedClip {
  start: number;
  end: number;
  /** Samples from `start`; may be longer than end - start (a streamed clip's room to grow). */
  pcm: Int16Array;
  /** The long-lived aplay process it came through (streamed), or undefined (a process of its own). */
  stream?: number;
}

/** A streamed clip grows to at most this long (10 s) before the next piece starts another, so old sound can be pruned. */
const MAX_STREAMED = 160_000;

/** The reference AplayPlayer calls: every sample hark plays goes through it. */
export interface PlaybackReference {
  /** aplay started on `pcm` at `atMs` (clock time). The handle marks where it was cut short. */
  played(pcm: Int16Array, atMs: number): { stopped(atMs: number): void };
}

export class EchoReference implements PlaybackReference {
  private clips: PlayedClip[] = [];
  private readonly perMs = SAMPLE_RATE / 1000;
  /** Where the latest clip ends (or was cut): no echo can be fresher than this. */
  private lastEnd = -Infinity;
  private count = 0;
  /**
   * The aplay process the latest sound came through (undefined: a process of its own, or none yet).
   * Kept apart from the clips: those are pruned a few seconds after they sound, and the long-lived
   * aplay's next sound after a quiet longer than that is still the same process, at the same latency.
   */
  private lastStream: number | undefined = undefined;

  /** aplay processes heard from so far: a new one may sound at another latency. */
  get clipCount(): number {
    return this.count;
  }

  /**
   * How far the canceller has used the reference (the end of its last frame's), and the samples of
   * reference that arrived for positions it had already passed: sound hark played that the canceller
   * was told of too late, so it went through uncancelled. A diagnostic (the journal): it should stay 0.
   */
  private usedTo = -Infinity;
  lateSamples = 0;

  /** The canceller has cancelled up to `position`: reference for earlier positions comes too late. */
  used(position: number): void {
    if (position > this.usedTo) this.usedTo = position;
  }

  private arrived(start: number, length: number): void {
    if (start < this.usedTo) this.lateSamples += Math.min(length, this.usedTo - start);
  }

  /** Times the long-lived aplay's timeline moved on (it was fed late), and the position of the latest. */
  timelineMoves = 0;
  lastMoveAt = -Infinity;

  /** The long-lived aplay was fed late and its timeline moved on at `atMs` (see AplayStream). */
  moved(atMs: number): void {
    this.timelineMoves++;
    this.lastMoveAt = this.position(atMs);
  }

  /** The latest sound came through the long-lived aplay (one latency across clips), not a process of its own. */
  get steady(): boolean {
    return this.lastStream !== undefined;
  }

  /**
   * The long-lived aplay (AplayStream) wrote `pcm`, the mix, due to sound from `atMs` on, through its
   * process number `stream`. Pieces that follow on are joined into one clip; a new process counts as a
   * new clip (its latency may differ), a gap or a moved timeline within one does not.
   */
  streamed(pcm: Int16Array, atMs: number, stream: number): void {
    const start = Math.round(atMs * this.perMs);
    this.arrived(start, pcm.length);
    const last = this.clips[this.clips.length - 1];
    const sameProcess = this.lastStream === stream;
    this.lastStream = stream;
    if (last && last.stream === stream && Math.abs(start - last.end) <= 1 && last.end - last.start + pcm.length <= MAX_STREAMED) {
      const used = last.end - last.start;
      if (used + pcm.length > last.pcm.length) {
        const bigger = new Int16Array(Math.min(MAX_STREAMED, Math.max(2 * last.pcm.length, used + pcm.length)));
        bigger.set(last.pcm.subarray(0, used));
        last.pcm = bigger;
      }
      last.pcm.set(pcm, used);
      last.end += pcm.length;
    } else {
      const buf = new Int16Array(Math.max(pcm.length, 16_000));
      buf.set(pcm);
      this.clips.push({ start, end: start + pcm.length, pcm: buf, stream });
      if (!sameProcess) this.count++;
    }
    this.lastEnd = Math.max(this.lastEnd, start + pcm.length);
  }

  played(pcm: Int16Array, atMs: number): { stopped(atMs: number): void } {
    const start = Math.round(atMs * this.perMs);
    this.arrived(start, pcm.length);
    const clip: PlayedClip = { start, end: start + pcm.length, pcm };
    this.clips.push(clip);
    this.count++;
    this.lastStream = undefined;
    this.lastEnd = Math.max(this.lastEnd, clip.end);
    return {
      stopped: (stopMs: number) => {
        clip.end = Math.max(clip.start, Math.min(clip.end, Math.round(stopMs * this.perMs)));
        this.lastEnd = this.clips.reduce((m, c) => Math.max(m, c.end), -Infinity);
      },
    };
  }

  /** Where the latest clip started (-Infinity before any): each aplay process starts with its own latency. */
  get latestStart(): number {
    return this.clips.length ? this.clips[this.clips.length - 1]!.start : -Infinity;
  }

  /**
   * Move the latest clip `samples` later (earlier if negative): its aplay process turned out to start
   * sounding at another latency than the clips before it.
   */
  shiftLatest(samples: number): void {
    const c = this.clips[this.clips.length - 1];
    if (!c) return;
    c.start += samples;
    c.end += samples;
    this.lastEnd = this.clips.reduce((m, x) => Math.max(m, x.end), -Infinity);
  }

  /** The end of the last sound played, in positions (-Infinity before any). */
  get endPosition(): number {
    return this.lastEnd;
  }

  /**
   * Where the sound that had started by `position` ended (the latest end among clips begun at or
   * before it; -Infinity when none had): a room's echo tail follows that, never a clip still to come.
   */
  endOfSoundBefore(position: number): number {
    let end = -Infinity;
    for (const c of this.clips) if (c.start <= position && c.end > end) end = c.end;
    return end;
  }

  /** Position of a clock time. */
  position(atMs: number): number {
    return Math.round(atMs * this.perMs);
  }

  /**
   * Fill `out` with what was played over [from, from + out.length). Returns false (and leaves `out`
   * zeroed) when nothing was.
   */
  render(from: number, out: Int16Array): boolean {
    out.fill(0);
    const to = from + out.length;
    let any = false;
    for (const c of this.clips) {
      if (c.end <= from || c.start >= to) continue;
      const a = Math.max(from, c.start);
      const b = Math.min(to, c.end);
      if (!any) {
        out.set(c.pcm.subarray(a - c.start, b - c.start), a - from);
      } else {
        for (let p = a; p < b; p++) {
          const v = out[p - from]! + c.pcm[p - c.start]!;
          out[p - from] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
        }
      }
      any = true;
    }
    return any;
  }

  /** Forget clips that ended before `position` (nothing older will be asked for). */
  prune(position: number): void {
    if (this.clips.length > 0 && this.clips.some((c) => c.end < position)) this.clips = this.clips.filter((c) => c.end >= position);
  }

  /** Played stretches overlapping [from, to), for the debug page's playback marks. */
  spans(from: number, to: number): Array<{ start: number; end: number }> {
    return this.clips.filter((c) => c.end > from && c.start < to && c.end > c.start).map((c) => ({ start: c.start, end: c.end }));
  }
}
