import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

/**
 * smart-whisper is installed from vendor/ with _GNU_SOURCE defined on Linux: without it
 * GCC 14 (Debian trixie, Raspberry Pi OS) stops `npm ci` at ggml.c's CPU_ZERO / getcpu. The build
 * itself is proven under GCC 14 by scripts/pi-check/trixie-gcc14.sh (it needs a trixie root); this
 * guards the wiring: a plain `npm install smart-whisper@x` would silently bring the failure back.
 */
describe('the vendored smart-whisper', () => {
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string; version: string }> };
  const entry = lock.packages['node_modules/smart-whisper']!;

  it('package.json and the lockfile take it from vendor/, and the tarball is there', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(pkg.dependencies['smart-whisper']).toMatch(/^file:vendor\/smart-whisper-.*-hark\.\d+\.tgz$/);
    expect(entry.resolved).toBe(pkg.dependencies['smart-whisper']);
    expect(existsSync(join(ROOT, entry.resolved!.slice('file:'.length)))).toBe(true);
  });

  it('its binding.gyp defines _GNU_SOURCE on Linux, in the tarball and in what npm installed', () => {
    const gypInTarball = execFileSync('tar', ['-xzOf', join(ROOT, entry.resolved!.slice('file:'.length)), 'package/binding.gyp'], { encoding: 'utf8' });
    const installed = readFileSync(join(ROOT, 'node_modules', 'smart-whisper', 'binding.gyp'), 'utf8');
    for (const gyp of [gypInTarball, installed]) {
      expect(gyp).toMatch(/\['OS=="linux"', \{\s*'defines': \[ '_GNU_SOURCE' \],/);
    }
  });

  /**
   * GCC 14 (trixie) turned these warnings into errors by default; GCC 12 (this machine, CI) gives
   * the same verdict when asked to. So the trixie failure and its fix are checked here on every run,
   * on the C files the addon compiles (x86's code paths; pi-check's arm64 install covers NEON's).
   */
  const GCC14_ERRORS = ['-Werror=implicit-function-declaration', '-Werror=implicit-int', '-Werror=int-conversion', '-Werror=incompatible-pointer-types'];
  const run = promisify(execFile);
  const compile = (dir: string, file: string, defines: string[]) =>
    run(
      'gcc',
      [
        '-fsyntax-only',
        ...GCC14_ERRORS,
        ...defines.map((d) => `-D${d}`),
        '-Iwhisper.cpp/ggml/include',
        '-Iwhisper.cpp/ggml/src',
        '-Iwhisper.cpp/include',
        file,
      ],
      { cwd: dir },
    ).then(
      () => ({ ok: true, stderr: '' }),
      (e: { stderr?: string }) => ({ ok: false, stderr: String(e.stderr ?? e) }),
    );

  it(
    "its C sources compile under GCC 14's strictness with the Linux defines of its binding.gyp, and fail without _GNU_SOURCE as on trixie",
    { timeout: 120_000 },
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'hark-sw-'));
      try {
        execFileSync('tar', ['-xzf', join(ROOT, entry.resolved!.slice('file:'.length)), '-C', dir, '--strip-components=1']);
        const gyp = readFileSync(join(dir, 'binding.gyp'), 'utf8');
        const linux = /\['OS=="linux"', \{\s*'defines': \[([^\]]*)\]/.exec(gyp);
        expect(linux, 'an OS=="linux" block with defines in binding.gyp').not.toBeNull();
        const defines = [...linux![1]!.matchAll(/'([A-Z_0-9=]+)'/g)].map((m) => m[1]!);
        const sources = ['ggml.c', 'ggml-alloc.c', 'ggml-backend.c', 'ggml-quants.c', 'ggml-aarch64.c'].map((f) => `whisper.cpp/ggml/src/${f}`);
        const [without, ...each] = await Promise.all([compile(dir, sources[0]!, []), ...sources.map((f) => compile(dir, f, defines))]);
        expect(without.ok).toBe(false);
        expect(without.stderr).toMatch(/implicit declaration of function .CPU_ZERO./);
        each.forEach((r, i) => expect(r, `${sources[i]}: ${r.stderr.slice(0, 600)}`).toEqual({ ok: true, stderr: '' }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
