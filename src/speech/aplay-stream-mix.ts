import type { PlayResult } from './playback.js';
import type { TimerHandle } from '../core/clock.js';

/**
 * What the stream player (aplay-stream.ts) writes at each tick: how far ahead, and which clips sound
 * in it, summed. Pure: no I/O, no clock (positions are in samples on the stream's timeline).
 * Why: docs/decisions.md#a-streamed-clip-is-never-padded.
 */

/** A clip in the stream player. */
export interface Clip {
  /** Audio not yet mixed: pieces, the first one consumed from `offset`. */
  pending: Int16Array[];
  offset: number;
  /** No more audio will come (play(): at once; a stream: at end()). */
  complete: boolean;
  /** Samples of it handed to aplay, and the stream position of its first one. */
  fed: number;
  firstPos: number | null;
  finished: boolean;
  resolveStarted: () => void;
  resolveDone: (r: PlayResult) => void;
  endTimer: TimerHandle | null;
}

/** Samples of the clip not yet mixed. */
export function buffered(c: Clip): number {
  let n = -c.offset;
  for (const p of c.pending) n += p.length;
  return n;
}

export interface PlanInput {
  /** Stream position sounding now (may be fractional). */
  playhead: number;
  /** Samples written so far: where the next write starts. */
  fed: number;
  /** Samples to write ahead while something plays (the lead). */
  lead: number;
  /** Samples of silence to keep ahead when nothing plays. */
  idle: number;
  /** The least written ahead of the playhead that keeps the card from running dry before a later tick. */
  floor: number;
}

export interface Plan {
  /** Samples to write now (0: nothing). */
  n: number;
  /** The clips whose audio goes into them. */
  sounding: Clip[];
}

/**
 * How much to write now, and whose audio.
 *
 * A streamed clip (a voice server's answer, arriving as it is synthesized) is never padded: silence
 * written after the audio it has so far would sit inside it, and the rest of it would come after the
 * silence — a stutter in the first word. So:
 * - it starts only once what it holds reaches the lead (`fed + its audio >= playhead + lead`), or once
 *   it is complete: the same cushion against an uneven server as the lead is against a stall;
 * - once started, the write stops where its audio stops, however far short of the lead;
 * - only if it has run so short that the card would run dry (less than `floor` ahead) is silence
 *   written, up to `floor`: that stretch is the server having sent nothing, not padding.
 * Clips with all their audio (play(), an earcon, the ring) are written the lead ahead; with nothing
 * to play, `idle` of silence is kept ahead, so a new clip sounds within it.
 */
export function plan(clips: readonly Clip[], i: PlanInput): Plan {
  const leadEnd = i.playhead + i.lead;
  const sounding: Clip[] = [];
  /** Where the started streams' audio runs out: nothing is written past it but for the floor. */
  let cap = Infinity;
  for (const c of clips) {
    const have = buffered(c);
    const streaming = !c.complete;
    const started = c.firstPos !== null;
    if (streaming && started) cap = Math.min(cap, i.fed + have);
    if (have === 0) continue;
    if (!streaming || started || i.fed + have >= leadEnd) sounding.push(c);
  }
  let target: number;
  if (sounding.length === 0 && cap === Infinity) target = i.playhead + i.idle;
  else target = Math.max(Math.min(leadEnd, cap), i.playhead + Math.min(i.floor, i.idle));
  // A not-started stream that can fill the lead is started now: its audio reaches the lead.
  return { n: Math.max(0, Math.floor(target) - i.fed), sounding };
}

/**
 * n samples of the sounding clips' next audio, summed (clipped as the card would), from stream
 * position `pos`. `covered`: how many of them carry sound (every clip's audio starts at the chunk's
 * start, so what carries sound is a prefix of it).
 */
export function mix(sounding: readonly Clip[], n: number, pos: number): { mix: Int16Array; any: boolean; covered: number } {
  const out = new Int16Array(n);
  let any = false;
  let covered = 0;
  let acc: Int32Array | null = null;
  for (const c of sounding) {
    let k = 0;
    while (k < n && c.pending.length > 0) {
      const piece = c.pending[0]!;
      const take = Math.min(n - k, piece.length - c.offset);
      if (sounding.length === 1) out.set(piece.subarray(c.offset, c.offset + take), k);
      else {
        acc ??= new Int32Array(n);
        for (let j = 0; j < take; j++) acc[k + j]! += piece[c.offset + j]!;
      }
      if (c.firstPos === null) {
        c.firstPos = pos + k;
        c.resolveStarted();
      }
      k += take;
      c.offset += take;
      c.fed += take;
      if (c.offset >= piece.length) {
        c.pending.shift();
        c.offset = 0;
      }
    }
    if (k > 0) any = true;
    covered = Math.max(covered, k);
  }
  if (acc) for (let j = 0; j < n; j++) out[j] = acc[j]! > 32767 ? 32767 : acc[j]! < -32768 ? -32768 : acc[j]!;
  return { mix: out, any, covered };
}
