import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARK_BIN, ROOT } from '../support/paths.js';

export type Line = Record<string, unknown> & { type: string };

export interface SimResult {
  status: number | null;
  stderr: string;
  lines: Line[];
  outDir: string;
  of: (type: string) => Line[];
  /** What hark said, in order. */
  spoken: () => string[];
  /** Fired actions as name + args. */
  actions: () => { name: string; args: unknown }[];
  /** The JSON lines the file target wrote (submissions.jsonl), if any. */
  submissions: () => Record<string, unknown>[];
}

/**
 * The built CLI, `node bin/hark.js simulate`, with `input` on stdin: the events a user would see.
 * Spawned asynchronously, so an Ollama double in this process can answer it. `yaml` is a config file.
 */
export function simulate(input: string, opts: { args?: string[]; yaml?: string; drainMs?: number } = {}): Promise<SimResult> {
  const outDir = mkdtempSync(join(tmpdir(), 'hark-conv-'));
  const args = ['simulate', '--out-dir', outDir, '--drain-ms', String(opts.drainMs ?? 60_000), ...(opts.args ?? [])];
  if (opts.yaml !== undefined) {
    const cfg = join(outDir, 'hark.yaml');
    writeFileSync(cfg, opts.yaml);
    args.push('--config', cfg);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HARK_BIN, ...args], { cwd: ROOT, env: { ...process.env, HARK_CONFIG: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      const lines = stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Line);
      const of = (t: string) => lines.filter((l) => l.type === t);
      const file = join(outDir, 'submissions.jsonl');
      resolve({
        status,
        stderr,
        lines,
        outDir,
        of,
        spoken: () => of('speak').map((l) => String(l.text)),
        actions: () => of('action').map((l) => ({ name: String(l.name), args: l.args })),
        submissions: () => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : []),
      });
    });
    child.stdin.end(input);
  });
}

/** Lines of input: strings are plain utterances 1 s apart; objects are JSON lines. */
export function script(...lines: (string | Record<string, unknown>)[]): string {
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
}
