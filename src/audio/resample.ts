/**
 * Band-limited sample-rate conversion: a Kaiser-windowed sinc, applied polyphase.
 *
 * Why not linear interpolation: taking 48 kHz down to 16 kHz without a low-pass folds everything
 * between 8 and 24 kHz (fans, sibilants, USB whine) back into the speech band, and ASR hears it.
 * The filter here cuts at 92% of the lower Nyquist with ~85 dB of stop-band rejection, which is
 * far below the 16-bit noise floor that comes out of it.
 *
 * Pure: no I/O, no allocation beyond the output and the per-ratio filter table.
 */

/** Zero crossings of the sinc on each side of the centre tap: longer = sharper transition band. */
const ZERO_CROSSINGS = 32;
/** Cut-off as a fraction of the lower of the two Nyquist frequencies (room for the transition band). */
const ROLLOFF = 0.92;
/** Kaiser beta: 8.6 gives about 85 dB stop-band attenuation. */
const KAISER_BETA = 8.6;
/**
 * Most phases kept in a table. An exact rational ratio (44.1k→16k is 160/441) needs one phase per
 * output step; an odd rate (44.056k) would need thousands, so the phase is rounded to one of this
 * many instead — a timing error below 1/8192 of a sample, inaudible and invisible to ASR.
 */
const MAX_PHASES = 4096;

export function resample(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (!Number.isInteger(fromRate) || !Number.isInteger(toRate) || fromRate <= 0 || toRate <= 0) {
    throw new RangeError(`sample rates must be positive integers (got ${fromRate} → ${toRate})`);
  }
  if (fromRate === toRate) return input.slice();
  const g = gcd(fromRate, toRate);
  const up = toRate / g; // L: output steps per `down` input samples
  const down = fromRate / g; // M
  const outLen = Math.ceil((input.length * up) / down);
  const out = new Float32Array(outLen);
  if (outLen === 0) return out;

  const table = filterTable(fromRate, toRate);
  const { taps, phases, half } = table;
  const exact = phases === up;
  const last = input.length - 1;

  for (let n = 0; n < outLen; n++) {
    // Position of output sample n on the input timeline is n·M/L = k0 + rem/L.
    const num = n * down;
    let k0 = Math.floor(num / up);
    const rem = num - k0 * up;
    let phase = exact ? rem : Math.round((rem * phases) / up);
    if (phase === phases) {
      phase = 0;
      k0++;
    }
    const w = table.weights;
    const base = phase * taps;
    const first = k0 - half + 1; // input index under weight 0
    let acc = 0;
    if (first >= 0 && first + taps - 1 <= last) {
      for (let j = 0; j < taps; j++) acc += w[base + j]! * input[first + j]!;
    } else {
      // Edges: samples outside the signal count as silence.
      for (let j = 0; j < taps; j++) {
        const k = first + j;
        if (k >= 0 && k <= last) acc += w[base + j]! * input[k]!;
      }
    }
    out[n] = acc;
  }
  return out;
}

interface FilterTable {
  weights: Float64Array;
  taps: number;
  phases: number;
  /** Taps on each side: weight j of a phase applies to input k0 - half + 1 + j. */
  half: number;
}

const tables = new Map<string, FilterTable>();

function filterTable(fromRate: number, toRate: number): FilterTable {
  const key = `${fromRate}:${toRate}`;
  const cached = tables.get(key);
  if (cached) return cached;
  const g = gcd(fromRate, toRate);
  const up = toRate / g;
  const phases = Math.min(up, MAX_PHASES);
  // Cut-off in cycles per input sample; below the output Nyquist when going down.
  const fc = 0.5 * Math.min(1, toRate / fromRate) * ROLLOFF;
  const halfWidth = ZERO_CROSSINGS / (2 * fc); // in input samples
  const half = Math.ceil(halfWidth);
  const taps = 2 * half;
  const weights = new Float64Array(phases * taps);
  const i0Beta = besselI0(KAISER_BETA);
  for (let p = 0; p < phases; p++) {
    const frac = p / phases;
    let sum = 0;
    for (let j = 0; j < taps; j++) {
      // Distance from the output instant (k0 + frac) back to input sample k0 - half + 1 + j.
      const x = frac + half - 1 - j;
      const r = x / halfWidth;
      const h = Math.abs(r) >= 1 ? 0 : 2 * fc * sinc(2 * fc * x) * (besselI0(KAISER_BETA * Math.sqrt(1 - r * r)) / i0Beta);
      weights[p * taps + j] = h;
      sum += h;
    }
    // Normalise each phase to unit DC gain, so a constant stays exactly constant whatever the phase.
    for (let j = 0; j < taps; j++) weights[p * taps + j] = weights[p * taps + j]! / sum;
  }
  const table = { weights, taps, phases, half };
  tables.set(key, table);
  return table;
}

function sinc(x: number): number {
  if (x === 0) return 1;
  const px = Math.PI * x;
  return Math.sin(px) / px;
}

/** Modified Bessel function of the first kind, order 0 (power series; converges fast for beta < 20). */
function besselI0(x: number): number {
  let sum = 1;
  let term = 1;
  const q = (x * x) / 4;
  for (let k = 1; k < 64; k++) {
    term *= q / (k * k);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return sum;
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
