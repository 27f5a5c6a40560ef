import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { arch } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ROOT, outputDir } from '../support/paths.js';

const run = promisify(execFile);
const SCRIPT = join(ROOT, 'scripts', 'build-whisper.sh');

/**
 * scripts/build-whisper.sh on a stand-in for node_modules/smart-whisper: its `install` script (what
 * the real package runs as `node-gyp rebuild`) writes an "addon" recording the compiler flags it was
 * given and counts its runs, so the script's decisions are checked without compiling whisper.cpp.
 */
function sandbox(name: string): {
  root: string;
  addon: string;
  stamp: string;
  builds: () => number;
  run: (args?: string[], env?: Record<string, string>) => Promise<{ code: number; stdout: string; stderr: string }>;
} {
  const root = join(outputDir('build-whisper'), name);
  rmSync(root, { recursive: true, force: true });
  const sw = join(root, 'node_modules', 'smart-whisper');
  mkdirSync(join(sw, 'build', 'Release'), { recursive: true });
  mkdirSync(join(root, 'scripts'), { recursive: true });
  copyFileSync(SCRIPT, join(root, 'scripts', 'build-whisper.sh'));
  writeFileSync(join(sw, 'package.json'), JSON.stringify({ name: 'smart-whisper', version: '0.8.1', scripts: { install: 'node fake-gyp.cjs' } }));
  const counter = join(root, 'builds.txt');
  writeFileSync(
    join(sw, 'fake-gyp.cjs'),
    `const fs = require('fs');
if (process.env.FAKE_BUILD_FAIL) { console.error('c++: internal compiler error'); process.exit(1); }
fs.appendFileSync(${JSON.stringify(counter)}, 'x');
fs.mkdirSync('build/Release', { recursive: true });
fs.writeFileSync('build/Release/smart-whisper.node', 'CFLAGS=' + process.env.CFLAGS + '\\nCXXFLAGS=' + process.env.CXXFLAGS + '\\nJOBS=' + process.env.JOBS + '\\n');
`,
  );
  const addon = join(sw, 'build', 'Release', 'smart-whisper.node');
  writeFileSync(addon, 'built by npm ci: no flags');
  return {
    root,
    addon,
    stamp: join(root, 'node_modules', '.hark-whisper-stamp'),
    builds: () => (existsSync(counter) ? readFileSync(counter, 'utf8').length : 0),
    run: async (args = [], env = {}) => {
      try {
        const r = await run('bash', [join(root, 'scripts', 'build-whisper.sh'), ...args], { env: { ...process.env, ...NOT_A_PI, ...env } });
        return { code: 0, ...r };
      } catch (e) {
        const err = e as { code: number; stdout: string; stderr: string };
        return { code: err.code, stdout: err.stdout, stderr: err.stderr };
      }
    },
  };
}

/**
 * These tests are about the build's mechanics (flags, swap, stamp), not about which Pi it is for
 * (test/install/target.test.ts): on arm64 they name a CPU that is no Pi's, so the target is `native`
 * wherever they run. Found under pi-check's arm64 root, where a Pi 5's cpuinfo made it cortex-a76 —
 * as it would on a real Pi 5. x86 ignores both variables.
 */
const genericArm = join(outputDir('build-whisper'), 'cpuinfo-generic-arm.txt');
mkdirSync(outputDir('build-whisper'), { recursive: true });
writeFileSync(genericArm, 'processor\t: 0\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU part\t: 0xd4f\n');
const NOT_A_PI = { HARK_CPUINFO: genericArm, HARK_DT_MODEL: '/nonexistent' };
const archFlag = arch() === 'x64' ? '-march=native' : arch() === 'arm64' || arch() === 'arm' ? '-mcpu=native' : '';
const FLAGS = ['-O3', archFlag, '-DNDEBUG'].filter(Boolean).join(' ');

// 600 s: a sandboxed build spawns node several times, which takes tens of seconds each under
// pi-check's emulation (the rebuild test, four builds, passed 180 s there on a loaded host).
describe('scripts/build-whisper.sh', { timeout: 600_000 }, () => {
  it('prints the flags for this machine: -O3, the CPU flag and NDEBUG', async () => {
    const { stdout } = await run('bash', [SCRIPT, '--print-flags'], { env: { ...process.env, ...NOT_A_PI } });
    expect(stdout.trim()).toBe(FLAGS);
  });

  it('builds once with the flags, swaps the addon in, stamps it; a second run does nothing', async () => {
    const s = sandbox('once');
    expect((await s.run(['--check'])).code).toBe(1);
    const first = await s.run();
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/building whisper\.cpp for native \((this CPU|cpuinfo CPU part 0xd4f \(not a Pi's core\))\): -O3 .*-DNDEBUG/);
    expect(s.builds()).toBe(1);
    const built = readFileSync(s.addon, 'utf8');
    expect(built).toContain(`CFLAGS=${FLAGS}\n`);
    expect(built).toContain(`CXXFLAGS=${FLAGS}\n`);
    expect(built).toMatch(/JOBS=\d+/);
    const stamp = readFileSync(s.stamp, 'utf8');
    expect(stamp).toMatch(/^smart-whisper 0\.8\.1$/m);
    expect(stamp).toMatch(/^node-abi \d+$/m);
    expect(stamp).toMatch(/^cpu-flags-sha256 [0-9a-f]{64}$/m);
    expect(stamp).toContain(`addon-sha256 ${createHash('sha256').update(built).digest('hex')}`);
    expect(readdirSync(join(s.root, 'node_modules')).filter((n) => n.startsWith('.hark-whisper-work'))).toEqual([]);

    const second = await s.run();
    expect(second.stdout).toMatch(/already built for this CPU/);
    expect(s.builds()).toBe(1);
    expect((await s.run(['--check'])).code).toBe(0);
  });

  it('rebuilds when npm ci replaced the addon, or the flags changed', async () => {
    const s = sandbox('again');
    await s.run();
    writeFileSync(s.addon, 'built by npm ci: no flags');
    expect((await s.run(['--check'])).code).toBe(1);
    await s.run();
    expect(s.builds()).toBe(2);
    expect(readFileSync(s.addon, 'utf8')).toContain('-DNDEBUG');
    await s.run([], { HARK_WHISPER_CFLAGS: '-O2 -DNDEBUG' });
    expect(s.builds()).toBe(3);
    expect(readFileSync(s.stamp, 'utf8')).toMatch(/^cflags -O2 -DNDEBUG$/m);
    await s.run(['--force'], { HARK_WHISPER_CFLAGS: '-O2 -DNDEBUG' });
    expect(s.builds()).toBe(4);
  });

  it('a failed build leaves the working addon and says so', async () => {
    const s = sandbox('fails');
    const r = await s.run([], { FAKE_BUILD_FAIL: '1' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('internal compiler error');
    expect(r.stderr).toMatch(/the build failed .*the previous addon is left in place/);
    expect(readFileSync(s.addon, 'utf8')).toBe('built by npm ci: no flags');
    expect(existsSync(s.stamp)).toBe(false);
  });

  it('needs npm ci first, and rejects unknown options', async () => {
    const s = sandbox('empty');
    rmSync(join(s.root, 'node_modules'), { recursive: true });
    const r = await s.run();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/node_modules\/smart-whisper is missing: run npm ci first/);
    expect((await s.run(['--frobnicate'])).code).toBe(2);
  });
});
