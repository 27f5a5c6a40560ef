import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { decodeWav } from '../../src/audio/wav.js';
import type { SegmentWrite } from '../../src/store/records.js';
import { Store } from '../../src/store/store.js';
import { JFK_WAV, outputDir } from '../support/paths.js';

/**
 * Is `synchronous = FULL` worth it for the text rows? In WAL mode NORMAL syncs only
 * at checkpoints, so a power cut can lose the last commits (never corrupt the file); FULL syncs the WAL
 * at every commit. Measured on a real file system (test-output/, not a tmpfs /tmp), one 3 s segment
 * with its transcript per commit, as the daemon writes them. On a Pi, an SD card's fsync is slower
 * still: see the README for the figures and the decision.
 */
const pcm = decodeWav(readFileSync(JFK_WAV), 'jfk.wav').pcm;
const dir = outputDir('bench-store-sync');
const timings: Record<string, number[]> = {};

function write(i: number): SegmentWrite {
  const start = (i * 7919) % (pcm.length - 48_000);
  return {
    segment: { pcm: pcm.slice(start, start + 48_000), prerollSamples: 8000, startedAt: Date.now(), closeReason: 'hangover' },
    transcripts: [{ engine: 'whisper', rawText: ` ask not ${i}`, text: `ask not ${i}`, sttMs: 420 }],
  };
}

function open(mode: 'NORMAL' | 'FULL'): Store {
  rmSync(join(dir, `${mode}.db`), { force: true });
  rmSync(join(dir, `${mode}.db-wal`), { force: true });
  const s = new Store({ path: join(dir, `${mode}.db`), housekeeping: null, backgroundCheckpoint: false });
  s.db.pragma(`synchronous = ${mode}`);
  return s;
}

const stores = { NORMAL: open('NORMAL'), FULL: open('FULL') };
let n = 0;

afterAll(() => {
  const lines: string[] = [];
  for (const [name, list] of Object.entries(timings)) {
    const sorted = list.slice().sort((a, b) => a - b);
    const p = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(3);
    lines.push(`synchronous=${name}: n=${sorted.length} p50=${p(0.5)} ms p90=${p(0.9)} ms p99=${p(0.99)} ms`);
  }
  for (const s of Object.values(stores)) s.close();
  process.stderr.write(lines.join('\n') + '\n');
  writeFileSync(join(outputDir('bench-results'), 'store-sync.txt'), lines.join('\n') + '\n');
});

describe('store commit: synchronous NORMAL vs FULL', () => {
  for (const mode of ['NORMAL', 'FULL'] as const) {
    bench(
      `synchronous = ${mode}: 3 s segment + transcript per commit`,
      () => {
        const t0 = performance.now();
        stores[mode].recordSegment(write(n++));
        (timings[mode] ??= []).push(performance.now() - t0);
      },
      { time: 2000, iterations: 100 },
    );
  }
});
