import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fakeMic } from '../support/fake-mic.js';
import { HarkProcess } from '../support/hark-process.js';
import { TINY_MODEL, outputDir } from '../support/paths.js';
import { scene } from '../support/speech.js';

/**
 * The microphone dies in the middle of a phrase and comes back. What was heard
 * before the outage is one segment, closed 'capture-lost' with the recorder's reason; what comes after
 * the restart is a new segment that starts at or after the outage — never the two glued together, and
 * no pre-roll reaching back across the gap.
 */
describe('hark run: a capture restart closes the open segment', () => {
  let hark: HarkProcess;
  let db: string;
  let dieAtMs: number;

  beforeAll(async () => {
    const dir = outputDir('e2e-capture-outage');
    rmSync(dir, { recursive: true, force: true });
    const s = await scene([1000, 'computer, please set a timer for twenty five minutes and then read the shopping list', 2500]);
    const p = s.phrases[0]!;
    const mic = fakeMic(join(dir, 'bin'), s.pcm, ['play']);
    const pieces = Math.floor((p.start + (p.end - p.start) / 2) / mic.pieceSamples);
    dieAtMs = (pieces * mic.pieceSamples) / 16;
    writeFileSync(join(mic.dir, 'plan.txt'), `die-after:${pieces}\nplay\n`);
    db = join(dir, 'hark.db');
    writeFileSync(join(dir, 'hark.yaml'), `actions:\n  dataDir: ${JSON.stringify(dir)}\ncapture:\n  restartInitialMs: 300\nspeech:\n  device: "null"\n`);
    hark = new HarkProcess(['--db', db, '--port', '0', '--model', TINY_MODEL, '--stt-mode', 'local-only'], {
      ...process.env,
      PATH: `${mic.dir}:${process.env.PATH}`,
      HARK_CONFIG: join(dir, 'hark.yaml'),
    });
    try {
      await hark.waitFor((e) => e.type === 'capture.down', 30_000, 'the microphone to die');
      await hark.waitFor((e) => e.type === 'segment.closed' && e.closeReason !== 'capture-lost', 30_000, 'the segment after the restart');
      const until = Date.now() + 20_000;
      while (hark.of('segment.handled').length < hark.of('segment.closed').length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    } finally {
      writeFileSync(join(dir, 'events.jsonl'), hark.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
      writeFileSync(join(dir, 'stderr.log'), hark.stderr.join('\n') + '\n');
    }
    hark.kill('SIGTERM');
    await hark.exited;
  }, 120_000);

  afterAll(() => hark?.kill('SIGKILL'));

  it('closes the segment open at the outage, naming it, and starts the next one fresh', () => {
    const closed = hark.of('segment.closed');
    const lost = closed.find((c) => c.closeReason === 'capture-lost');
    expect(lost, JSON.stringify(closed)).toBeDefined();
    expect(String(lost!.outage)).toMatch(/read error|No such device/);
    expect(Number(lost!.endMs)).toBeGreaterThan(dieAtMs - 300);
    expect(Number(lost!.endMs)).toBeLessThanOrEqual(dieAtMs + 1);
    const after = closed.slice(closed.indexOf(lost!) + 1);
    expect(after.length).toBeGreaterThanOrEqual(1);
    for (const s of after) expect(Number(s.startMs)).toBeGreaterThanOrEqual(Number(lost!.endMs));
    const indexes = closed.map((c) => c.index);
    expect(new Set(indexes).size).toBe(indexes.length);
  });

  it('stores the closed segment with its close reason', () => {
    const conn = new Database(db, { readonly: true });
    try {
      const rows = conn.prepare('SELECT close_reason AS r FROM segments ORDER BY id').all() as { r: string }[];
      expect(rows.map((r) => r.r)).toContain('capture-lost');
    } finally {
      conn.close();
    }
  });
});
