import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Run the real sox; throws with sox's own message if it fails. */
export function sox(...args: string[]): Buffer {
  return execFileSync('sox', args, { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Run sox with `input` on its stdin (for streamed, unknown-length output). */
export function soxPipe(input: Buffer, args: string[]): Buffer {
  return execFileSync('sox', args, { input, maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** A WAV's samples as sox (not our decoder) reads them: 16 kHz mono s16, no dither. */
export function soxSamples(path: string): Int16Array {
  const raw = sox('-D', path, '-t', 'raw', '-e', 'signed', '-b', '16', '-c', '1', '-r', '16000', '-');
  const out = new Int16Array(raw.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = raw.readInt16LE(i * 2);
  return out;
}

/** Signal-to-error ratio of `test` against `ref`, in dB, over their common length. */
export function snrDb(ref: ArrayLike<number>, test: ArrayLike<number>): number {
  const n = Math.min(ref.length, test.length);
  let sig = 0;
  let err = 0;
  for (let i = 0; i < n; i++) {
    sig += ref[i]! * ref[i]!;
    const d = ref[i]! - test[i]!;
    err += d * d;
  }
  return 10 * Math.log10(sig / Math.max(err, 1e-9));
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `hark-${prefix}-`));
}

export function sine(freqHz: number, rate: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * freqHz * i) / rate);
  return out;
}

/** RMS of the middle of a signal (edges excluded so filter start-up does not count). */
export function midRms(x: ArrayLike<number>, edge: number): number {
  let sum = 0;
  let n = 0;
  for (let i = edge; i < x.length - edge; i++) {
    sum += x[i]! * x[i]!;
    n++;
  }
  return Math.sqrt(sum / n);
}
