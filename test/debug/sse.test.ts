import { request, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/core/clock.js';
import { jfkWrites } from '../store/fixtures.js';
import { startHarness, type Harness } from './harness.js';

/** An SSE client on a raw socket: collects frames as they arrive. */
function subscribe(
  url: string,
): Promise<{ res: IncomingMessage; frames: string[]; next(match: (f: string) => boolean, ms?: number): Promise<string>; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/events', url), (res) => {
      const frames: string[] = [];
      const waiters: { match: (f: string) => boolean; done: (f: string) => void }[] = [];
      let buf = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buf += chunk;
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, end);
          buf = buf.slice(end + 2);
          frames.push(frame);
          for (const w of waiters.splice(0))
            if (w.match(frame)) w.done(frame);
            else waiters.push(w);
        }
      });
      resolve({
        res,
        frames,
        next(match, ms = 5000) {
          const seen = frames.find(match);
          if (seen) return Promise.resolve(seen);
          return new Promise((done, fail) => {
            const t = setTimeout(() => fail(new Error(`no matching SSE frame within ${ms} ms; got: ${frames.join(' | ')}`)), ms);
            waiters.push({ match, done: (f) => (clearTimeout(t), done(f)) });
          });
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const data = (frame: string) =>
  JSON.parse(
    frame
      .split('\n')
      .find((l) => l.startsWith('data: '))!
      .slice(6),
  );

describe('the event stream', () => {
  let h: Harness;
  afterEach(async () => {
    await h.close();
  });

  it('delivers a new segment, ready to draw, as soon as it is stored; then its late rows and capture changes', async () => {
    h = await startHarness({ suite: 'debug-sse' });
    const sub = await subscribe(h.url);
    expect(sub.res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    await sub.next((f) => f.includes(': connected'));
    const [w] = await jfkWrites();
    const { id } = h.store.recordSegment(w!)!;
    const seg = data(await sub.next((f) => f.includes('event: segment')));
    expect(seg).toMatchObject({ id, prerollSamples: 5120, audioUrl: `/api/segments/${id}/audio.wav`, transcripts: [{ text: 'And so my fellow Americans,' }] });

    h.store.addIntent({ utteranceId: 'utt-0', kind: 'commit', intent: 'note' });
    const late = data(await sub.next((f) => f.includes('event: intent')));
    expect(late).toMatchObject({ kind: 'intent', segmentId: id, segment: { id, intents: [{ kind: 'proposal' }, { kind: 'commit' }] } });

    h.bus.emit('capture.down', { device: 'hw:1', reason: 'USB unplugged', restartInMs: 1000 });
    expect(data(await sub.next((f) => f.includes('event: capture')))).toMatchObject({ state: 'down', reason: 'USB unplugged' });
    sub.close();
  });

  it('sends heartbeat comments on the clock, and forgets a client the moment it goes', async () => {
    const clock = new VirtualClock();
    h = await startHarness({ suite: 'debug-sse', clock, server: { heartbeatMs: 15_000 } });
    const a = await subscribe(h.url);
    const b = await subscribe(h.url);
    await until(() => h.server.sseClients === 2);
    clock.advanceBy(15_000);
    await a.next((f) => f === ': heartbeat');
    await b.next((f) => f === ': heartbeat');
    a.close();
    await until(() => h.server.sseClients === 1);
    b.close();
    await until(() => h.server.sseClients === 0);
    expect(clock.pending()).toBe(0); // no heartbeat timer left running for nobody
    expect(((await (await fetch(new URL('/healthz', h.url))).json()) as { sseClients: number }).sseClients).toBe(0);
  });

  it('turns away clients past the limit instead of growing without bound', async () => {
    h = await startHarness({ suite: 'debug-sse', server: { maxSseClients: 2 } });
    const subs = [await subscribe(h.url), await subscribe(h.url)];
    const third = await fetch(new URL('/api/events', h.url));
    expect(third.status).toBe(503);
    for (const s of subs) s.close();
  });
});
