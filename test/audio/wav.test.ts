import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HarkError } from '../../src/core/errors.js';
import { decodeWav, encodeWav, readWavFile, writeWavFile } from '../../src/audio/wav.js';
import { JFK_WAV, outputDir, requireFile } from '../support/paths.js';
import { snrDb, sox, soxPipe, soxSamples } from './helpers.js';

const dir = outputDir('audio-wav');
let jfk: Int16Array; // the reference, as sox reads it
const JFK_SAMPLES = 176_000;

beforeAll(() => {
  requireFile(JFK_WAV);
  jfk = soxSamples(JFK_WAV);
});

/** Make a file from jfk.wav with real sox and return its path. */
function made(name: string, ...effects: string[]): string {
  const path = join(dir, name);
  sox(JFK_WAV, ...effects, path);
  return path;
}

function bytesOf(name: string, buf: Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, buf);
  return path;
}

async function rejection(path: string): Promise<string> {
  const err = await readWavFile(path).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HarkError);
  const message = (err as HarkError).message;
  expect(message.startsWith(`${path}: `)).toBe(true); // names the file
  return message;
}

describe('WAV round trip', () => {
  it('writes and reads back 16 kHz mono s16 bit-exact, and sox reads our file the same', async () => {
    const path = join(dir, 'roundtrip.wav');
    await writeWavFile(path, jfk);
    const back = await readWavFile(path);
    expect(back.source).toEqual({ sampleRate: 16000, channels: 1, format: 's16' });
    expect(Buffer.from(back.pcm.buffer).equals(Buffer.from(jfk.buffer))).toBe(true);
    expect(Buffer.from(soxSamples(path).buffer).equals(Buffer.from(jfk.buffer))).toBe(true);
  });

  it('passes the original jfk.wav (fmt, LIST, data) through bit-exact', async () => {
    const { pcm, source } = await readWavFile(JFK_WAV);
    expect(source).toEqual({ sampleRate: 16000, channels: 1, format: 's16' });
    expect(Buffer.from(pcm.buffer).equals(Buffer.from(jfk.buffer))).toBe(true);
  });

  it('encodes odd sample values and extremes exactly', () => {
    const pcm = Int16Array.from([-32768, -1, 0, 1, 32767, 12345]);
    expect(Array.from(decodeWav(encodeWav(pcm), 'x.wav').pcm)).toEqual(Array.from(pcm));
  });

  it('writes the header for another rate when asked', () => {
    const buf = encodeWav(new Int16Array(10), 8000);
    expect(decodeWav(buf, 'x.wav').source.sampleRate).toBe(8000);
  });
});

describe('decoding every supported format made by sox', () => {
  // [file, sox options, expected source, minimum SNR in dB against the 16 kHz original]
  const cases: Array<[string, string[], { sampleRate: number; channels: number; format: string }, number]> = [
    ['s24-44k1-stereo.wav', ['-b', '24', '-r', '44100', '-c', '2'], { sampleRate: 44100, channels: 2, format: 's24' }, 50],
    ['s32-48k.wav', ['-b', '32', '-r', '48000'], { sampleRate: 48000, channels: 1, format: 's32' }, 50],
    ['f32-16k-4ch.wav', ['-e', 'floating-point', '-b', '32', '-c', '4'], { sampleRate: 16000, channels: 4, format: 'f32' }, 90],
    ['f32-96k.wav', ['-e', 'floating-point', '-b', '32', '-r', '96000'], { sampleRate: 96000, channels: 1, format: 'f32' }, 50],
    ['f64-22k05.wav', ['-e', 'floating-point', '-b', '64', '-r', '22050'], { sampleRate: 22050, channels: 1, format: 'f64' }, 50],
    ['s16-32k-6ch.wav', ['-b', '16', '-r', '32000', '-c', '6'], { sampleRate: 32000, channels: 6, format: 's16' }, 50],
    ['s16-24k.wav', ['-b', '16', '-r', '24000'], { sampleRate: 24000, channels: 1, format: 's16' }, 50],
    ['u8-16k.wav', ['-e', 'unsigned', '-b', '8'], { sampleRate: 16000, channels: 1, format: 'u8' }, 30],
  ];

  it.each(cases)('%s', async (name, opts, expected, minSnr) => {
    const path = made(name, '-D', ...opts);
    const { pcm, source } = await readWavFile(path);
    expect(source).toEqual(expected);
    // Duration survives: within one output sample of the original's 11.000 s.
    expect(Math.abs(pcm.length - JFK_SAMPLES)).toBeLessThanOrEqual(1);
    // The speech survives: no delay, no level change, no aliasing (a delay of even one sample or a
    // missing low-pass would drop these well under the bar).
    expect(snrDb(jfk, pcm)).toBeGreaterThan(minSnr);
  });

  it('downsampled audio matches what sox itself makes of the same file', async () => {
    const path = made('s16-48k-cmp.wav', '-D', '-r', '48000');
    const ours = (await readWavFile(path)).pcm;
    expect(snrDb(soxSamples(path), ours)).toBeGreaterThan(60);
  });

  it('upsamples low-rate telephony audio (8 kHz, 11.025 kHz) to 16 kHz with the right length and content', async () => {
    for (const rate of ['8000', '11025']) {
      const path = made(`s16-${rate}.wav`, '-D', '-r', rate);
      const ours = (await readWavFile(path)).pcm;
      expect(Math.abs(ours.length - JFK_SAMPLES)).toBeLessThanOrEqual(1);
      // The band above the low rate's Nyquist is gone for good, so compare with sox's own upsampling.
      expect(snrDb(soxSamples(path), ours)).toBeGreaterThan(35);
    }
  });

  it('u8 at 16 kHz decodes exactly as sox widens it to 16 bits', async () => {
    const path = made('u8-exact.wav', '-D', '-e', 'unsigned', '-b', '8');
    expect(Array.from((await readWavFile(path)).pcm)).toEqual(Array.from(soxSamples(path)));
  });

  it('16 kHz s16 with identical channels downmixes bit-exact; different channels are averaged', async () => {
    const six = made('s16-16k-6ch.wav', '-c', '6');
    expect(Buffer.from((await readWavFile(six)).pcm.buffer).equals(Buffer.from(jfk.buffer))).toBe(true);

    // Left = speech, right = silence: averaging gives the speech at half level, never clipping.
    const silence = join(dir, 'silence.wav');
    sox('-D', '-n', '-r', '16000', '-b', '16', '-c', '1', silence, 'trim', '0', '11');
    const half = join(dir, 'left-speech-right-silence.wav');
    sox('-D', '-M', JFK_WAV, silence, half);
    const { pcm } = await readWavFile(half);
    let worst = 0;
    for (let i = 0; i < pcm.length; i++) worst = Math.max(worst, Math.abs(pcm[i]! - jfk[i]! / 2));
    expect(worst).toBeLessThanOrEqual(0.5);
  });

  it('reads WAVE_FORMAT_EXTENSIBLE with a float subformat', async () => {
    // sox writes float as tag 3; rewrite its header as extensible by hand to cover the other spelling.
    const plain = readFileSync(made('f32-plain.wav', '-e', 'floating-point', '-b', '32', '-c', '2'));
    const { pcm: expected } = decodeWav(plain, 'plain');
    const ext = extensibleFrom(plain, 0x0003);
    const { pcm, source } = decodeWav(ext, 'ext.wav');
    expect(source.format).toBe('f32');
    expect(Array.from(pcm)).toEqual(Array.from(expected));
  });

  it('accepts a streamed WAV whose sizes are "unknown length" placeholders, as sox, arecord and ffmpeg write them', async () => {
    // sox writing to a pipe cannot seek back, so it leaves 0x7FFFF000 in the size fields.
    const raw = sox(JFK_WAV, '-t', 'raw', '-');
    const piped = soxPipe(raw, ['-t', 'raw', '-r', '16000', '-e', 'signed', '-b', '16', '-c', '1', '-', '-t', 'wav', '-']);
    expect(piped.readUInt32LE(40)).toBe(0x7ffff000);
    const sox1 = decodeWav(piped, 'piped.wav').pcm;
    expect(Buffer.from(sox1.buffer).equals(Buffer.from(jfk.buffer))).toBe(true);

    // arecord's 0x80000000 and ffmpeg's 0xFFFFFFFF, on a stream cut mid-sample: keep the whole samples.
    for (const sentinel of [0x80000000, 0xffffffff]) {
      const buf = Buffer.from(encodeWav(jfk.subarray(0, 1000)).subarray(0, 44 + 1999));
      buf.writeUInt32LE(sentinel, 40);
      buf.writeUInt32LE(sentinel, 4);
      expect(Array.from(decodeWav(buf, 'stream.wav').pcm)).toEqual(Array.from(jfk.subarray(0, 999)));
    }
  });

  it('skips unknown chunks and honours the pad byte after an odd-sized one', () => {
    const base = encodeWav(jfk.subarray(0, 100));
    const odd = Buffer.concat([Buffer.from('junk'), u32(3), Buffer.from([1, 2, 3, 0])]); // 3 bytes + pad
    const withJunk = Buffer.concat([base.subarray(0, 36), odd, base.subarray(36)]);
    withJunk.writeUInt32LE(withJunk.length - 8, 4);
    expect(Array.from(decodeWav(withJunk, 'junk.wav').pcm)).toEqual(Array.from(jfk.subarray(0, 100)));
  });
});

describe('rejecting what cannot be decoded faithfully', () => {
  const header = () => Buffer.from(encodeWav(Int16Array.from([1, 2, 3, 4])));

  it('not a WAV file at all', async () => {
    expect(await rejection(bytesOf('notes.wav', Buffer.from('shopping list: eggs, milk\n')))).toMatch(/not a WAV file/);
    const flac = join(dir, 'really-flac.wav');
    sox(JFK_WAV, '-t', 'flac', flac);
    expect(await rejection(flac)).toMatch(/not a WAV file/);
    expect(await rejection(bytesOf('empty.wav', Buffer.alloc(0)))).toMatch(/empty/);
  });

  it('truncated header', async () => {
    expect(await rejection(bytesOf('cut-8.wav', readFileSync(JFK_WAV).subarray(0, 8)))).toMatch(/truncated header: file is only 8 bytes/);
    expect(await rejection(bytesOf('cut-30.wav', readFileSync(JFK_WAV).subarray(0, 30)))).toMatch(/chunk 'fmt ' at byte 12 claims 16 bytes but only 10 remain/);
    expect(await rejection(bytesOf('cut-16.wav', readFileSync(JFK_WAV).subarray(0, 16)))).toMatch(/truncated header: chunk header at byte 12/);
  });

  it('a chunk size that runs past the end of the file', async () => {
    const buf = readFileSync(JFK_WAV);
    const bad = Buffer.from(buf);
    bad.writeUInt32LE(0x00100001, 40); // the LIST chunk's size
    expect(await rejection(bytesOf('bad-list.wav', bad))).toMatch(/chunk 'LIST' at byte 36 claims 1048577 bytes but only \d+ remain/);
  });

  it('a data chunk claiming more than is there (a truncated file, not a stream)', async () => {
    const cut = readFileSync(JFK_WAV).subarray(0, 200_000);
    expect(await rejection(bytesOf('truncated-data.wav', cut))).toMatch(/data chunk claims 352000 bytes but only 199922 are present/);
  });

  it('an odd data size that is not a whole number of samples', async () => {
    const buf = header();
    buf.writeUInt32LE(7, 40);
    expect(await rejection(bytesOf('odd-data.wav', buf))).toMatch(/data chunk size 7 is not a whole number of 2-byte sample frames/);
  });

  it.each([
    ['ima-adpcm', /compressed format 0x0011 \(IMA ADPCM\) is not supported/],
    ['ms-adpcm', /compressed format 0x0002 \(Microsoft ADPCM\) is not supported/],
    ['a-law', /compressed format 0x0006 \(A-law\) is not supported/],
    ['u-law', /compressed format 0x0007 \(µ-law\) is not supported/],
    ['gsm-full-rate', /compressed format 0x0031 \(GSM 6.10\) is not supported/],
  ])('compressed: %s', async (encoding, pattern) => {
    expect(await rejection(made(`${encoding}.wav`, '-e', encoding))).toMatch(pattern);
  });

  it('zero-length data', async () => {
    const path = join(dir, 'zero.wav');
    sox('-n', '-r', '16000', '-b', '16', '-c', '1', path, 'trim', '0', '0');
    expect(await rejection(path)).toMatch(/data chunk is empty/);
  });

  it('missing fmt or data chunk', async () => {
    const full = header();
    const noData = full.subarray(0, 36);
    expect(await rejection(bytesOf('no-data.wav', noData))).toMatch(/no data chunk/);
    const noFmt = Buffer.concat([full.subarray(0, 12), full.subarray(36)]);
    expect(await rejection(bytesOf('no-fmt.wav', noFmt))).toMatch(/no fmt chunk/);
  });

  it('unsupported bit depth, zero channels, zero rate', async () => {
    const bits = header();
    bits.writeUInt16LE(12, 34);
    expect(await rejection(bytesOf('12-bit.wav', bits))).toMatch(/unsupported bit depth: 12-bit PCM/);
    const ch = header();
    ch.writeUInt16LE(0, 22);
    expect(await rejection(bytesOf('0ch.wav', ch))).toMatch(/0 channels/);
    const rate = header();
    rate.writeUInt32LE(0, 24);
    expect(await rejection(bytesOf('0hz.wav', rate))).toMatch(/sample rate 0/);
    const f16 = header();
    f16.writeUInt16LE(3, 20);
    expect(await rejection(bytesOf('f16.wav', f16))).toMatch(/unsupported bit depth: 16-bit float/);
  });

  it('a file that is not there', async () => {
    expect(await rejection(join(dir, 'nope.wav'))).toMatch(/cannot read WAV file: no such file/);
  });
});

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** Rewrite a plain 16/18-byte fmt chunk as a 40-byte WAVE_FORMAT_EXTENSIBLE one with `subformat`. */
function extensibleFrom(plain: Buffer, subformat: number): Buffer {
  const fmtSize = plain.readUInt32LE(16);
  const fmt = plain.subarray(20, 20 + 16);
  const ext = Buffer.alloc(40);
  fmt.copy(ext, 0);
  ext.writeUInt16LE(0xfffe, 0);
  ext.writeUInt16LE(22, 16); // cbSize
  ext.writeUInt16LE(fmt.readUInt16LE(14), 18); // valid bits
  ext.writeUInt32LE(0, 20); // channel mask
  ext.writeUInt16LE(subformat, 24);
  Buffer.from([0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xaa, 0x00, 0x38, 0x9b, 0x71]).copy(ext, 26);
  const rest = plain.subarray(20 + fmtSize + (fmtSize & 1));
  const out = Buffer.concat([plain.subarray(0, 12), Buffer.from('fmt '), u32(40), ext, rest]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}
