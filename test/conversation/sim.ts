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

export interface SimOptions {
  args?: string[];
  /** A config file's text. */
  yaml?: string;
  /** `--drain-ms` (60 s by default); null leaves the CLI's own. */
  drainMs?: number | null;
  /** Environment changes: a string sets the variable, undefined removes it. */
  env?: Record<string, string | undefined>;
  /** The CLI is killed after this long (a loaded 2-core machine takes seconds just to start it). */
  timeoutMs?: number;
}

/**
 * The built CLI, `node bin/hark.js simulate`, with `input` on stdin: the events a user would see.
 * Spawned asynchronously, so a double in this process (Ollama, Home Assistant) can answer it.
 */
export function simulate(input: string, opts: SimOptions = {}): Promise<SimResult> {
  const outDir = mkdtempSync(join(tmpdir(), 'hark-conv-'));
  const drain = opts.drainMs === undefined ? 60_000 : opts.drainMs;
  const args = ['simulate', '--out-dir', outDir, ...(drain === null ? [] : ['--drain-ms', String(drain)]), ...(opts.args ?? [])];
  if (opts.yaml !== undefined) {
    const cfg = join(outDir, 'hark.yaml');
    writeFileSync(cfg, opts.yaml);
    args.push('--config', cfg);
  }
  const env: NodeJS.ProcessEnv = { ...process.env, HARK_CONFIG: '' };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HARK_BIN, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 25_000);
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
        submissions: () =>
          existsSync(file)
            ? readFileSync(file, 'utf8')
                .split('\n')
                .filter(Boolean)
                .map((l) => JSON.parse(l) as Record<string, unknown>)
            : [],
      });
    });
    child.stdin.end(input);
  });
}

/** Lines of input: strings are plain utterances 1 s apart; objects are JSON lines. */
export function script(...lines: (string | Record<string, unknown>)[]): string {
  return lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
}
