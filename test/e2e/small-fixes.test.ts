import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HARK_BIN, TINY_MODEL, outputDir } from '../support/paths.js';

/** The small things an operator trips over, each through the real `hark` command. */
function hark(args: string[], opts: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [HARK_BIN, ...args], { env: { ...process.env, ...opts.env }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(opts.input ?? '');
  });
}

describe('hark: small fixes', () => {
  const dir = outputDir('e2e-small-fixes');
  let busy: Server | null = null;
  afterAll(() => busy?.close());

  it('prints a start-up error once, not twice', async () => {
    busy = createServer();
    await new Promise<void>((r) => busy!.listen(0, '127.0.0.1', () => r()));
    const port = (busy.address() as { port: number }).port;
    const r = await hark(['run', '--port', String(port), '--db', join(dir, 'busy.db'), '--model', TINY_MODEL, '--stt-mode', 'local-only'], {
      env: { HARK_CONFIG: '/dev/null' },
    });
    const mentions = r.stderr.split('\n').filter((l) => l.includes('already in use'));
    expect(mentions, r.stderr).toHaveLength(1);
    expect(r.code).not.toBe(0);
  });

  it('hark simulate leaves no temp directory behind when nothing was written', async () => {
    const before = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('hark-simulate-')));
    const r = await hark(['simulate', '--config', '/dev/null'], { input: 'computer\nmode query\n' });
    expect(r.code).toBe(0);
    const outDir = JSON.parse(r.stdout.split('\n')[0]!).outDir as string;
    expect(existsSync(outDir)).toBe(false);
    const after = readdirSync(tmpdir()).filter((n) => n.startsWith('hark-simulate-') && !before.has(n));
    expect(after).toEqual([]);
  });

  it('hark simulate refuses an absurd virtual time, naming the line', async () => {
    const r = await hark(['simulate', '--config', '/dev/null'], { input: '{"atMs": 1e300}\nhello\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/line 1: atMs must be at most/);
    expect(r.stdout).toMatch(/"type":"end"/);
  });

  it('a YAML alias bomb is a config error naming the file, not "unexpected error"', async () => {
    const bomb = join(dir, 'bomb.yaml');
    const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    writeFileSync(bomb, lines.join('\n') + '\n');
    const r = await hark(['config', '--config', bomb]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(bomb);
    expect(r.stderr).toMatch(/not valid YAML: Excessive alias count/);
    expect(r.stderr).not.toMatch(/unexpected error/);
    rmSync(bomb);
  });
});
