import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { readFileSync } from 'node:fs';
import { decodeWav } from '../../src/audio/wav.js';
import { DebugServer } from '../../src/debug/server.js';
import type { SegmentWrite } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { JFK_WAV } from '../support/paths.js';

/**
 * Targets: a 3 s segment with its transcript written in ≤ 5 ms p50; GET /api/segments?limit=50
 * over 10,000 stored segments in ≤ 50 ms. vitest's table has no p50, so each bench also records its
 * own timings and the medians are printed at the end.
 */
const pcm = decodeWav(readFileSync(JFK_WAV), 'jfk.wav').pcm;
const dir = mkdtempSync(join(tmpdir(), 'hark-store-bench-'));
const timings: Record<string, number[]> = {};
function timed<T>(name: string, fn: () => T): T {
  const t0 = performance.now();
  const r = fn();
  (timings[name] ??= []).push(performance.now() - t0);
  return r;
}
async function timedAsync(name: string, fn: () => Promise<void>): Promise<void> {
  const t0 = performance.now();
  await fn();
  (timings[name] ??= []).push(performance.now() - t0);
}

function write(startSample: number, seconds: number, i: number): SegmentWrite {
  const n = seconds * 16_000;
  const start = startSample % (pcm.length - n);
  return {
    segment: { pcm: pcm.slice(start, start + n), prerollSamples: 8000, startedAt: Date.now(), closeReason: 'hangover', maxProb: 0.93, openedBy: 'vad' },
    transcripts: [
      {
        engine: 'whisper',
        rawText: ` ask not what your country can do for you ${i}`,
        text: `ask not what your country can do for you ${i}`,
        tokens: [{ id: 50364 }, { id: 1029 }],
        sttMs: 420,
      },
    ],
  };
}

// --- writes: a fresh file, like the daemon's
const writeStore = new Store({ path: join(dir, 'write.db'), housekeeping: null });
const threeSeconds = Array.from({ length: 16 }, (_, i) => write(i * 7919, 3, i));
let w = 0;

// --- reads: 10,000 segments (0.25 s of PCM each: the list never reads PCM, so its size does not matter)
const readStore = new Store({ path: join(dir, 'read.db'), housekeeping: null });
for (let i = 0; i < 10_000; i++) {
  const seg = write(i * 977, 0.25, i);
  readStore.recordSegment({ ...seg, segment: { ...seg.segment, prerollSamples: 1000 } });
}
const server = new DebugServer({ store: readStore, host: '127.0.0.1', port: 0 });
const base = await server.listen();
const listUrl = new URL('/api/segments?limit=50', base);

afterAll(async () => {
  await server.close();
  writeStore.close();
  readStore.close();
  rmSync(dir, { recursive: true, force: true });
  for (const [name, list] of Object.entries(timings)) {
    const sorted = list.slice().sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3);
    console.log(`${name}: n=${sorted.length} p50=${p(0.5)} ms p90=${p(0.9)} ms p99=${p(0.99)} ms`);
  }
});

describe('segment log', () => {
  bench(
    'store write: 3 s segment + transcript, one transaction (target p50 ≤ 5 ms)',
    () => {
      timed('write 3 s segment', () => writeStore.recordSegment(threeSeconds[w++ % threeSeconds.length]!));
    },
    { time: 3000, iterations: 200 },
  );

  bench(
    'GET /api/segments?limit=50 over 10,000 segments, over HTTP (target ≤ 50 ms)',
    async () => {
      await timedAsync('GET limit=50 of 10k', async () => {
        const res = await fetch(listUrl);
        await res.arrayBuffer();
      });
    },
    { time: 3000, iterations: 100 },
  );

  bench(
    'GET /api/segments?limit=50&q=9999 (a search that scans all 10,000)',
    async () => {
      await timedAsync('GET limit=50 q=9999 of 10k', async () => {
        const res = await fetch(new URL('/api/segments?limit=50&q=9999', base));
        await res.arrayBuffer();
      });
    },
    { time: 2000, iterations: 50 },
  );
});
