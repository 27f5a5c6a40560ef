/**
 * hark's one internal audio format: 16 kHz, mono, signed 16-bit little-endian. Everything that
 * comes in (microphone, WAV files, POSTed float samples) is converted to this at the edge.
 */
export const SAMPLE_RATE = 16_000;
/** Silero v5 at 16 kHz takes 512-sample windows: 32 ms. The whole pipeline frames at this size. */
export const FRAME_SAMPLES = 512;
export const FRAME_MS = (FRAME_SAMPLES / SAMPLE_RATE) * 1000;

export function msToSamples(ms: number): number {
  return Math.round((ms * SAMPLE_RATE) / 1000);
}

export function samplesToMs(samples: number): number {
  return (samples * 1000) / SAMPLE_RATE;
}

/** Milliseconds to the microsecond, as events and `hark segment --json` report sample positions. */
export function samplesToMsRounded(samples: number): number {
  return Math.round(samplesToMs(samples) * 1000) / 1000;
}

/** View a Node Buffer of s16le bytes as samples without copying when it is aligned. */
export function bufferToInt16(buf: Buffer): Int16Array {
  if (buf.byteOffset % 2 === 0) return new Int16Array(buf.buffer, buf.byteOffset, Math.floor(buf.byteLength / 2));
  const copy = new Uint8Array(buf.byteLength - (buf.byteLength % 2));
  copy.set(buf.subarray(0, copy.byteLength));
  return new Int16Array(copy.buffer);
}

export function int16ToBuffer(pcm: Int16Array): Buffer {
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
}

/** Root mean square level, 0..1 of full scale. */
export function rms(pcm: Int16Array, start = 0, end = pcm.length): number {
  if (end <= start) return 0;
  let sum = 0;
  for (let i = start; i < end; i++) {
    const v = pcm[i]! / 32768;
    sum += v * v;
  }
  return Math.sqrt(sum / (end - start));
}

export function int16ToFloat32(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i]! / 32768;
  return out;
}

/** Float samples in [-1, 1] to s16 with clipping. */
export function float32ToInt16(samples: ArrayLike<number>): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i]!));
    out[i] = v < 0 ? Math.round(v * 32768) : Math.round(v * 32767);
  }
  return out;
}

/** Pieces of 16-bit audio, back to back in one array. */
export function concatPcm(parts: readonly Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
