import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../src/audio/wav.js';
import type { SegmentWrite } from '../../src/store/records.js';
import { jfkWrites, overPlaybackWrite } from '../store/fixtures.js';
import { startHarness, type Harness } from './harness.js';

/** The API carries the raw microphone and the playback spans of a segment heard over hark's playback. */
let h: Harness;
let echoId: number;
let plainId: number;
let damagedId: number;
let garbledId: number;
let w: SegmentWrite;
beforeAll(async () => {
  h = await startHarness({ suite: 'debug-echo-api' });
  w = await overPlaybackWrite();
  echoId = h.store.recordSegment(w)!.id;
  plainId = h.store.recordSegment((await jfkWrites())[1]!)!.id;
  damagedId = h.store.recordSegment(w)!.id;
  h.store.db.prepare('UPDATE segment_raw_audio SET pcm = ? WHERE segment_id = ?').run(Buffer.alloc(11), damagedId);
  garbledId = h.store.recordSegment(w)!.id;
  h.store.db.prepare('UPDATE segments SET playback_json = ? WHERE id = ?').run('[[1,2],"<script>"]', garbledId);
});
afterAll(async () => {
  await h.close();
});

const get = async (path: string) => {
  const res = await fetch(new URL(path, h.url));
  return { status: res.status, type: res.headers.get('content-type'), res };
};

describe('the raw track in the segment API', () => {
  it('gives a segment heard over playback its spans (samples and ms) and a raw.wav link; others neither', async () => {
    const seg = (await (await get(`/api/segments/${echoId}`)).res.json()) as any;
    expect(seg.echo).toEqual({
      playback: [
        { start: 0, end: 4096, startMs: 0, endMs: 256 },
        { start: 33600, end: 38400, startMs: 2100, endMs: 2400 },
      ],
      raw: true,
      rawBytes: w.segment.pcm.byteLength,
      problem: null,
    });
    expect(seg.rawAudioUrl).toBe(`/api/segments/${echoId}/raw.wav`);
    const plain = (await (await get(`/api/segments/${plainId}`)).res.json()) as any;
    expect(plain.echo).toBeNull();
    expect(plain.rawAudioUrl).toBeNull();
    const list = (await (await get('/api/segments?limit=10')).res.json()) as any;
    expect(list.segments.find((s: { id: number }) => s.id === echoId).echo.playback).toHaveLength(2);
  });

  it('serves the raw track as a WAV of exactly the stored samples, beside the cleaned one', async () => {
    const raw = await get(`/api/segments/${echoId}/raw.wav`);
    expect(raw.status).toBe(200);
    expect(raw.type).toBe('audio/wav');
    const back = decodeWav(Buffer.from(await raw.res.arrayBuffer()), 'raw.wav');
    expect(Array.from(back.pcm)).toEqual(Array.from(w.segment.echo!.raw));
    const cleaned = decodeWav(Buffer.from(await (await get(`/api/segments/${echoId}/audio.wav`)).res.arrayBuffer()), 'audio.wav');
    expect(Array.from(cleaned.pcm)).toEqual(Array.from(w.segment.pcm));
  });

  it('answers a segment without a raw track, a damaged one and a missing one with an error that says why', async () => {
    for (const [path, status, why] of [
      [`/api/segments/${plainId}/raw.wav`, 404, /segment \d+ has no raw microphone track: it was not heard while hark played/],
      [`/api/segments/${damagedId}/raw.wav`, 404, /has no raw microphone track: its raw track is damaged \(11 bytes stored, \d+ expected\)/],
      ['/api/segments/999/raw.wav', 404, /no segment 999/],
      ['/api/segments/x1/raw.wav', 400, /id: must be a segment number/],
    ] as const) {
      const r = await get(path);
      expect(r.status, path).toBe(status);
      expect(((await r.res.json()) as { error: string }).error, path).toMatch(why);
    }
    const bad = await get('/api/segments/1/raw.mp3');
    expect(bad.status).toBe(404);
  });

  it('reads hand-edited spans as a problem on the segment, and the rest of it as before', async () => {
    const r = await get(`/api/segments/${garbledId}`);
    expect(r.status).toBe(200);
    const seg = (await r.res.json()) as any;
    expect(seg.echo.playback).toEqual([]);
    expect(seg.echo.problem).toMatch(/playback spans unreadable: span 1: not a \[start, end\] pair/);
    expect(seg.transcripts[0].text).toBe('And so my fellow Americans,');
    expect((await get(`/api/segments/${garbledId}/raw.wav`)).status).toBe(200);
  });
});
