import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../src/audio/wav.js';
import { jfkPcm, jfkWrites } from '../store/fixtures.js';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
let ids: number[];
beforeAll(async () => {
  h = await startHarness({ suite: 'debug-api' });
  ids = (await jfkWrites()).map((w) => h.store.recordSegment(w)!.id);
  h.store.recordSegment({
    segment: { pcm: (await jfkPcm()).slice(0, 12_000), prerollSamples: 5120, startedAt: Date.UTC(2025, 0, 6, 9, 1) },
    transcripts: [{ engine: 'whisper', rawText: '[BLANK_AUDIO]', text: '', droppedReason: 'blank-audio', sttMs: 310 }],
  });
  ids.push(5);
});
afterAll(async () => {
  await h.close();
});

const json = async (path: string) => {
  const res = await fetch(new URL(path, h.url));
  return { status: res.status, body: (await res.json()) as any };
};

describe('the segment API', () => {
  it('lists newest first, pages with before=, and filters by text, engine and dropped', async () => {
    const first = await json('/api/segments?limit=2');
    expect(first.body.segments.map((s: { id: number }) => s.id)).toEqual([5, 4]);
    const second = await json(`/api/segments?limit=2&before=${first.body.nextBefore}`);
    expect(second.body.segments.map((s: { id: number }) => s.id)).toEqual([3, 2]);
    expect((await json('/api/segments?q=fellow')).body.segments.map((s: { id: number }) => s.id)).toEqual([1]);
    expect((await json('/api/segments?dropped=1')).body.segments.map((s: { id: number }) => s.id)).toEqual([5]);
    expect((await json('/api/segments?dropped=blank-audio')).body.segments).toHaveLength(1);
    expect((await json('/api/segments?dropped=0')).body.segments).toHaveLength(4);
    expect((await json('/api/segments?engine=deepgram')).body.segments).toHaveLength(0);
  });

  it('names the bad parameter in a 400', async () => {
    for (const [q, field] of [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['before=-3', 'before'],
      ['before=1e3', 'before'],
      [`q=${'x'.repeat(201)}`, 'q'],
    ]) {
      const r = await json(`/api/segments?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.field).toBe(field);
      expect(r.body.error).toMatch(new RegExp(`^${field}: `));
    }
  });

  it('serves one segment with everything hung off it, tokens split out for highlighting', async () => {
    const r = await json('/api/segments/5');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: 5, sampleCount: 12_000, prerollSamples: 5120, prerollMs: 320, durationMs: 750, audioUrl: '/api/segments/5/audio.wav' });
    expect(r.body.transcripts[0].rawSpans).toEqual([{ text: '[BLANK_AUDIO]', special: 'blank' }]);
    const full = await json('/api/segments/1');
    expect(full.body.utterances[0].id).toBe('utt-0');
    expect(full.body.intents[0].kind).toBe('proposal');
    expect(full.body.actions[0].name).toBe('note.append');
  });

  it('serves the audio as a WAV that decodes to exactly the stored samples', async () => {
    const res = await fetch(new URL('/api/segments/2/audio.wav', h.url));
    expect(res.headers.get('content-type')).toBe('audio/wav');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="hark-segment-2.wav"');
    const { pcm, source } = decodeWav(Buffer.from(await res.arrayBuffer()), 'x.wav');
    expect(source).toEqual({ sampleRate: 16_000, channels: 1, format: 's16' });
    expect(Array.from(pcm)).toEqual(Array.from((await jfkWrites())[1]!.segment.pcm));
  });

  it('answers unknown segments, bad ids, unknown paths and wrong methods with a JSON reason', async () => {
    expect(await json('/api/segments/999')).toEqual({ status: 404, body: { error: 'no segment 999 (it may have aged out of the log)' } });
    expect((await json('/api/segments/999/audio.wav')).status).toBe(404);
    expect(await json('/api/segments/abc')).toMatchObject({ status: 400, body: { field: 'id' } });
    expect((await json('/nope')).status).toBe(404);
    expect((await json('/../../etc/passwd')).status).toBe(404);
    const del = await fetch(new URL('/api/segments/1', h.url), { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET');
    expect(h.store.getSegment(1)).toBeDefined();
  });

  it('serves the page and its assets with a strict Content-Security-Policy', async () => {
    const page = await fetch(new URL('/', h.url));
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    for (const asset of ['viewer.js', 'card.js', 'waveform.js', 'wav.js', 'dom.js', 'viewer.css']) {
      expect((await fetch(new URL(`/${asset}`, h.url))).status, asset).toBe(200);
    }
  });

  it('reports health as JSON', async () => {
    const r = await json('/healthz');
    expect(r).toMatchObject({ status: 200, body: { status: 'ok', mode: 'daemon', store: { segments: 5, audioStorage: 'on' }, capture: { state: 'unknown' } } });
  });

  it('exposes Prometheus metrics: segments, drops by reason, STT latency by engine, fallbacks, capture restarts', async () => {
    // counters come from the bus; feed a fallback transcript, a capture restart
    h.store.addTranscript({ segmentId: 1, engine: 'deepgram', rawText: 'x', text: 'x', sttMs: 750, fallbackReason: 'whisper timeout' });
    h.bus.emit('capture.up', { device: 'hw:1' });
    h.bus.emit('capture.down', { device: 'hw:1', reason: 'arecord exited 1', restartInMs: 1000 });
    h.bus.emit('capture.up', { device: 'hw:1' });
    // speculative transcriptions and the fleet's queue while the broker is away
    for (const outcome of ['started', 'used', 'started', 'discarded'] as const) h.bus.emit('stt.preemptive', { segmentId: '@0', outcome });
    h.bus.emit('fleet.state', { state: 'reconnecting', url: 'mqtt://127.0.0.1:1', device: 'k1', room: null, queued: 3, dropped: 7, lastError: 'ECONNREFUSED' });
    const res = await fetch(new URL('/metrics', h.url));
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0.0.4/);
    const text = await res.text();
    expect(text).toContain('# TYPE hark_segments_total counter');
    expect(text).toContain('hark_segments_total{audio="stored"} 5');
    expect(text).toContain('hark_transcripts_dropped_total{reason="blank-audio"} 1');
    expect(text).toContain('hark_stt_duration_seconds_bucket{engine="whisper",le="0.5"} 5');
    expect(text).toContain('hark_stt_duration_seconds_bucket{engine="deepgram",le="0.5"} 0');
    expect(text).toContain('hark_stt_duration_seconds_bucket{engine="deepgram",le="1"} 1');
    expect(text).toContain('hark_stt_duration_seconds_count{engine="deepgram"} 1');
    expect(text).toContain('hark_stt_fallbacks_total{engine="deepgram"} 1');
    expect(text).toContain('hark_capture_restarts_total 1');
    expect(text).toContain('hark_capture_up 1');
    expect(text).toContain('hark_store_segments 5');
    expect(text).toContain('hark_stt_preemptive_total{outcome="started"} 2');
    expect(text).toContain('hark_stt_preemptive_total{outcome="discarded"} 1');
    expect(text).toContain('hark_fleet_queued_events 3');
    expect(text).toContain('hark_fleet_dropped_events_total 7');
    // every sample line is `name{labels} number`
    for (const line of text
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('#')))
      expect(line).toMatch(/^[a-z_]+(\{[^}]*\})? (-?[0-9.e+]+|\+Inf)$/);
  });
});

describe('health when things go wrong', () => {
  it('shows a full disk as degraded (503) with the reason, and the microphone being down', async () => {
    const hh = await startHarness({ suite: 'debug-api' });
    try {
      const [w0, w1] = await jfkWrites();
      hh.store.recordSegment(w0!);
      hh.store.db.pragma(`max_page_count = ${(hh.store.db.pragma('page_count', { simple: true }) as number) + 8}`);
      expect(hh.store.recordSegment(w1!)!.audio).toBe('disk-full');
      const r = await fetch(new URL('/healthz', hh.url));
      expect(r.status).toBe(503);
      const body = (await r.json()) as { status: string; problems: string[]; store: { audioStorage: string } };
      expect(body.status).toBe('degraded');
      expect(body.store.audioStorage).toBe('paused-disk-full');
      expect(body.problems[0]).toMatch(/^disk full: audio is not being stored/);
      const seg = (await (await fetch(new URL('/api/segments/2/audio.wav', hh.url))).json()) as { error: string };
      expect(seg.error).toBe('segment 2 has no audio: the disk was full when it was logged');
    } finally {
      await hh.close();
    }
  });
});
