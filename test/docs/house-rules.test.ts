import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('the house rules (docs/architecture.md)', () => {
  it('no file in src/ is over 400 lines: a file that grows past it holds two things, and is split', () => {
    const long = sources(join(ROOT, 'src'))
      .map((f) => ({ f: relative(ROOT, f), n: readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((x) => x.n > 400)
      .map((x) => `${x.f}: ${x.n} lines`);
    expect(long).toEqual([]);
  });

  it('the code is as the formatter writes it (npm run format fixes it; .prettierrc)', () => {
    const r = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/prettier/bin/prettier.cjs'),
        '--list-different',
        'src',
        'test',
        'web',
        'scripts',
        'bin',
        '.dependency-cruiser.cjs',
        'vitest.config.ts',
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout.split('\n').filter(Boolean)).toEqual([]);
  }, 150_000);
});
