import { execFile } from 'node:child_process';

/** Run a program for a diagnostic; the result says what happened, it never throws. */
export function execForDoctor(cmd: string, args: string[], opts: { timeoutMs?: number } = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: opts.timeoutMs ?? 5000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve({ code: 0, stdout, stderr });
      const e = err as NodeJS.ErrnoException & { code?: number | string; killed?: boolean };
      if (e.code === 'ENOENT') return resolve({ code: 127, stdout: '', stderr: `${cmd}: not found` });
      if (e.killed) return resolve({ code: 124, stdout, stderr: `${stderr}\n${cmd}: timed out` });
      resolve({ code: typeof e.code === 'number' ? e.code : 1, stdout, stderr });
    });
  });
}
