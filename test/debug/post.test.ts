import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { float32ToInt16 } from '../../src/audio/pcm.js';
import { decodeWav } from '../../src/audio/wav.js';
import { validatePostedSegment } from '../../src/debug/post-segment.js';
import { jfkPcm } from '../store/fixtures.js';
import { rawRequest, startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ suite: 'debug-post' });
});
afterAll(async () => {
  await h.close();
});

const good = { samples: [0, 0.5, -0.5, 1, -1], preroll_length: 2, transcript: ' ask not', timestamp: 1_736_150_400 };
const post = (body: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
  fetch(new URL('/api/segments', h.url), { method: 'POST', body, headers });

describe('POST /api/segments (the logging protocol)', () => {
  it("stores a segment from an outside pipeline and serves it back like one of hark's own", async () => {
    const int16 = (await jfkPcm()).slice(16_000, 40_000);
    const samples = Array.from(int16, (v) => v / 32768);
    const res = await post(JSON.stringify({ samples, preroll_length: 8000, transcript: ' [BLANK_AUDIO]', timestamp: 1_736_150_400.25 }));
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: number; url: string; audio: string };
    expect(res.headers.get('location')).toBe(`/api/segments/${created.id}`);
    expect(created.audio).toBe('stored');

    const seg = await (await fetch(new URL(created.url, h.url))).json();
    expect(seg).toMatchObject({
      id: created.id,
      source: 'post',
      prerollSamples: 8000,
      sampleCount: 24_000,
      durationMs: 1500,
      startedAt: 1_736_150_400_250,
      vadAt: 1_736_150_400_750,
    });
    expect(seg.transcripts[0]).toMatchObject({ engine: 'external', rawText: ' [BLANK_AUDIO]', text: '', droppedReason: 'empty' });
    expect(seg.transcripts[0].rawSpans).toEqual([{ text: ' ' }, { text: '[BLANK_AUDIO]', special: 'blank' }]);

    const wav = await fetch(new URL(seg.audioUrl, h.url));
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    const back = decodeWav(Buffer.from(await wav.arrayBuffer()), 'audio.wav').pcm;
    expect(Array.from(back)).toEqual(Array.from(float32ToInt16(samples))); // what was stored is what is served
    expect(back.every((v, i) => Math.abs(v - int16[i]!) <= 1)).toBe(true); // and that is the speech that was sent
  });

  const big = (n: number) => `{"samples":[${'0.1234,'.repeat(n - 1)}0.1],"preroll_length":0,"transcript":""}`;
  const longText = 'x'.repeat(10_001);
  const cases: [name: string, body: string, status: number, field: string][] = [
    ['not JSON', '{"samples": [0.1,', 400, '(body)'],
    ['empty body', '', 400, '(body)'],
    ['an array, not an object', '[1,2,3]', 400, '(body)'],
    ['samples missing', JSON.stringify({ ...good, samples: undefined }), 400, 'samples'],
    ['samples a string', JSON.stringify({ ...good, samples: 'AAAA' }), 400, 'samples'],
    ['samples empty', JSON.stringify({ ...good, samples: [] }), 400, 'samples'],
    ['a sample is a string', JSON.stringify({ ...good, samples: [0, '0.5'] }), 400, 'samples[1]'],
    ['a sample above 1', JSON.stringify({ ...good, samples: [0, 0, 1.5] }), 400, 'samples[2]'],
    ['a sample below -1', JSON.stringify({ ...good, samples: [-1.0001] }), 400, 'samples[0]'],
    ['a sample that parses to Infinity', '{"samples":[1e999],"preroll_length":0,"transcript":""}', 400, 'samples[0]'],
    ['a sample null (NaN from a JSON encoder)', '{"samples":[0,null],"preroll_length":0,"transcript":""}', 400, 'samples[1]'],
    ['preroll_length missing', JSON.stringify({ ...good, preroll_length: undefined }), 400, 'preroll_length'],
    ['preroll_length fractional', JSON.stringify({ ...good, preroll_length: 2.5 }), 400, 'preroll_length'],
    ['preroll_length negative', JSON.stringify({ ...good, preroll_length: -1 }), 400, 'preroll_length'],
    ['preroll_length past the samples', JSON.stringify({ ...good, preroll_length: 6 }), 400, 'preroll_length'],
    ['preroll_length a string', JSON.stringify({ ...good, preroll_length: '2' }), 400, 'preroll_length'],
    ['transcript missing', JSON.stringify({ ...good, transcript: undefined }), 400, 'transcript'],
    ['transcript a number', JSON.stringify({ ...good, transcript: 42 }), 400, 'transcript'],
    ['transcript 10,001 characters', JSON.stringify({ ...good, transcript: longText }), 400, 'transcript'],
    ['timestamp a word', JSON.stringify({ ...good, timestamp: 'yesterday' }), 400, 'timestamp'],
    ['timestamp negative', JSON.stringify({ ...good, timestamp: -5 }), 400, 'timestamp'],
    ['timestamp far in the future (9e15)', JSON.stringify({ ...good, timestamp: 9e15 }), 400, 'timestamp'],
    ['timestamp in nanoseconds', JSON.stringify({ ...good, timestamp: 1_736_150_400_000_000_000 }), 400, 'timestamp'],
    ['sample_rate fractional', JSON.stringify({ ...good, sample_rate: 44_100.5 }), 400, 'sample_rate'],
    ['engine not a string', JSON.stringify({ ...good, engine: 5 }), 400, 'engine'],
    ['more than 10 MB', big(1_600_000), 413, '(body)'],
  ];

  it.each(cases)('%s → %i naming %s', async (_name, body, status, field) => {
    const res = await post(body);
    expect(res.status).toBe(status);
    const json = (await res.json()) as { error: string; field: string };
    expect(json.field).toBe(field);
    expect(json.error.startsWith(field === '(body)' && status === 413 ? 'request body is larger than the 10 MB limit' : `${field}: `)).toBe(true);
  });

  it('accepts the edges: exactly 10,000 characters (emoji count once), a body just under 10 MB, unknown extra fields', async () => {
    expect((await post(JSON.stringify({ ...good, transcript: 'x'.repeat(10_000) }))).status).toBe(201);
    expect((await post(JSON.stringify({ ...good, transcript: '😀'.repeat(10_000) }))).status).toBe(201);
    const nearLimit = big(1_490_000);
    expect(nearLimit.length).toBeGreaterThan(10_000_000);
    expect(nearLimit.length).toBeLessThanOrEqual(10 * 1024 * 1024);
    expect((await post(nearLimit)).status).toBe(201);
    const extra = await post(JSON.stringify({ ...good, speaker: 'kitchen', model: 'base.en' }));
    expect(extra.status).toBe(201);
    expect(await extra.json()).toMatchObject({ ignored: ['speaker', 'model'] });
  });

  it('answers 413 to an oversized body sent without a Content-Length (chunked), without buffering it', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const res = await rawRequest(h.url, {
      method: 'POST',
      path: '/api/segments',
      headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      chunks: Array.from({ length: 12 }, () => chunk),
    });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toMatchObject({ field: '(body)' });
  });

  it('refuses anything but application/json (which also keeps cross-site form posts out)', async () => {
    const res = await post(JSON.stringify(good), { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({ field: 'Content-Type' });
  });

  it('keeps running and loses nothing after all of that', async () => {
    const first = await (await fetch(new URL('/api/segments/1', h.url))).json();
    expect(first.sampleCount).toBe(24_000);
    expect((await fetch(new URL('/api/segments/1/audio.wav', h.url))).status).toBe(200);
    expect((await fetch(new URL('/healthz', h.url))).status).toBe(200);
    // only the accepted posts were stored
    expect(h.store.health().segments).toBe(5);
  });
});

describe('validatePostedSegment (pure)', () => {
  it('reads seconds and milliseconds timestamps, defaults to now', () => {
    const now = 1_800_000_000_000;
    const at = (timestamp: unknown) => {
      const r = validatePostedSegment({ ...good, timestamp }, now);
      return r.ok ? r.value.startedAt : r.field;
    };
    expect(at(1_736_150_400)).toBe(1_736_150_400_000);
    expect(at(1_736_150_400_123)).toBe(1_736_150_400_123);
    expect(at(undefined)).toBe(now);
  });

  it('refuses timestamps outside 2000 .. now + 1 day: 9e15 ms, nanoseconds, the year 1971', () => {
    const now = 1_800_000_000_000;
    for (const timestamp of [9e15, 1_736_150_400_123_456_789, 3e7, now / 1000 + 2 * 86_400]) {
      const r = validatePostedSegment({ ...good, timestamp }, now);
      expect(r, String(timestamp)).toMatchObject({ ok: false, field: 'timestamp', message: expect.stringMatching(/between 2000-01-01 and one day from now/) });
    }
  });

  it('never echoes a whole hostile value back in the message', () => {
    const r = validatePostedSegment({ ...good, transcript: ['<script>'.repeat(1000)] }, 0);
    expect(r).toMatchObject({ ok: false, field: 'transcript', message: 'must be a string (got an array of 1)' });
  });
});
