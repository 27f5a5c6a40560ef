import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { HarkError, errorMessage } from '../core/errors.js';
import { SAMPLE_RATE } from './pcm.js';
import { resample } from './resample.js';

/**
 * WAV in and out. Whatever comes in (s16/s24/s32/float, any channels, any common rate) leaves as
 * hark's one format: 16 kHz mono s16. Anything we cannot read faithfully is refused with a message
 * naming the file and the problem, rather than decoded into noise that the VAD and ASR would then
 * quietly mis-hear.
 */

export interface WavSource {
  sampleRate: number;
  channels: number;
  /** Sample encoding of the file: u8, s16, s24, s32, f32 or f64. */
  format: string;
}

export interface DecodedWav {
  /** 16 kHz mono s16. */
  pcm: Int16Array;
  source: WavSource;
}

const FORMAT_PCM = 0x0001;
const FORMAT_FLOAT = 0x0003;
const FORMAT_EXTENSIBLE = 0xfffe;
/** Bytes 2..15 of every WAVE_FORMAT_EXTENSIBLE subformat GUID (the first two carry the format tag). */
const KSDATAFORMAT_TAIL = Buffer.from([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71]);

/** Names for the compressed tags people actually meet, so the error says what the file is. */
const COMPRESSED_NAMES: Record<number, string> = {
  0x0002: 'Microsoft ADPCM',
  0x0006: 'A-law',
  0x0007: 'µ-law',
  0x0011: 'IMA ADPCM',
  0x0022: 'TrueSpeech',
  0x0031: 'GSM 6.10',
  0x0040: 'G.721 ADPCM',
  0x0050: 'MPEG',
  0x0055: 'MPEG Layer 3',
  0x0092: 'Dolby AC-3 SPDIF',
  0x0161: 'Windows Media Audio',
  0x2000: 'AC-3',
  0x674f: 'Ogg Vorbis',
  0xf1ac: 'FLAC',
};

/**
 * A data chunk size at or above this is a "length unknown" placeholder written by a recorder that
 * was streaming to a pipe and could not seek back: sox writes 0x7FFFF000, arecord 0x80000000,
 * ffmpeg and others 0xFFFFFFFF. Nothing hark handles is 2 GiB, so such a size running past the end
 * of the file means "read to the end", whereas a smaller one that overruns means the file was cut
 * short — and we refuse it, because silently decoding half a recording hides a real fault.
 */
const STREAMING_SIZE = 0x7fff0000;

const MIN_RATE = 4000;
const MAX_RATE = 768_000;

interface Fmt {
  tag: number;
  channels: number;
  sampleRate: number;
  blockAlign: number;
  bits: number;
}

export async function readWavFile(path: string): Promise<DecodedWav> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : errorMessage(err);
    throw new HarkError(`${path}: cannot read WAV file: ${why}`, { cause: err });
  }
  return decodeWav(buf, path);
}

export function decodeWav(buf: Buffer, name: string): DecodedWav {
  const fail = (problem: string): never => {
    throw new HarkError(`${name}: ${problem}`);
  };
  if (buf.length === 0) fail('file is empty, not a WAV file');
  const magic = buf.toString('latin1', 0, Math.min(4, buf.length));
  if (magic === 'RIFX') fail('big-endian WAV (RIFX) is not supported');
  if (magic === 'RF64') fail('RF64 (64-bit WAV) is not supported');
  if (!'RIFF'.startsWith(magic) || (buf.length >= 12 && buf.toString('latin1', 8, 12) !== 'WAVE')) {
    fail('not a WAV file (no RIFF/WAVE header)');
  }
  if (buf.length < 12) fail(`truncated header: file is only ${buf.length} bytes`);

  let fmt: Fmt | undefined;
  let data: { start: number; size: number } | undefined;
  let offset = 12;
  while (offset < buf.length) {
    if (buf.length - offset < 8) {
      // A few stray bytes after the last chunk are harmless once we have what we need.
      if (fmt && data) break;
      fail(`truncated header: chunk header at byte ${offset} is cut off by the end of the file`);
    }
    const id = buf.toString('latin1', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const start = offset + 8;
    const remaining = buf.length - start;
    if (id === 'data') {
      if (data) fail(`second data chunk at byte ${offset} (only one is allowed)`);
      if (size > remaining) {
        if (size < STREAMING_SIZE) {
          fail(`data chunk claims ${size} bytes but only ${remaining} are present (file truncated or chunk size wrong)`);
        }
        data = { start, size: remaining };
        break; // streaming placeholder: the data runs to the end of the file, nothing can follow
      }
      data = { start, size };
    } else {
      if (size > remaining) {
        fail(`chunk '${printable(id)}' at byte ${offset} claims ${size} bytes but only ${remaining} remain (bad chunk size)`);
      }
      if (id === 'fmt ') {
        if (fmt) fail(`second fmt chunk at byte ${offset}`);
        fmt = parseFmt(buf.subarray(start, start + size), fail);
      }
      // LIST, fact, cue, bext, JUNK, ...: metadata we have no use for.
    }
    // Chunks are word-aligned: an odd-sized chunk is followed by a pad byte (which may be missing at EOF).
    offset = start + size + (size & 1);
  }

  if (!fmt) return fail('no fmt chunk (not a valid WAV file)');
  if (!data) return fail('no data chunk (no audio in the file)');
  if (data.size === 0) fail('data chunk is empty (zero-length audio)');

  let bytes = data.size;
  if (bytes % fmt.blockAlign !== 0) {
    if (data.size === buf.length - data.start && fromStreamingHeader(buf, data.start)) {
      bytes -= bytes % fmt.blockAlign; // a stream cut mid-frame: drop the partial frame
    } else {
      fail(`data chunk size ${data.size} is not a whole number of ${fmt.blockAlign}-byte sample frames (odd chunk size)`);
    }
  }
  if (bytes === 0) fail('data chunk is empty (zero-length audio)');

  const source: WavSource = { sampleRate: fmt.sampleRate, channels: fmt.channels, format: formatName(fmt) };
  const body = buf.subarray(data.start, data.start + bytes);
  return { pcm: toHarkPcm(body, fmt), source };
}

/** 16 kHz mono s16 as a canonical 44-byte-header RIFF/WAVE. */
export function encodeWav(pcm: Int16Array, sampleRate = SAMPLE_RATE): Buffer {
  const dataBytes = pcm.length * 2;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'latin1');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'latin1');
  buf.write('fmt ', 12, 'latin1');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(FORMAT_PCM, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(sampleRate, 24);
  buf.writeUInt32LE(sampleRate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36, 'latin1');
  buf.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < pcm.length; i++) buf.writeInt16LE(pcm[i]!, 44 + i * 2);
  return buf;
}

/**
 * Write via a temporary file and rename, so a reader (the debug viewer) never sees half a file and
 * a crash mid-write never leaves a truncated segment behind.
 */
export async function writeWavFile(path: string, pcm: Int16Array, sampleRate = SAMPLE_RATE): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, encodeWav(pcm, sampleRate));
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true });
    throw new HarkError(`${path}: cannot write WAV file: ${errorMessage(err)}`, { cause: err });
  }
}

function parseFmt(chunk: Buffer, fail: (problem: string) => never): Fmt {
  if (chunk.length < 16) fail(`truncated header: fmt chunk is ${chunk.length} bytes, needs at least 16`);
  let tag = chunk.readUInt16LE(0);
  const channels = chunk.readUInt16LE(2);
  const sampleRate = chunk.readUInt32LE(4);
  const blockAlign = chunk.readUInt16LE(12);
  const bits = chunk.readUInt16LE(14);
  if (tag === FORMAT_EXTENSIBLE) {
    if (chunk.length < 40) fail(`truncated header: extensible fmt chunk is ${chunk.length} bytes, needs 40`);
    const guid = chunk.subarray(24, 40);
    if (!guid.subarray(2).equals(KSDATAFORMAT_TAIL)) fail(`unknown WAVE_FORMAT_EXTENSIBLE subformat ${guid.toString('hex')}`);
    tag = guid.readUInt16LE(0);
  }
  if (tag !== FORMAT_PCM && tag !== FORMAT_FLOAT) {
    const hex = `0x${tag.toString(16).padStart(4, '0').toUpperCase()}`;
    const known = COMPRESSED_NAMES[tag];
    fail(`compressed format ${hex}${known ? ` (${known})` : ''} is not supported; convert it first, e.g. sox in.wav -e signed -b 16 out.wav`);
  }
  if (channels === 0) fail('fmt chunk says 0 channels');
  if (sampleRate === 0) fail('fmt chunk says sample rate 0');
  if (sampleRate < MIN_RATE || sampleRate > MAX_RATE) {
    fail(`sample rate ${sampleRate} Hz is outside the supported ${MIN_RATE}–${MAX_RATE} Hz`);
  }
  const supported = tag === FORMAT_PCM ? [8, 16, 24, 32] : [32, 64];
  if (!supported.includes(bits)) {
    fail(`unsupported bit depth: ${bits}-bit ${tag === FORMAT_PCM ? 'PCM' : 'float'} (supported: ${supported.join(', ')})`);
  }
  if (blockAlign !== channels * (bits / 8)) {
    fail(`fmt chunk block align ${blockAlign} does not match ${channels} channel(s) of ${bits}-bit samples`);
  }
  return { tag, channels, sampleRate, blockAlign, bits };
}

function formatName(fmt: Fmt): string {
  if (fmt.tag === FORMAT_FLOAT) return `f${fmt.bits}`;
  return fmt.bits === 8 ? 'u8' : `s${fmt.bits}`;
}

/** The only pad-free partial frame we forgive: a data chunk whose size is a streaming placeholder. */
function fromStreamingHeader(buf: Buffer, dataStart: number): boolean {
  return buf.readUInt32LE(dataStart - 4) >= STREAMING_SIZE;
}

function toHarkPcm(body: Buffer, fmt: Fmt): Int16Array {
  const frames = body.length / fmt.blockAlign;
  const { channels } = fmt;
  // The common case — already 16 kHz s16 — stays in integers so it passes through bit-exact.
  if (fmt.tag === FORMAT_PCM && fmt.bits === 16 && fmt.sampleRate === SAMPLE_RATE) {
    const out = new Int16Array(frames);
    if (channels === 1) {
      for (let i = 0; i < frames; i++) out[i] = body.readInt16LE(i * 2);
    } else {
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += body.readInt16LE((i * channels + c) * 2);
        out[i] = Math.round(sum / channels);
      }
    }
    return out;
  }
  const mono = downmixToFloat(body, fmt, frames);
  return floatToS16(fmt.sampleRate === SAMPLE_RATE ? mono : resample(mono, fmt.sampleRate, SAMPLE_RATE));
}

/**
 * Average the channels into one float signal, full scale ±1. Averaging (not summing) keeps a mono
 * source recorded as identical stereo channels at its original level and can never clip.
 */
function downmixToFloat(body: Buffer, fmt: Fmt, frames: number): Float32Array {
  const { channels, bits, tag } = fmt;
  const bytes = bits / 8;
  const read: (at: number) => number =
    tag === FORMAT_FLOAT
      ? bits === 32
        ? (at) => body.readFloatLE(at)
        : (at) => body.readDoubleLE(at)
      : bits === 8
        ? (at) => (body[at]! - 128) / 128 // 8-bit WAV is unsigned, centred on 128
        : bits === 16
          ? (at) => body.readInt16LE(at) / 32768
          : bits === 24
            ? (at) => body.readIntLE(at, 3) / 8388608
            : (at) => body.readInt32LE(at) / 2147483648;
  const out = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += read((i * channels + c) * bytes);
    out[i] = sum / channels;
  }
  return out;
}

/**
 * ±1 float to s16 with the same ×32768 scale the decoder divides by, so s16 → float → s16 is exact;
 * out-of-range float samples (legal in float WAVs) are clipped.
 */
function floatToS16(x: Float32Array): Int16Array {
  const out = new Int16Array(x.length);
  for (let i = 0; i < x.length; i++) {
    const v = Math.round(x[i]! * 32768);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}

function printable(id: string): string {
  return id.replace(/[^\x20-\x7e]/g, '?');
}
