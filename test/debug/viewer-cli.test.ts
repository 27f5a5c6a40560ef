import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { jfkWrites, scratch } from '../store/fixtures.js';
import { HARK_BIN, ROOT } from '../support/paths.js';

// No config file or token from the environment of whoever runs the tests.
const env: NodeJS.ProcessEnv = { ...process.env, HARK_DEBUG_TOKEN: '' };
delete env.HARK_CONFIG;

async function copiedDb(): Promise<string> {
  const path = join(scratch('viewer-cli'), 'hark-from-the-pi.db');
  const s = new Store({ path, housekeeping: null });
  for (const w of await jfkWrites(Date.UTC(2020, 0, 1))) s.recordSegment(w); // years old: must not be pruned
  s.close();
  return path;
}

function run(args: string[]) {
  return spawnSync(process.execPath, [HARK_BIN, ...args], { cwd: ROOT, env, encoding: 'utf8', timeout: 20_000 });
}

let child: ChildProcess | null = null;
afterEach(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = null;
});

describe('hark viewer', () => {
  it('serves a database file without the daemon, prunes nothing, and stops cleanly on SIGTERM', async () => {
    const db = await copiedDb();
    child = spawn(process.execPath, [HARK_BIN, 'viewer', '--db', db, '--port', '0'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no URL printed within 20 s; stdout: ${out}`)), 20_000);
      child!.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) {
          clearTimeout(t);
          resolve(m[1]!);
        }
      });
      child!.on('exit', (code) => reject(new Error(`viewer exited ${code}: ${out}`)));
    });
    expect(out).toContain(`serving ${db} (4 segments)`);
    const list = (await (await fetch(new URL('/api/segments', url))).json()) as { segments: { id: number }[] };
    expect(list.segments.map((s) => s.id)).toEqual([4, 3, 2, 1]);
    expect(await (await fetch(new URL('/healthz', url))).json()).toMatchObject({ mode: 'viewer', store: { segments: 4 } });
    expect((await fetch(new URL('/', url))).status).toBe(200);
    expect((await fetch(new URL('/api/segments/2/audio.wav', url))).status).toBe(200);

    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(!existsSync(db + '-wal') || statSync(db + '-wal').size === 0).toBe(true);
  });

  it('says clearly when the file is not there, or the port is nonsense, or the LAN needs a token', async () => {
    const missing = run(['viewer', '--db', join(scratch('viewer-cli'), 'nope.db'), '--port', '0']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^hark: .*nope\.db: no such database file\n$/);

    const db = await copiedDb();
    const port = run(['viewer', '--db', db, '--port', 'eighty']);
    expect(port.status).toBe(2);
    expect(port.stderr).toContain('--port: must be a whole number from 0 to 65535');

    const lan = run(['viewer', '--db', db, '--port', '0', '--host', '0.0.0.0']);
    expect(lan.status).toBe(1);
    expect(lan.stderr).toMatch(/refusing to listen on 0\.0\.0\.0 without a token/);
  });

  it('is listed in hark --help', () => {
    const help = run(['--help']);
    expect(help.stdout).toMatch(/viewer \[options\]\s+serve the audio debug viewer/);
  });
});
