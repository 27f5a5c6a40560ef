import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HARK_BIN, outputDir } from '../support/paths.js';

export type Line = Record<string, unknown>;

/** A generated assignment: pick i at aisle i, slot 10+i, check digits two digits from i, quantity 1..3. */
export function assignment(id: string, n: number, over: (i: number) => Record<string, unknown> = () => ({})): Record<string, unknown> {
  return {
    version: 1,
    type: 'assignment',
    id,
    picks: Array.from({ length: n }, (_, k) => {
      const i = k + 1;
      return {
        id: `P${i}`,
        aisle: String(i),
        slot: String(10 + i),
        checkDigits: String(10 + ((i * 37) % 90)),
        description: `Item ${i}`,
        quantity: (i % 3) + 1,
        unit: 'case',
        unitPlural: 'cases',
        ...over(i),
      };
    }),
  };
}

/** The quantity and check digits the generated pick i has. */
export const pickOf = (i: number) => ({ check: String(10 + ((i * 37) % 90)), quantity: (i % 3) + 1 });

export interface Run {
  lines: Line[];
  stderr: string;
  code: number;
  dir: string;
}

/** A fresh scratch directory for one scenario (the ledger lives there; a second run on it resumes). */
export function scratch(name: string): string {
  return mkdtempSync(join(outputDir('picking'), `${name}-`));
}

/**
 * `hark simulate` with picking on, as a technician runs it: a config file, assignment files, one
 * utterance a line. Lines are spaced 6 s apart so hark's modelled voice has finished each prompt.
 */
export function simulate(
  dir: string,
  said: readonly (string | Record<string, unknown>)[],
  o: { assignments?: Record<string, unknown>[]; config?: string; raw?: string[] } = {},
): Promise<Run> {
  writeFileSync(join(dir, 'hark.yaml'), o.config ?? 'picking:\n  enabled: true\n');
  const files = (o.assignments ?? []).map((a, i) => {
    const f = join(dir, `assignment-${Date.now()}-${i}.json`);
    writeFileSync(f, JSON.stringify(a));
    return f;
  });
  for (const [i, r] of (o.raw ?? []).entries()) {
    const f = join(dir, `raw-${i}.json`);
    writeFileSync(f, r);
    files.push(f);
  }
  let at = 0;
  const input = said.map((s) => {
    at += 6000;
    return JSON.stringify(typeof s === 'string' ? { text: s, atMs: at } : { ...s, atMs: at });
  });
  const args = [
    HARK_BIN,
    'simulate',
    '-c',
    join(dir, 'hark.yaml'),
    '--out-dir',
    join(dir, 'out'),
    '--drain-ms',
    '0',
    ...files.flatMap((f) => ['--assignment', f]),
  ];
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, args, { timeout: 30_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && err.code === undefined) return reject(err);
      const lines = stdout.trim()
        ? stdout
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as Line)
        : [];
      resolve({ lines, stderr, code: typeof err?.code === 'number' ? err.code : 0, dir });
    });
    child.stdin!.end(input.join('\n') + '\n');
  });
}

export const spoken = (lines: Line[]) => lines.filter((l) => l.type === 'speak').map((l) => l.text as string);
export const events = (lines: Line[], name?: string) => lines.filter((l) => l.type === 'picking' && (name === undefined || l.event === name));

/** What hark said in answer to each line (its speech after a heard line, until the next one). */
export function replies(lines: Line[]): string[][] {
  const out: string[][] = [];
  for (const l of lines) {
    if (l.type === 'heard') out.push([]);
    else if (l.type === 'speak' && out.length) out[out.length - 1]!.push(l.text as string);
  }
  return out;
}
