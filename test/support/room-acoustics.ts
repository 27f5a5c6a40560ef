import { fft, nextPow2 } from './fft.js';
import { rng } from './prng.js';

/**
 * The pieces of a simulated kitchen (room-spec.ts says which room, room-sim.ts puts them together):
 * an impulse response built from the room's measurable acoustics, a small speaker's roll-off, a
 * streaming convolution, and the noise of an extractor fan and the mains. Pure, deterministic
 * (seeded), 16 kHz.
 */
const RATE = 16000;

/** Standard normal samples (Box-Muller) from a uniform source. */
export function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

/**
 * Direct-to-reverberant ratio (dB) of a source `distanceM` from the microphone, by Sabine: the
 * reverberant field's level is set by the room's absorption A = 0.161 V / RT60, and the direct
 * sound equals it at the critical distance sqrt(Q A / 16π). So in the same kitchen a longer RT60
 * means a louder tail, and a person across the room is heard more by the room than directly.
 */
export function drrDb(distanceM: number, rt60Ms: number, volumeM3: number, directivity: number): number {
  const absorption = (0.161 * volumeM3) / (rt60Ms / 1000);
  const critical = Math.sqrt((directivity * absorption) / (16 * Math.PI));
  return 20 * Math.log10(critical / distanceM);
}

export interface Reflection {
  /** After the direct sound (ms). */
  ms: number;
  /** Amplitude relative to the direct sound (negative: an inverting surface). */
  gain: number;
}

/**
 * An impulse response: the direct sound (1 at sample 0), the early reflections, and a diffuse tail
 * (Gaussian noise under an exponential envelope falling 60 dB in rt60Ms from the direct sound) that
 * begins onsetMs after it and holds drrDb less energy than the direct sound. A noise tail, not a few
 * recirculating delays: a canceller meets a dense tail in a real kitchen, and what it cannot model
 * is the tail's energy past its filter's end — which the onset moves (a late onset packs the same
 * energy later).
 */
export function impulseResponse(o: { early: Reflection[]; rt60Ms: number; drrDb: number; onsetMs: number; seed: number }): Float32Array {
  const len = Math.ceil((o.rt60Ms * RATE) / 1000) + 1;
  const h = new Float64Array(len);
  const g = gaussian(rng(o.seed));
  const onset = Math.max(1, Math.round((o.onsetMs * RATE) / 1000));
  // The tail builds up over ~3 ms from its onset, as reflections multiply.
  const rise = 3 * 16;
  let e = 0;
  for (let i = onset; i < len; i++) {
    const env = Math.pow(10, (-3 * i) / ((o.rt60Ms * RATE) / 1000)) * Math.min(1, (i - onset + 1) / rise);
    h[i] = g() * env;
    e += h[i]! * h[i]!;
  }
  const scale = Math.sqrt(Math.pow(10, -o.drrDb / 10) / e);
  const out = new Float32Array(len);
  for (let i = 1; i < len; i++) out[i] = h[i]! * scale;
  out[0] = 1;
  for (const r of o.early) {
    const k = Math.round((r.ms * RATE) / 1000);
    if (k > 0 && k < len) out[k]! += r.gain;
  }
  return out;
}

/**
 * A second-order Butterworth high-pass (RBJ's biquad): a small speaker gives out below its
 * resonance, so the echo lacks the bass that is in the reference. Streaming: keeps its state.
 */
export class HighPass {
  private readonly b: [number, number, number];
  private readonly a: [number, number];
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(hz: number) {
    const w = (2 * Math.PI * hz) / RATE;
    const alpha = Math.sin(w) / (2 * Math.SQRT1_2);
    const c = Math.cos(w);
    const a0 = 1 + alpha;
    this.b = [(1 + c) / 2 / a0, -(1 + c) / a0, (1 + c) / 2 / a0];
    this.a = [(-2 * c) / a0, (1 - alpha) / a0];
  }

  process(x: Float32Array): Float32Array {
    const out = new Float32Array(x.length);
    const [b0, b1, b2] = this.b;
    const [a1, a2] = this.a;
    for (let i = 0; i < x.length; i++) {
      const y = b0 * x[i]! + b1 * this.x1 + b2 * this.x2 - a1 * this.y1 - a2 * this.y2;
      this.x2 = this.x1;
      this.x1 = x[i]!;
      this.y2 = this.y1;
      this.y1 = y;
      out[i] = y;
    }
    return out;
  }
}

/**
 * Streaming convolution by FFT overlap-add: blocks of any length in, as many samples out, the
 * response's tail carried into the blocks that follow. The live room feeds it 125 ms periods; the
 * offline matrix whole seconds.
 */
export class Convolver {
  private readonly n: number;
  private readonly hr: Float64Array;
  private readonly hi: Float64Array;
  private acc: Float64Array;
  /** Samples of output the response may still be ringing into. */
  private ringing = 0;

  constructor(
    private readonly ir: Float32Array,
    private readonly block = 4096,
  ) {
    this.n = nextPow2(block + ir.length - 1);
    this.hr = new Float64Array(this.n);
    this.hi = new Float64Array(this.n);
    this.hr.set(ir);
    fft(this.hr, this.hi);
    this.acc = new Float64Array(this.n);
  }

  process(x: ArrayLike<number>): Float32Array {
    const out = new Float32Array(x.length);
    for (let off = 0; off < x.length; off += this.block) {
      const m = Math.min(this.block, x.length - off);
      // Silence in, nothing left ringing: silence out, without the FFTs (the person is quiet most of
      // the time, and the live room must keep up in real time on a loaded machine).
      let silent = true;
      for (let i = 0; i < m && silent; i++) silent = x[off + i] === 0;
      if (silent && this.ringing <= 0) {
        this.acc.fill(0);
        continue;
      }
      this.ringing = silent ? this.ringing - m : this.ir.length;
      const re = new Float64Array(this.n);
      const im = new Float64Array(this.n);
      for (let i = 0; i < m; i++) re[i] = x[off + i]!;
      fft(re, im);
      for (let k = 0; k < this.n; k++) {
        const r = re[k]! * this.hr[k]! - im[k]! * this.hi[k]!;
        im[k] = re[k]! * this.hi[k]! + im[k]! * this.hr[k]!;
        re[k] = r;
      }
      fft(re, im, true);
      const span = m + this.ir.length - 1;
      for (let i = 0; i < span; i++) this.acc[i]! += re[i]!;
      for (let i = 0; i < m; i++) out[off + i] = this.acc[i]!;
      const next = new Float64Array(this.n);
      next.set(this.acc.subarray(m));
      this.acc = next;
    }
    return out;
  }
}

/** Level of a signal's RMS against full scale (32768), in dBFS. */
export function dbfs(rmsValue: number): number {
  return 20 * Math.log10(Math.max(1e-9, rmsValue) / 32768);
}

function scaleTo(x: Float32Array, levelDbfs: number): Float32Array {
  let e = 0;
  for (const v of x) e += v * v;
  const k = (32768 * Math.pow(10, levelDbfs / 20)) / Math.sqrt(e / x.length);
  for (let i = 0; i < x.length; i++) x[i]! *= k;
  return x;
}

/**
 * An extractor fan: pink noise (Paul Kellet's filter: equal energy per octave, the broad roar of
 * moving air), `n` samples at `levelDbfs` RMS.
 */
export function fanNoise(n: number, levelDbfs: number, seed: number): Float32Array {
  const g = gaussian(rng(seed));
  const x = new Float32Array(n);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < n; i++) {
    const w = g();
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    x[i] = b0 + b1 + b2 + w * 0.1848;
  }
  return scaleTo(x, levelDbfs);
}

/**
 * Mains hum picked up by a USB microphone: `hz` (50 in Europe) and its harmonics, the odd ones
 * stronger (a transformer's and a fan motor's), at `levelDbfs` RMS. `n` should hold whole cycles
 * when looped.
 */
export function mainsHum(n: number, levelDbfs: number, hz: number): Float32Array {
  const harmonics = [1, 0.4, 0.6, 0.2, 0.35, 0.1, 0.2];
  const x = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let h = 0; h < harmonics.length; h++) v += harmonics[h]! * Math.sin((2 * Math.PI * hz * (h + 1) * i) / RATE + h);
    x[i] = v;
  }
  return scaleTo(x, levelDbfs);
}

/** Taps either side of a fractional sample, and phases of the table between two samples. */
const SINC_HALF = 16;
const SINC_PHASES = 1024;
let sincTable: Float32Array | null = null;

/**
 * x at a fractional index (0 outside it): a Kaiser-windowed sinc over 2 × 16 samples (β 8; within
 * 0.1 dB to 6.5 kHz at 16 kHz), by a table of 1024 phases between two samples. What a card on
 * its own clock makes of the samples it is handed, seen from the microphone's clock. An integral
 * index gives the sample itself, so a room with one clock stays the same to the sample.
 */
export function sampleAt(x: ArrayLike<number>, at: number): number {
  const k = Math.floor(at);
  const phase = Math.round((at - k) * SINC_PHASES);
  if (phase === 0 || phase === SINC_PHASES) {
    const j = phase === 0 ? k : k + 1;
    return j >= 0 && j < x.length ? x[j]! : 0;
  }
  const table = (sincTable ??= buildSinc());
  const row = phase * 2 * SINC_HALF;
  let v = 0;
  for (let t = 0; t < 2 * SINC_HALF; t++) {
    const j = k - SINC_HALF + 1 + t;
    if (j >= 0 && j < x.length) v += x[j]! * table[row + t]!;
  }
  return v;
}

function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  for (let k = 1; k < 30; k++) {
    term *= (x / (2 * k)) ** 2;
    sum += term;
  }
  return sum;
}

function buildSinc(): Float32Array {
  const beta = 8;
  const table = new Float32Array((SINC_PHASES + 1) * 2 * SINC_HALF);
  for (let p = 0; p <= SINC_PHASES; p++) {
    const frac = p / SINC_PHASES;
    for (let t = 0; t < 2 * SINC_HALF; t++) {
      // Distance from the wanted point to tap t (taps k-15 … k+16 around k + frac).
      const d = t - SINC_HALF + 1 - frac;
      const sinc = d === 0 ? 1 : Math.sin(Math.PI * d) / (Math.PI * d);
      const r = d / SINC_HALF;
      const w = Math.abs(r) >= 1 ? 0 : besselI0(beta * Math.sqrt(1 - r * r)) / besselI0(beta);
      table[p * 2 * SINC_HALF + t] = sinc * w;
    }
  }
  return table;
}

/**
 * A small speaker's distortion, growing with how loud it is played: the driver's suspension stiffens
 * as the cone travels, a cubic term in its response (y = u − k·u³, u the card's sample over full
 * scale), so a sine of peak A comes out with a third harmonic of k·A³/4: its THD grows with the square
 * of the level (4× for each 6 dB), and past the cubic's top (u = 1/√(3k)) the cone is at its limit
 * and the output holds there, as a hard-driven speaker flattens. One parameter sets it: `thdPct`, the
 * THD of a sine played at a peak of `atDbfs` (a spec sheet's "1 % at 1 W"); the rest follows.
 */
export class SpeakerDistortion {
  private readonly k: number;
  private readonly top: number;
  private readonly held: number;

  constructor(thdPct: number, atDbfs: number) {
    const t = thdPct / 100;
    const a = Math.pow(10, atDbfs / 20);
    // THD = (k·A²/4) / (1 − 3k·A²/4) at peak A, solved for k.
    this.k = (4 * t) / (a * a * (1 + 3 * t));
    this.top = 1 / Math.sqrt(3 * this.k);
    this.held = this.top - this.k * this.top ** 3;
  }

  /** Samples as the card plays them (full scale 32768) to what the cone sounds, on the same scale. */
  process(x: Float32Array): Float32Array {
    const out = new Float32Array(x.length);
    for (let i = 0; i < x.length; i++) {
      const u = x[i]! / 32768;
      const y = Math.abs(u) >= this.top ? Math.sign(u) * this.held : u - this.k * u * u * u;
      out[i] = y * 32768;
    }
    return out;
  }
}

/** THD (%) of `y`, the response to a sine of `hz`: the power of its harmonics 2-9 over the fundamental's (Goertzel). */
export function thdPct(y: ArrayLike<number>, hz: number): number {
  const power = (f: number) => {
    const w = (2 * Math.PI * f) / RATE;
    let s1 = 0;
    let s2 = 0;
    for (let i = 0; i < y.length; i++) {
      const s = y[i]! + 2 * Math.cos(w) * s1 - s2;
      s2 = s1;
      s1 = s;
    }
    return s1 * s1 + s2 * s2 - 2 * Math.cos(w) * s1 * s2;
  };
  let h = 0;
  for (let n = 2; n <= 9 && n * hz < RATE / 2; n++) h += power(n * hz);
  return 100 * Math.sqrt(h / power(hz));
}
