import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { HarkProcess } from '../support/hark-process.js';
import { outputDir } from '../support/paths.js';
import { scene, writeScene } from '../support/speech.js';

/**
 * Kitchen timers across a restart, with the real daemon twice on one store file: the first
 * `hark run` hears two timers set and shuts down; the file is then aged as if hark had been off
 * for 12 minutes (the stored due times moved back: no test waits 12 real minutes); the second
 * `hark run` restores both at start, and the one that came due meanwhile rings saying how long ago.
 */
const PHRASES = ['computer set a pasta timer for ten minutes', 'computer set a roast timer for one hour'];

function run(dir: string, db: string, wav: string, deepgram: DeepgramDouble): HarkProcess {
  return new HarkProcess(['--db', db, '--port', '0', '--stt-mode', 'cloud-only', '--deepgram-url', deepgram.url, '--input', wav, '--exit-at-end'], {
    ...process.env,
    DEEPGRAM_API_KEY: 'e2e-key',
    HARK_CONFIG: join(dir, 'hark.yaml'),
  });
}

async function finished(h: HarkProcess) {
  return Promise.race([
    h.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`hark did not finish; stderr:\n${h.stderr.slice(-20).join('\n')}`)), 60_000)),
  ]);
}

describe('hark run, twice on one store: timers survive a restart', () => {
  let first: HarkProcess;
  let second: HarkProcess;
  let deepgram: DeepgramDouble;
  let exits: { code: number | null }[] = [];
  let kept: { label: string; state: string }[] = [];

  beforeAll(async () => {
    const dir = outputDir('e2e-timer-restart');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const db = join(dir, 'hark.db');
    writeFileSync(join(dir, 'hark.yaml'), `device:\n  area: kitchen\nactions:\n  dataDir: ${JSON.stringify(dir)}\nspeech:\n  device: "null"\n`);
    deepgram = await DeepgramDouble.start({ apiKey: 'e2e-key' });
    deepgram.script = PHRASES.map((text) => ({ text }));
    const talk = await writeScene(await scene([800, PHRASES[0]!, 1500, PHRASES[1]!, 1200]), 'timer-restart-talk');
    first = run(dir, db, talk, deepgram);
    exits.push(await finished(first));

    const file = new Database(db);
    kept = file.prepare('SELECT label, state FROM timers ORDER BY id').all() as typeof kept;
    file.prepare('UPDATE timers SET due_at = due_at - 720000 WHERE due_at IS NOT NULL').run();
    file.close();

    deepgram.script = [];
    const quiet = await writeScene(await scene([1500]), 'timer-restart-quiet');
    second = run(dir, db, quiet, deepgram);
    exits.push(await finished(second));
  }, 150_000);

  afterAll(async () => {
    first?.kill('SIGKILL');
    second?.kill('SIGKILL');
    await deepgram?.close();
  });

  it('the first run set both timers and kept them in the store', () => {
    expect(exits[0]!.code).toBe(0);
    expect(
      first
        .of('timer')
        .filter((t) => t.event === 'set')
        .map((t) => [t.label, t.seconds]),
    ).toEqual([
      ['pasta', 600],
      ['roast', 3600],
    ]);
    expect(kept).toEqual([
      { label: 'pasta', state: 'running' },
      { label: 'roast', state: 'running' },
    ]);
  });

  it('the second run restores them; the one due while hark was off rings, saying how long ago', () => {
    expect(exits[1]!.code).toBe(0);
    expect(
      second
        .of('timer')
        .filter((t) => t.event === 'restored')
        .map((t) => t.label),
    ).toEqual(['pasta', 'roast']);
    expect(second.of('speak').map((s) => s.text)).toContain('The pasta timer went off 2 minutes ago.');
    expect(
      second
        .of('timer')
        .filter((t) => t.event === 'done')
        .map((t) => t.label),
    ).toEqual(['pasta']);
  });
});
