/**
 * A simulated kitchen for the echo tests: what hark plays comes back into the microphone late
 * (the USB card's latency), smeared by the room (a decaying impulse response) and louder than the
 * person, over kitchen noise. Pure functions on 16 kHz samples; the fake arecord/aplay pair
 * (room-devices.ts) and the benchmark both build their microphone signal with these.
 *
 * Two rooms live here: Reverb, the fixed room the canceller was first tuned in (kept: the echo unit
 * tests are calibrated on it), and RoomPaths/micSignal, any room a RoomSpec (room-spec.ts) describes.
 */
import { Convolver, HighPass, SpeakerDistortion, fanNoise, impulseResponse, mainsHum, sampleAt } from './room-acoustics.js';
import { roomDrr, type RoomSpec } from './room-spec.js';

export { rng } from './prng.js';
export type { RoomSpec } from './room-spec.js';

/**
 * A room, streaming: the direct path, early reflections (worktop, wall, ceiling), and a late
 * reverberant tail decaying by 60 dB over rt60Ms (Schroeder's reverberator: four feedback combs into
 * two allpasses). A few operations a sample, so the simulated microphone keeps up in real time on a
 * loaded machine. Deterministic: the same input gives the same echo on every run.
 */
export class Reverb {
  private readonly early: Array<[number, number]> = [
    [40, 0.5],
    [66, -0.35],
    [117, 0.3],
    [179, -0.2],
  ];
  private readonly combs: Array<{ buf: Float32Array; i: number; g: number }>;
  private readonly aps: Array<{ buf: Float32Array; i: number; g: number }>;
  private readonly hist = new Float32Array(256);
  private h = 0;
  private readonly wet: number;

  constructor(rt60Ms: number, wet = 0.2) {
    this.wet = wet;
    this.combs = [475, 594, 658, 699].map((d) => ({ buf: new Float32Array(d), i: 0, g: Math.pow(10, (-3 * (d / 16)) / rt60Ms) }));
    this.aps = [80, 27].map((d) => ({ buf: new Float32Array(d), i: 0, g: 0.7 }));
  }

  process(x: ArrayLike<number>): Float32Array {
    const out = new Float32Array(x.length);
    const H = this.hist.length;
    for (let n = 0; n < x.length; n++) {
      const v = x[n]!;
      this.hist[this.h] = v;
      let y = v;
      for (const [d, g] of this.early) y += g * this.hist[(this.h - d + H) % H]!;
      let late = 0;
      for (const c of this.combs) {
        const o = c.buf[c.i]!;
        c.buf[c.i] = v + o * c.g;
        c.i = (c.i + 1) % c.buf.length;
        late += o;
      }
      for (const a of this.aps) {
        const b = a.buf[a.i]!;
        const w = late + a.g * b;
        a.buf[a.i] = w;
        a.i = (a.i + 1) % a.buf.length;
        late = b - a.g * w;
      }
      out[n] = y + this.wet * late;
      this.h = (this.h + 1) % H;
    }
    return out;
  }
}

/** x through a fresh room, `delay` samples late and scaled by `gain`, with the tail let ring out (tailMs). */
export function throughRoom(x: Int16Array | Float32Array, opts: { delay: number; gain: number; rt60Ms: number; tailMs?: number }): Float32Array {
  const n = x.length + opts.delay + Math.round((opts.tailMs ?? 500) * 16);
  const input = new Float32Array(n);
  for (let i = 0; i < x.length; i++) input[i + opts.delay] = x[i]! * opts.gain;
  return new Reverb(opts.rt60Ms).process(input);
}

export function rms(x: ArrayLike<number>, from = 0, to = x.length): number {
  let e = 0;
  for (let i = from; i < to; i++) e += x[i]! * x[i]!;
  return Math.sqrt(e / Math.max(1, to - from));
}

/** Sum float signals into s16 with clipping. */
export function toS16(x: Float32Array): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(x[i]!)));
  return out;
}

/** Energy ratio in dB of a over b over [from, to). */
export function ratioDb(a: ArrayLike<number>, b: ArrayLike<number>, from: number, to: number): number {
  return 20 * Math.log10(rms(a, from, to) / Math.max(1e-9, rms(b, from, to)));
}

/** Noise is looped from 10 s: whole cycles of 50 and 60 Hz hum, and long enough not to be heard as a loop by a VAD. */
const NOISE_LOOP = 160_000;

/**
 * The paths sound takes in a RoomSpec's room, streaming, so the live room (room-devices.ts) and the
 * offline one (micSignal) are the same room: hark's sound through the speaker's roll-off and the
 * room's response at echoGain; the person through their own (farther, more reverberant) response,
 * normalised so that the level the caller gives is the level at the microphone; the noise by
 * absolute sample.
 */
export class RoomPaths {
  readonly echoIr: Float32Array;
  readonly personIr: Float32Array;
  private readonly speaker: HighPass | null;
  private readonly distortion: SpeakerDistortion | null;
  private readonly echoConv: Convolver;
  private readonly personConv: Convolver;
  private readonly noiseLoop: Float32Array | null;

  constructor(
    readonly spec: RoomSpec,
    block = 4096,
  ) {
    const drr = roomDrr(spec);
    this.echoIr = impulseResponse({ early: spec.early, rt60Ms: spec.rt60Ms, drrDb: drr.speakerDb, onsetMs: spec.tailOnsetMs, seed: spec.seed });
    const p = impulseResponse({ early: [], rt60Ms: spec.person.rt60Ms ?? spec.rt60Ms, drrDb: drr.personDb, onsetMs: spec.tailOnsetMs, seed: spec.seed + 1 });
    const e = Math.sqrt(p.reduce((s, v) => s + v * v, 0));
    this.personIr = p.map((v) => v / e);
    this.speaker = spec.speaker.highPassHz > 0 ? new HighPass(spec.speaker.highPassHz) : null;
    this.distortion = spec.speaker.thd ? new SpeakerDistortion(spec.speaker.thd.pct, spec.speaker.thd.atDbfs) : null;
    this.echoConv = new Convolver(this.echoIr, block);
    this.personConv = new Convolver(this.personIr, block);
    const { fanDbfs, humDbfs, humHz } = spec.noise;
    if (fanDbfs === null && humDbfs === null) this.noiseLoop = null;
    else {
      const fan = fanDbfs === null ? new Float32Array(NOISE_LOOP) : fanNoise(NOISE_LOOP, fanDbfs, spec.seed + 2);
      const hum = humDbfs === null ? new Float32Array(NOISE_LOOP) : mainsHum(NOISE_LOOP, humDbfs, humHz);
      this.noiseLoop = fan.map((v, i) => v + hum[i]!);
    }
  }

  /**
   * Which played sample sounds at mic sample `i` with the card `delay` samples late, or -1 (nothing
   * yet, or the silence while a card that ran dry restarts).
   */
  cardIndex(i: number, delay: number): number {
    const r = this.spec.cardRestart;
    if (r) {
      const at = Math.round(r.atMs * 16);
      const shift = Math.round(r.shiftMs * 16);
      if (i >= at && i < at + shift) return -1;
      if (i >= at) return i - delay - shift;
    }
    return i - delay;
  }

  /**
   * What the card sounds at mic sample `i` of `played` (the samples it was handed, by its own count),
   * `delay` samples late: with the speaker on its own clock (speakerPpm) its count runs
   * (1 + ppm·1e-6) to the microphone's, so between two of hark's samples (interpolated).
   */
  cardSample(played: ArrayLike<number>, i: number, delay: number): number {
    const k = this.cardIndex(i, delay);
    if (k < 0) return 0;
    const ppm = this.spec.speakerPpm ?? 0;
    if (ppm === 0) return k < played.length ? played[k]! : 0;
    // The card started on hark's sample 0 at mic sample `delay`; since then its clock has run off.
    return sampleAt(played, k + (i - delay) * ppm * 1e-6);
  }

  /** The next stretch of hark's sound at the mic, given what the card plays then (already delayed): the driver distorts it, the cabinet rolls it off, the room carries it. */
  echo(played: Float32Array): Float32Array {
    const driven = this.distortion ? this.distortion.process(played) : played;
    const out = this.echoConv.process(this.speaker ? this.speaker.process(driven) : driven);
    for (let i = 0; i < out.length; i++) out[i]! *= this.spec.echoGain;
    return out;
  }

  /** The next stretch of the person at the mic, from what they say (dry) then. */
  person(dry: Float32Array): Float32Array {
    return this.personConv.process(dry);
  }

  /** The kitchen's noise at mic sample `i`. */
  noise(i: number): number {
    return this.noiseLoop ? this.noiseLoop[i % NOISE_LOOP]! : 0;
  }
}

/**
 * The microphone in a RoomSpec's room over `n` samples (default: until hark's sound has rung out),
 * sample 0 being when hark hands `played[0]` to the card: hark's sound at the room's latency, the
 * person (`dry`, by mic sample, already at the level wanted at the microphone), the noise.
 * The parts are returned for measuring.
 */
export function micSignal(
  spec: RoomSpec,
  played: ArrayLike<number>,
  dry?: Float32Array,
  n?: number,
): { mic: Int16Array; echo: Float32Array; person: Float32Array; noise: Float32Array } {
  const paths = new RoomPaths(spec, 16384);
  const delay = Math.round(spec.latencyMs * 16);
  const len = n ?? played.length + delay + Math.round(spec.rt60Ms * 16) + Math.max(0, Math.round((spec.cardRestart?.shiftMs ?? 0) * 16));
  const card = new Float32Array(len);
  for (let i = 0; i < len; i++) card[i] = paths.cardSample(played, i, delay);
  const echo = paths.echo(card);
  const person = dry
    ? paths.person(dry.length >= len ? dry.subarray(0, len) : Float32Array.from({ length: len }, (_, i) => dry[i] ?? 0))
    : new Float32Array(len);
  const noise = new Float32Array(len);
  const mic = new Int16Array(len);
  for (let i = 0; i < len; i++) {
    noise[i] = paths.noise(i);
    mic[i] = Math.max(-32768, Math.min(32767, Math.round(echo[i]! + person[i]! + noise[i]!)));
  }
  return { mic, echo, person, noise };
}
