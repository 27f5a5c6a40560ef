import type { IncomingMessage } from 'node:http';

/** Past the limit we keep reading (and discarding) up to this, so the client gets to read our 413. */
const DRAIN_CAP_BYTES = 64 * 1024 * 1024;

export type BodyResult = { ok: true; text: string } | { ok: false; status: 400 | 413; message: string };

/**
 * Read a request body of at most `limit` bytes. An oversized body is never buffered: the bytes past
 * the limit are counted and dropped, and a body past the drain cap has its connection cut.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    const chunks: Buffer[] = [];
    let total = 0;
    let settled = false;
    const done = (r: BodyResult) => {
      if (settled) return;
      settled = true;
      resolve(r);
    };
    const tooLarge = (): BodyResult => ({
      ok: false,
      status: 413,
      message: `request body is larger than the ${formatBytes(limit)} limit${Number.isFinite(declared) ? ` (${formatBytes(declared)} sent)` : ''}`,
    });
    req.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limit && !(declared > limit)) {
        chunks.push(chunk);
      } else if (total > DRAIN_CAP_BYTES) {
        done(tooLarge());
        req.destroy();
      }
    });
    req.on('end', () => done(total > limit || declared > limit ? tooLarge() : { ok: true, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', () => done({ ok: false, status: 400, message: 'request body was cut off' }));
    req.on('aborted', () => done({ ok: false, status: 400, message: 'request body was cut off' }));
  });
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / (1024 * 1024)) * 10) / 10} MB` : `${n} bytes`;
}
