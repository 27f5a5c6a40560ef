import { spawn } from 'node:child_process';
import { SAMPLE_RATE } from '../../audio/pcm.js';

/**
 * Home Assistant's TTS answers and announcements arrive as URLs (MP3 by default, WAV or FLAC if
 * asked): fetched here with a size and time limit, then decoded to hark's playback format (s16le
 * mono 16 kHz) by Debian's sox (libsox-fmt-all brings MP3), a child process — the same tool hark
 * already installs, and no decoder of our own.
 */

export async function fetchMedia(url: string, o: { maxBytes: number; timeoutMs: number }): Promise<Buffer> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`not a URL: ${JSON.stringify(url.slice(0, 200))}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`not an http(s) URL: ${u.protocol}`);
  const res = await fetch(u, { signal: AbortSignal.timeout(o.timeoutMs) }).catch((err: unknown) => {
    const e = err as Error;
    throw new Error(e.name === 'TimeoutError' ? `fetching ${u.href} took over ${o.timeoutMs} ms` : `fetching ${u.href} failed: ${e.message}`);
  });
  if (!res.ok) throw new Error(`fetching ${u.href}: HTTP ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > o.maxBytes) throw new Error(`${u.href} is ${declared} bytes, over the ${o.maxBytes}-byte limit`);
  const parts: Buffer[] = [];
  let n = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      n += chunk.length;
      if (n > o.maxBytes) throw new Error(`${u.href} is over the ${o.maxBytes}-byte limit`);
      parts.push(Buffer.from(chunk));
    }
  } catch (err) {
    const e = err as Error;
    throw e.name === 'TimeoutError' ? new Error(`fetching ${u.href} took over ${o.timeoutMs} ms`) : e;
  }
  return Buffer.concat(parts);
}

/** The container, from its first bytes (sox cannot guess it from a pipe). */
export function sniffFormat(b: Uint8Array): 'wav' | 'mp3' | 'flac' | 'ogg' | null {
  const s = Buffer.from(b.subarray(0, 4)).toString('latin1');
  if (s === 'RIFF') return 'wav';
  if (s === 'fLaC') return 'flac';
  if (s === 'OggS') return 'ogg';
  if (s.startsWith('ID3') || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0)) return 'mp3';
  return null;
}

export function decodeToPcm(bytes: Buffer, o: { timeoutMs?: number; bin?: string } = {}): Promise<Int16Array> {
  const type = sniffFormat(bytes);
  if (!type) return Promise.reject(new Error('audio is not WAV, MP3, FLAC or Ogg'));
  // -D: no dither, so the same file always decodes to the same samples.
  const args = ['-q', '-D', '-t', type, '-', '-t', 'raw', '-e', 'signed-integer', '-b', '16', '-L', '-c', '1', '-r', String(SAMPLE_RATE), '-'];
  return new Promise((resolve, reject) => {
    const child = spawn(o.bin ?? 'sox', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 15_000);
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run sox to decode audio: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`sox could not decode the ${type}: ${signal ? `killed (${signal})` : err.trim().split('\n').pop() || `exit ${code}`}`));
      const all = Buffer.concat(out);
      const pcm = new Int16Array(all.length >> 1);
      for (let i = 0; i < pcm.length; i++) pcm[i] = all.readInt16LE(i * 2);
      resolve(pcm);
    });
    child.stdin.on('error', () => {}); // sox may exit before reading it all; 'close' reports why
    child.stdin.end(bytes);
  });
}
