import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookTarget } from '../../src/command/actions/targets/webhook.js';
import { DeliveryError } from '../../src/command/actions/targets/target.js';

/** A real HTTP server on 127.0.0.1 that answers each request with the next scripted behaviour. */
async function server(script: ((req: IncomingMessage, res: ServerResponse) => void)[]) {
  const bodies: unknown[] = [];
  const headers: IncomingMessage['headers'][] = [];
  let n = 0;
  const srv: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push(JSON.parse(body));
      headers.push(req.headers);
      const step = script[Math.min(n++, script.length - 1)]!;
      step(req, res);
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  open.push(srv);
  const { port } = srv.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, bodies, headers, count: () => n };
}
const open: Server[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const ok = (_: IncomingMessage, res: ServerResponse) => res.writeHead(200).end('ok');
const fail500 = (_: IncomingMessage, res: ServerResponse) => res.writeHead(500).end('boom');
const hang = () => {}; // never answers
const noSleep = async () => {};

describe('webhook target', () => {
  it('POSTs the delivery as JSON', async () => {
    const s = await server([ok]);
    const t = new WebhookTarget('display', { url: s.url, timeoutMs: 1000, retries: 0, backoffMs: 0, headers: { 'x-kitchen': 'line 1' } });
    await expect(t.deliver({ kind: 'submit', atMs: 42, frame: 'query', text: 'two soups' })).resolves.toBe('HTTP 200');
    expect(s.bodies).toEqual([{ target: 'display', kind: 'submit', atMs: 42, frame: 'query', text: 'two soups' }]);
    expect(s.headers[0]!['content-type']).toBe('application/json');
    expect(s.headers[0]!['x-kitchen']).toBe('line 1');
  });

  it('retries 500s with backoff and succeeds when the server recovers', async () => {
    const s = await server([fail500, fail500, ok]);
    const waits: number[] = [];
    const t = new WebhookTarget('display', { url: s.url, timeoutMs: 1000, retries: 3, backoffMs: 100 }, async (ms) => void waits.push(ms));
    await expect(t.deliver({ kind: 'submit', atMs: 0, text: 'x' })).resolves.toBe('HTTP 200');
    expect(s.count()).toBe(3);
    expect(waits).toEqual([100, 200]);
  });

  it('gives up after retries + 1 attempts with the last error', async () => {
    const s = await server([fail500]);
    const t = new WebhookTarget('display', { url: s.url, timeoutMs: 1000, retries: 2, backoffMs: 0 }, noSleep);
    const err = await t.deliver({ kind: 'submit', atMs: 0, text: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeliveryError);
    expect((err as DeliveryError).attempts).toBe(3);
    expect((err as Error).message).toBe(`${s.url}: HTTP 500 (after 3 attempts)`);
    expect(s.count()).toBe(3);
  });

  it('times out a server that never answers, per attempt, and retries', async () => {
    const s = await server([hang, ok]);
    const t = new WebhookTarget('display', { url: s.url, timeoutMs: 150, retries: 1, backoffMs: 0 }, noSleep);
    const started = performance.now();
    await expect(t.deliver({ kind: 'submit', atMs: 0, text: 'x' })).resolves.toBe('HTTP 200');
    expect(s.count()).toBe(2);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('reports a timeout in words when every attempt hangs', async () => {
    const s = await server([hang]);
    const t = new WebhookTarget('display', { url: s.url, timeoutMs: 100, retries: 1, backoffMs: 0 }, noSleep);
    await expect(t.deliver({ kind: 'submit', atMs: 0, text: 'x' })).rejects.toThrow(`${s.url}: no answer within 100 ms (after 2 attempts)`);
  });

  it('does not retry a 400: the receiver rejected the body', async () => {
    const s = await server([(_, res) => res.writeHead(400).end('bad')]);
    const t = new WebhookTarget('display', { url: s.url, timeoutMs: 1000, retries: 5, backoffMs: 0 }, noSleep);
    await expect(t.deliver({ kind: 'submit', atMs: 0, text: 'x' })).rejects.toThrow(`${s.url} answered HTTP 400; not retried`);
    expect(s.count()).toBe(1);
  });

  it('retries a refused connection and says what happened', async () => {
    const s = await server([ok]);
    const url = s.url;
    for (const srv of open.splice(0)) await new Promise((r) => srv.close(r));
    const t = new WebhookTarget('display', { url, timeoutMs: 500, retries: 1, backoffMs: 0 }, noSleep);
    await expect(t.deliver({ kind: 'submit', atMs: 0, text: 'x' })).rejects.toThrow(/\(after 2 attempts\)$/);
  });
});
