import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, outputDir } from '../support/paths.js';

/**
 * On the microphone path hark's memory rose for the first ~8 minutes of talk. One cause was
 * the segment log's page cache: better-sqlite3 builds SQLite with a 16 MB cache per connection, and
 * every page of audio written passes through it and stays, so it fills with audio nobody reads again
 * (~2 MB a minute of continuous talk, +19 MB measured). A process of its own (the test runner's heap
 * would drown the figure) writes 20 minutes of talk as 4 s segments through the real Store (dist/,
 * built by the global setup) and reports its anonymous memory after the first minute and at the end.
 */
const CHILD = (dbPath: string) => `
import { readFileSync } from 'node:fs';
const { Store } = await import(${JSON.stringify(join(ROOT, 'dist/store/store.js'))});
const store = new Store({ path: ${JSON.stringify(dbPath)} });
const anonMb = () => Number(/RssAnon:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) / 1024;
const pcm = new Int16Array(4 * 16000);
for (let i = 0; i < pcm.length; i++) pcm[i] = ((i * 7919) % 20000) - 10000;
const write = (i) => store.recordSegment({ segment: { pcm, prerollSamples: 8000, startSample: i * pcm.length, vadStartSample: i * pcm.length + 8000, endSample: (i + 1) * pcm.length, startedAt: Date.now(), index: i, closeReason: 'hangover', maxProb: 0.9, openedBy: 'vad' } });
let i = 0;
for (; i < 15; i++) write(i);
gc();
const after1 = anonMb();
for (; i < 300; i++) write(i);
gc();
console.log(JSON.stringify({ after1, after20: anonMb(), segments: store.db.prepare('SELECT COUNT(*) FROM segments').pluck().get() }));
store.close();
`;

describe('the segment log over a long talk', () => {
  it('keeps its memory flat while it stores 20 minutes of audio', () => {
    const dir = outputDir('store-memory');
    const db = join(dir, 'hark.db');
    for (const f of [db, `${db}-wal`, `${db}-shm`, `${db}.reserve`]) rmSync(f, { force: true });
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', CHILD(db)], { encoding: 'utf8' });
    const r = JSON.parse(out.trim().split('\n').pop()!) as { after1: number; after20: number; segments: number };
    expect(r.segments).toBe(300);
    // SQLite's own 2 MB cache and V8's noise fit well inside 6 MB; the 16 MB cache was +19 MB here.
    expect(r.after20 - r.after1).toBeLessThan(6);
  }, 60_000);
});
