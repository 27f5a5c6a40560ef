import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/paths.js';

/**
 * smart-whisper is installed from vendor/ with _GNU_SOURCE defined on Linux (issue 24): without it
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

  it("its binding.gyp defines _GNU_SOURCE on Linux, in the tarball and in what npm installed", () => {
    const gypInTarball = execFileSync('tar', ['-xzOf', join(ROOT, entry.resolved!.slice('file:'.length)), 'package/binding.gyp'], { encoding: 'utf8' });
    const installed = readFileSync(join(ROOT, 'node_modules', 'smart-whisper', 'binding.gyp'), 'utf8');
    for (const gyp of [gypInTarball, installed]) {
      expect(gyp).toMatch(/\['OS=="linux"', \{\s*'defines': \[ '_GNU_SOURCE' \],/);
    }
  });
});
