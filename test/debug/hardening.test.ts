import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

/**
 * Hostile and odd HTTP input, against a real server on 127.0.0.1.
 */
const TOKEN = 'b3f1c2d4e5a6978812ab34cd56ef7890';

/** Send the headers (and maybe part of a body) and hold the request open: resolves with the response. */
function openUpload(url: string, contentLength: number, firstBytes = 0): { response: Promise<{ status: number; body: string }>; abort: () => void } {
  const u = new URL('/api/segments', url);
  const req = request({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Length': contentLength },
  });
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
  });
  // an aborted upload's response fails with a hang-up: that is expected, not an error of the test
  response.catch(() => {});
  req.flushHeaders();
  if (firstBytes > 0) req.write('{"samples":[' + '0,'.repeat(firstBytes / 2));
  return { response, abort: () => req.destroy() };
}

const within = <T>(p: Promise<T>, ms: number, what: string) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms))]);

describe('uploads are refused before they are read', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('answers 413 from Content-Length alone, without waiting for the body', async () => {
    h = await startHarness({ suite: 'debug-hardening' });
    const up = openUpload(h.url, 50 * 1024 * 1024);
    try {
      const res = await within(up.response, 3000, 'a 50 MB upload declared and never sent');
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).error).toMatch(/larger than the 10 MB limit/);
    } finally {
      up.abort();
    }
  });

  it('bounds how many bodies are read at once: the next one gets 503 with Retry-After at once', async () => {
    h = await startHarness({ suite: 'debug-hardening' });
    const slow = [openUpload(h.url, 5 * 1024 * 1024, 4096), openUpload(h.url, 5 * 1024 * 1024, 4096)];
    try {
      await new Promise((r) => setTimeout(r, 200));
      const third = openUpload(h.url, 5 * 1024 * 1024, 4096);
      const res = await within(third.response, 3000, 'a third upload while two are being read');
      third.abort();
      expect(res.status).toBe(503);
      expect(JSON.parse(res.body).error).toMatch(/too many uploads at once/);
    } finally {
      for (const s of slow) s.abort();
    }
    // the slots come back once those uploads are gone
    await new Promise((r) => setTimeout(r, 200));
    const ok = await fetch(new URL('/api/segments', h.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ samples: [0, 0.1], preroll_length: 0, transcript: 'x' }),
    });
    expect(ok.status).toBe(201);
  });
});

describe('the token never stays in a URL and never reaches the log', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it.each([
    ['/index.html', '/index.html'],
    ['/api/segments?limit=5', '/api/segments?limit=5'],
    ['/api/segments/1', '/api/segments/1'],
    ['/viewer.js', '/viewer.js'],
  ])('GET %s with ?token= redirects to %s and sets the cookie', async (path, clean) => {
    h = await startHarness({ suite: 'debug-hardening', server: { token: TOKEN } });
    const sep = path.includes('?') ? '&' : '?';
    const res = await fetch(new URL(`${path}${sep}token=${TOKEN}`, h.url), { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(clean);
    expect(res.headers.get('set-cookie')).toMatch(/^hark_debug_token=/);
  });

  it('does not log the token (or any query value) when a request fails', async () => {
    h = await startHarness({ suite: 'debug-hardening', server: { token: TOKEN } });
    h.store.close(); // every store call now throws: a 500
    const res = await fetch(new URL(`/api/segments?token=${TOKEN}&q=private-words`, h.url), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ samples: [0, 0.1], preroll_length: 0, transcript: 'x' }),
    });
    expect(res.status).toBe(500);
    const failed = h.logger.lines.filter((l) => l.includes('request failed'));
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain('/api/segments');
    expect(h.logger.lines.join('\n')).not.toContain(TOKEN);
    expect(h.logger.lines.join('\n')).not.toContain('private-words');
  });
});

describe('/healthz tells the truth early and on a full disk', () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it('is not "ok" while a (re)started microphone has delivered nothing yet', async () => {
    h = await startHarness({ suite: 'debug-hardening' });
    h.bus.emit('capture.starting', { device: 'ALSA default' });
    const res = await fetch(new URL('/healthz', h.url));
    const body = (await res.json()) as { status: string; capture: { state: string }; problems: string[] };
    expect(res.status).toBe(503);
    expect(body).toMatchObject({ status: 'starting', capture: { state: 'starting' } });
    expect(body.problems.join()).toMatch(/no audio yet/);
    h.bus.emit('capture.up', { device: 'ALSA default' });
    expect((await fetch(new URL('/healthz', h.url))).status).toBe(200);
  });

  it('says how much audio was given up and how many rows wait for room', async () => {
    h = await startHarness({ suite: 'debug-hardening' });
    const seg = (n: number) => ({
      segment: { pcm: new Int16Array(16000), prerollSamples: 0, startedAt: Date.now() },
      transcripts: [{ engine: 'w', rawText: 'r'.repeat(n), text: 't' }],
    });
    h.store.recordSegment(seg(10));
    h.store.db.pragma(`max_page_count = ${h.store.db.pragma('page_count', { simple: true })}`);
    h.store.recordSegment(seg(100_000));
    const body = (await (await fetch(new URL('/healthz', h.url))).json()) as {
      status: string;
      problems: string[];
      store: { pendingRows: number; reclaimedSegments: number };
    };
    expect(body.status).toBe('degraded');
    expect(body.store).toMatchObject({ pendingRows: 1, reclaimedSegments: 1 });
    expect(body.problems.join('\n')).toMatch(/audio of the 1 oldest segments was deleted[\s\S]*1 rows wait in memory/);
  });
});
