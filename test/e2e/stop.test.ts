import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fakeMic } from '../support/fake-mic.js';
import { HarkProcess } from '../support/hark-process.js';
import { TINY_MODEL, outputDir } from '../support/paths.js';
import { scene } from '../support/speech.js';

/**
 * `systemctl restart` in the middle of a sentence: SIGTERM while the person is speaking. The segment
 * being said is closed and stored (audio and row), not lost with the process, and hark exits 0
 * within its stop budget.
 */
describe('hark run stopped mid-phrase (SIGTERM)', () => {
  let hark: HarkProcess;
  let db: string;
  let exit: { code: number | null; signal: NodeJS.Signals | null };
  let stopMs = 0;

  beforeAll(async () => {
    const dir = outputDir('e2e-stop');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const s = await scene([1000, 'computer set a timer for ten minutes', 1500, 'start inventory and count the boxes of tomatoes on the second shelf', 3000]);
    const mic = fakeMic(join(dir, 'bin'), s.pcm, ['play']);
    db = join(dir, 'hark.db');
    writeFileSync(join(dir, 'hark.yaml'), `speech:\n  device: "null"\nactions:\n  dataDir: ${JSON.stringify(dir)}\n`);
    hark = new HarkProcess(['--db', db, '--port', '0', '--model', TINY_MODEL, '--stt-mode', 'local-only'], {
      ...process.env,
      PATH: `${mic.dir}:${process.env.PATH}`,
      HARK_CONFIG: join(dir, 'hark.yaml'),
    });
    // The second phrase is being said: its segment is open.
    await hark.waitFor((e) => e.type === 'segment.open' && hark.of('segment.open').length === 2, 30_000, 'the second phrase to start');
    await new Promise((r) => setTimeout(r, 1200));
    const t = Date.now();
    hark.kill('SIGTERM');
    exit = await hark.exited;
    stopMs = Date.now() - t;
    writeFileSync(join(dir, 'stderr.log'), hark.stderr.join('\n') + '\n');
  }, 60_000);

  afterAll(() => hark?.kill('SIGKILL'));

  it('exits cleanly (the time it took is written to test-output/e2e-stop/stop-ms.txt, not asserted)', () => {
    expect(exit.code).toBe(0);
    writeFileSync(join(outputDir('e2e-stop'), 'stop-ms.txt'), `${stopMs}\n`);
  });

  it('the open segment is closed, handled and stored with its audio: nothing said is lost', () => {
    const closed = hark.of('segment.closed');
    expect(closed.map((c) => c.closeReason)).toEqual(['hangover', 'end-of-stream']);
    expect(hark.of('segment.handled')).toHaveLength(2);
    const d = new Database(db, { readonly: true });
    const rows = d
      .prepare(
        'SELECT s.stream_index AS idx, s.close_reason AS reason, length(a.pcm) AS bytes FROM segments s JOIN segment_audio a ON a.segment_id = s.id ORDER BY s.id',
      )
      .all() as { idx: number; reason: string; bytes: number }[];
    d.close();
    expect(rows.map((r) => [r.idx, r.reason])).toEqual([
      [0, 'hangover'],
      [1, 'end-of-stream'],
    ]);
    // At least the 1.2 s said before the stop.
    expect(rows[1]!.bytes).toBeGreaterThan(1.2 * 32_000);
  });
});
