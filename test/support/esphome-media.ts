import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

/** A spoken answer as Home Assistant's TTS would serve it: espeak-ng's WAV, made an MP3 or kept WAV by sox. */
export function ttsFile(dir: string, text: string, format: 'wav' | 'mp3'): Buffer {
  const wav = join(dir, `tts-${format}.wav`);
  execFileSync('espeak-ng', ['-w', wav, text]);
  if (format === 'wav') return readFileSync(wav);
  const mp3 = join(dir, 'tts.mp3');
  execFileSync('sox', [wav, '-C', '64', mp3]);
  return readFileSync(mp3);
}

/** A local HTTP server for TTS URLs (127.0.0.1 only): path → bytes; anything else 404. */
export async function mediaServer(files: Record<string, Buffer>): Promise<{ url: (p: string) => string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const body = files[req.url ?? ''];
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { url: (p) => `http://127.0.0.1:${port}${p}`, hits, close: () => new Promise((r) => server.close(() => r())) };
}
