import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';

/**
 * whisper.cpp's command-line `main`, built from the very sources smart-whisper vendors, with the same
 * compiler settings as scripts/build-whisper.sh builds the addon: whisper.cpp's own Makefile adds
 * -O3 -DNDEBUG and -march=native (x86) / -mcpu=native (arm64); no OpenMP, as in the addon. The spawn
 * side of the benchmark then differs from the in-process side only in what spawning costs, not in
 * the math. Built once into a cache outside the repo (~30 s on 2 cores), keyed by the sources'
 * version and this CPU's flags (a native binary must not be reused on another CPU).
 */
export function ensureWhisperCli(): string {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve('smart-whisper/package.json'));
  const src = join(pkgDir, 'whisper.cpp');
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  let cpu = '';
  try {
    cpu = /^(flags|Features)\s*:.*$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[0] ?? '';
  } catch {
    // not Linux: the key then covers the sources only
  }
  const key = createHash('sha256')
    .update(version)
    .update(readFileSync(join(src, 'src', 'whisper.cpp')))
    .update(cpu)
    .digest('hex')
    .slice(0, 12);
  const cache = process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  const dir = join(cache, 'hark-bench', `whisper.cpp-${version}-native-${key}`);
  const bin = join(dir, 'main');
  if (existsSync(bin)) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  cpSync(src, dir, { recursive: true });
  // The npm package leaves out this include (it only adds compiler warning flags).
  mkdirSync(join(dir, 'scripts'), { recursive: true });
  writeFileSync(join(dir, 'scripts', 'get-flags.mk'), '# stub: not shipped in the smart-whisper package\n');
  process.stderr.write(`building whisper.cpp main in ${dir} (once) ...\n`);
  execFileSync('make', ['-j2', 'main', 'GGML_NO_OPENMP=1'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  if (!existsSync(bin)) throw new Error(`whisper.cpp build in ${dir} produced no main`);
  return bin;
}
