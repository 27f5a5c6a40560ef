import FFT from 'fft.js';

/**
 * Two cross-correlations over the same stretch at once, by FFT: for lag 0..maxLag,
 *   c1[lag] = Σ a1[i]·b1[i−lag],  c2[lag] = Σ a2[i]·b2[i−lag],  i over [from, to).
 * The delay tracker (delay.ts) needs the plain and the whitened correlation of the microphone with
 * the reference over 400 lags: summed directly that was 2.4 M multiply-adds, ~10 ms once a second on
 * the capture path, half the echo stage's mean cost per frame. By FFT it is four real transforms and
 * one complex inverse (both results come back from one inverse, as its real and imaginary parts,
 * since each is real). fft.js: a radix-4 FFT in plain JavaScript (no native build on arm64), the
 * fastest of the pure-JS FFTs in its own and third-party benchmarks.
 *
 * `from` must be at least maxLag (no lag reaches before the arrays' start) and the arrays no longer
 * than the size given: then the FFT's circular correlation is the linear one. Allocation-free per call.
 */
export class CrossCorrelation {
  private readonly fft: FFT;
  private readonly n: number;
  private readonly input: Float64Array;
  private readonly spectra: Float64Array[];
  private readonly product: Float64Array;
  private readonly result: Float64Array;

  /** `length`: the longest arrays correlated (the delay tracker's window plus its lags). */
  constructor(length: number) {
    let n = 4;
    while (n < length) n *= 2;
    this.n = n;
    this.fft = new FFT(n);
    this.input = new Float64Array(n);
    this.spectra = [0, 1, 2, 3].map(() => new Float64Array(2 * n));
    this.product = new Float64Array(2 * n);
    this.result = new Float64Array(2 * n);
  }

  /** Fill out1[0..maxLag] and out2[0..maxLag]; a1, a2 are read over [from, to), b1, b2 wholly. */
  correlate(
    a1: Float32Array,
    b1: Float32Array,
    a2: Float32Array,
    b2: Float32Array,
    from: number,
    to: number,
    maxLag: number,
    out1: Float64Array,
    out2: Float64Array,
  ): void {
    if (from < maxLag || to > this.n || b1.length > this.n || b2.length > this.n) throw new RangeError('CrossCorrelation: lags would reach outside the arrays');
    const [A1, B1, A2, B2] = this.spectra as [Float64Array, Float64Array, Float64Array, Float64Array];
    this.transform(a1, from, to, A1);
    this.transform(b1, 0, b1.length, B1);
    this.transform(a2, from, to, A2);
    this.transform(b2, 0, b2.length, B2);
    // Z = A1·conj(B1) + i·A2·conj(B2): its inverse is c1 + i·c2.
    const z = this.product;
    for (let k = 0; k < 2 * this.n; k += 2) {
      const p1r = A1[k]! * B1[k]! + A1[k + 1]! * B1[k + 1]!;
      const p1i = A1[k + 1]! * B1[k]! - A1[k]! * B1[k + 1]!;
      const p2r = A2[k]! * B2[k]! + A2[k + 1]! * B2[k + 1]!;
      const p2i = A2[k + 1]! * B2[k]! - A2[k]! * B2[k + 1]!;
      z[k] = p1r - p2i;
      z[k + 1] = p1i + p2r;
    }
    this.fft.inverseTransform(this.result, z);
    for (let lag = 0; lag <= maxLag; lag++) {
      out1[lag] = this.result[2 * lag]!;
      out2[lag] = this.result[2 * lag + 1]!;
    }
  }

  private transform(x: Float32Array, from: number, to: number, out: Float64Array): void {
    const input = this.input;
    input.fill(0);
    for (let i = from; i < to; i++) input[i] = x[i]!;
    this.fft.realTransform(out, input);
    this.fft.completeSpectrum(out);
  }
}
