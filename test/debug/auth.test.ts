import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarkError } from '../../src/core/errors.js';
import { checkBind, isLoopbackHost } from '../../src/debug/auth.js';
import { debugToken } from '../../src/debug/from-config.js';
import { DebugServer } from '../../src/debug/server.js';
import { Store } from '../../src/store/store.js';
import { scratch } from '../store/fixtures.js';
import { rawRequest, startHarness, type Harness } from './harness.js';

const TOKEN = 'b3f1c2d4e5a6978812ab34cd56ef7890';

describe('binding beyond loopback', () => {
  it('refuses to start on a LAN address without a token, and says how to fix it', () => {
    const store = new Store({ path: join(scratch('debug-auth'), 'hark.db'), housekeeping: null });
    try {
      for (const host of ['0.0.0.0', '192.168.1.20', '::']) {
        expect(() => new DebugServer({ store, host })).toThrow(HarkError);
        expect(() => new DebugServer({ store, host })).toThrow(/refusing to listen on .* without a token; set HARK_DEBUG_TOKEN/);
      }
      expect(() => new DebugServer({ store, host: '0.0.0.0', token: 'short' })).toThrow(/at least 16 characters/);
      expect(() => new DebugServer({ store, host: '0.0.0.0', token: TOKEN })).not.toThrow();
      expect(() => new DebugServer({ store, host: '127.0.0.1' })).not.toThrow();
    } finally {
      store.close();
    }
  });

  it('knows which names are loopback', () => {
    expect(['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', 'LOCALHOST'].every(isLoopbackHost)).toBe(true);
    expect(['0.0.0.0', '10.0.0.5', 'hark.local', '::', '127.0.0.1.evil.com', '127.0.0.1:80'].some(isLoopbackHost)).toBe(false);
    expect(() => checkBind('localhost', undefined)).not.toThrow();
  });

  it('takes the token from HARK_DEBUG_TOKEN before debug.token in the file', () => {
    const cfg = { enabled: true, host: '0.0.0.0', port: 8080, token: 'from-the-config-file', heartbeatMs: 15_000 };
    expect(debugToken(cfg, { debugToken: 'from-the-environment' })).toBe('from-the-environment');
    expect(debugToken(cfg, {})).toBe('from-the-config-file');
    expect(debugToken({ ...cfg, token: '  ' }, {})).toBeUndefined();
  });
});

describe('a server with a token (as when LAN-bound; tests listen on 127.0.0.1 only)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ suite: 'debug-auth', server: { token: TOKEN } });
  });
  afterAll(async () => {
    await h.close();
  });
  const get = (path: string, headers: Record<string, string> = {}) => fetch(new URL(path, h.url), { headers, redirect: 'manual' });

  it('turns away every page and API call without the token', async () => {
    for (const path of ['/', '/viewer.js', '/api/segments', '/api/segments/1', '/api/segments/1/audio.wav', '/api/events', '/metrics']) {
      const res = await get(path);
      expect(res.status, path).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/needs its token/);
    }
    const post = await fetch(new URL('/api/segments', h.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect(post.status).toBe(401);
    expect(h.store.health().segments).toBe(0);
  });

  it('rejects a wrong token, in any of the three places', async () => {
    expect((await get('/api/segments', { Authorization: 'Bearer nope' })).status).toBe(401);
    expect((await get('/api/segments?token=nope')).status).toBe(401);
    expect((await get('/api/segments', { Cookie: 'hark_debug_token=nope' })).status).toBe(401);
  });

  it('lets a tool in with a bearer header', async () => {
    const res = await get('/api/segments', { Authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ segments: [], nextBefore: null });
  });

  it('lets a browser in with ?token= once: sets an HttpOnly cookie and drops the token from the address', async () => {
    const first = await get(`/?token=${TOKEN}&q=bolts`);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/?q=bolts');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^hark_debug_token=b3f1c2d4e5a6978812ab34cd56ef7890; Path=\/; HttpOnly; SameSite=Strict$/);
    const page = await get('/?q=bolts', { Cookie: cookie.split(';')[0]! });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<main id="list"');
    expect((await get('/api/segments', { Cookie: `other=1; ${cookie.split(';')[0]}` })).status).toBe(200);
  });

  it('leaves /healthz open for monitoring', async () => {
    expect((await get('/healthz')).status).toBe(200);
  });
});

describe('a loopback server without a token', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ suite: 'debug-auth' });
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers the SSH tunnel (Host: localhost:<any port>)', async () => {
    for (const host of ['localhost:8080', '127.0.0.1:9000', '[::1]:8080', 'localhost']) {
      expect((await rawRequest(h.url, { path: '/api/segments', headers: { Host: host } })).status, host).toBe(200);
    }
  });

  it('refuses other Host names, so a web page cannot reach it through DNS rebinding', async () => {
    const res = await rawRequest(h.url, { path: '/api/segments', headers: { Host: 'attacker.example:8080' } });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error).toMatch(/Host "attacker.example" is not allowed/);
  });
});
