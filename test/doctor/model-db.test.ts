import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { HARK_BIN, TINY_MODEL, outputDir } from '../support/paths.js';

const run = promisify(execFile);

async function doctor(dir: string, yaml: string) {
  const cfg = join(dir, 'hark.yaml');
  writeFileSync(cfg, yaml);
  const r = (await run(process.execPath, [HARK_BIN, 'doctor', '--json', '--config', cfg]).catch((e) => e)) as { stdout: string };
  const checks = (JSON.parse(r.stdout) as { checks: { id: string; status: string; detail: string; fix?: string }[] }).checks;
  return { model: checks.find((c) => c.id === 'whisper-model')!, db: checks.find((c) => c.id === 'database')! };
}

describe('hark doctor: the Whisper model and the segment log', () => {
  const dir = outputDir('doctor-model-db');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'models'), { recursive: true });

  it('a missing model fails with the fetch command', async () => {
    const { model } = await doctor(
      dir,
      `stt:\n  whisper:\n    model: base.en-q5_1\n    modelsDir: ${JSON.stringify(join(dir, 'models'))}\nstore:\n  path: ${JSON.stringify(join(dir, 'none.db'))}\n`,
    );
    expect(model.status).toBe('fail');
    expect(model.fix).toBe('hark model fetch base.en-q5_1');
  });

  it('a truncated model fails and says to fetch a good copy', async () => {
    writeFileSync(join(dir, 'models', 'ggml-tiny.en.bin'), Buffer.alloc(1000, 7));
    const { model } = await doctor(dir, `stt:\n  whisper:\n    model: tiny.en\n    modelsDir: ${JSON.stringify(join(dir, 'models'))}\n`);
    expect(model.status).toBe('fail');
    expect(model.fix).toMatch(/hark model fetch tiny\.en/);
  });

  it('warns that a weightless test model will hear nothing', async () => {
    copyFileSync(TINY_MODEL, join(dir, 'models', 'ggml-test.bin'));
    const { model } = await doctor(dir, `stt:\n  whisper:\n    model: ${JSON.stringify(join(dir, 'models', 'ggml-test.bin'))}\n`);
    expect(model.status).toBe('warn');
    expect(model.detail).toMatch(/no weights/);
    // `hark doctor` also times the model on this CPU: seconds on a busy 2-core machine.
  }, 120_000);

  it('reports a sound database with its segment count, and a damaged one as a failure', async () => {
    const good = join(dir, 'good.db');
    const store = new Store({ path: good, housekeeping: null });
    store.recordSegment({ segment: { pcm: new Int16Array(1600), prerollSamples: 160, startedAt: Date.now() } });
    store.close();
    expect((await doctor(dir, `store:\n  path: ${JSON.stringify(good)}\n`)).db).toMatchObject({ status: 'ok', detail: expect.stringContaining('1 segments') });

    const bad = join(dir, 'bad.db');
    writeFileSync(bad, 'SQLite format 3\u0000' + 'x'.repeat(5000));
    const { db } = await doctor(dir, `store:\n  path: ${JSON.stringify(bad)}\n`);
    expect(db.status).toBe('fail');
    expect(db.detail).toContain(bad);
  });
});
