import type { ServerResponse } from 'node:http';
import { encodeWav } from '../audio/wav.js';

// How the debug server answers: JSON, a WAV, a refusal before the body is read; and what of a URL may be logged.

/** A request URL fit for a log line: the token (and any other query value) never reaches the journal. */
export function withoutToken(raw: string | undefined): string {
  try {
    const u = new URL(raw ?? '/', 'http://localhost');
    return u.pathname.slice(0, 200) + (u.search ? '?' + [...u.searchParams.keys()].map((k) => `${k}=…`).join('&') : '');
  } catch {
    return '(unparsable URL)';
  }
}

/** Answer without reading the body; the connection closes after it, so the unread body is never kept. */
export function refuse(res: ServerResponse, status: 413 | 503, message: string): void {
  res.setHeader('Connection', 'close');
  sendJson(res, status, { error: message, field: '(body)' });
}

export function sendWav(res: ServerResponse, pcm: Int16Array, sampleRate: number, filename: string): void {
  const wav = encodeWav(pcm, sampleRate);
  res.writeHead(200, {
    'Content-Type': 'audio/wav',
    'Content-Length': wav.length,
    'Content-Disposition': `inline; filename="${filename}"`,
    'Cache-Control': 'private, max-age=3600',
  });
  res.end(wav);
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-store' });
  res.end(text);
}
