import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { validateConfig } from '../../src/config/load.js';
import { memoryLogger } from '../../src/core/log.js';
import { addonBuildInfo } from '../../src/stt/whisper/addon-elf.js';
import { parseCpuinfo } from '../../src/stt/whisper/cpu-features.js';
import { checkAddonFitsCpu } from '../../src/stt/whisper/binding.js';
import { HarkError } from '../../src/core/errors.js';
import { assessWhisperBuild, parseStamp, warnIfWhisperBuildDiffers, whisperBuildFacts, type WhisperBuildFacts } from '../../src/doctor/whisper-build.js';
import { HARK_BIN, JFK_WAV, TINY_MODEL, outputDir } from '../support/paths.js';
import { CPUINFO_PI4, CPUINFO_PI5, CPUINFO_X86_CORE2, CPUINFO_X86_EPYC } from '../stt/cpuinfo-samples.js';
import { EM_AARCH64, EM_X86_64, makeElf, Q8_DOT_CORTEX_A72, Q8_DOT_CORTEX_A76, systemInfoFunctions } from '../stt/elf-fixture.js';

const run = promisify(execFile);
const DEBUG_STRING = '%s: reallocating %s buffer from size %.02f MiB to %.02f MiB\n';
const REBUILD = 'sudo bash /opt/hark/scripts/build-whisper.sh';

/** Addons as the different builds leave them. */
const X86_NPM_CI = makeElf(EM_X86_64, systemInfoFunctions(EM_X86_64, []), DEBUG_STRING);
const X86_NATIVE = makeElf(EM_X86_64, systemInfoFunctions(EM_X86_64, ['avx', 'avx2', 'fma', 'f16c', 'avx512', 'sse3', 'ssse3']));
const ARM_GENERIC_OR_PI4 = makeElf(EM_AARCH64, [
  ...systemInfoFunctions(EM_AARCH64, ['neon', 'arm_fma']),
  { name: 'ggml_vec_dot_q8_0_q8_0', code: Q8_DOT_CORTEX_A72 },
]);
const ARM_PI5 = makeElf(EM_AARCH64, [
  ...systemInfoFunctions(EM_AARCH64, ['neon', 'arm_fma', 'fp16_va']),
  { name: 'ggml_vec_dot_q8_0_q8_0', code: Q8_DOT_CORTEX_A76 },
]);

function facts(cpuinfo: string | null, addon: Buffer | null, extra: Partial<WhisperBuildFacts> = {}): WhisperBuildFacts {
  return {
    cpu: cpuinfo === null ? null : parseCpuinfo(cpuinfo),
    addonPath: '/opt/hark/node_modules/smart-whisper/build/Release/smart-whisper.node',
    addon: addon ? addonBuildInfo(addon) : null,
    ...(addon ? {} : { addonError: 'ENOENT: no such file or directory' }),
    stamp: null,
    rebuild: REBUILD,
    ...extra,
  };
}

describe('assessWhisperBuild', () => {
  it('the npm ci build on an AVX-512 machine: slow and noisy, with the rebuild command', () => {
    const a = assessWhisperBuild(facts(CPUINFO_X86_EPYC, X86_NPM_CI));
    expect(a.status).toBe('warn');
    expect(a.compiled).toEqual([]);
    expect(a.cpu).toEqual(['AVX', 'AVX2', 'FMA', 'F16C', 'AVX512']);
    expect(a.missing).toEqual(['AVX', 'AVX2', 'FMA', 'F16C', 'AVX512']);
    expect(a.detail).toMatch(/^compiled with: none; this CPU \(AMD EPYC\) has: AVX AVX2 FMA F16C AVX512 — not compiled for AVX AVX2 FMA F16C AVX512/);
    expect(a.detail).toMatch(/without NDEBUG/);
    expect(a.fix).toContain(REBUILD);
    expect(a.problem).toMatch(/several times slower/);
  });

  it('the native build: ok, and names the script when its stamp matches', () => {
    const a = assessWhisperBuild(facts(CPUINFO_X86_EPYC, X86_NATIVE, { stamp: { cflags: '-O3 -march=native -DNDEBUG' } }));
    expect(a.status).toBe('ok');
    expect(a.problem).toBeNull();
    expect(a.fix).toBeUndefined();
    expect(a.detail).toBe(
      'compiled with: AVX AVX2 FMA F16C AVX512, NDEBUG; this CPU (AMD EPYC) has: AVX AVX2 FMA F16C AVX512; built by scripts/build-whisper.sh with -O3 -march=native -DNDEBUG',
    );
  });

  it('a Pi 4 with its own -mcpu=native build: NEON is all it has, and that is fine', () => {
    const a = assessWhisperBuild(facts(CPUINFO_PI4, ARM_GENERIC_OR_PI4));
    expect(a.status).toBe('ok');
    expect(a.detail).toBe('compiled with: NEON, NDEBUG; this CPU (Raspberry Pi 4 Model B Rev 1.1 (Cortex-A72)) has: NEON');
  });

  it('a Pi 5 with a generic arm64 build misses dotprod and fp16', () => {
    const a = assessWhisperBuild(facts(CPUINFO_PI5, ARM_GENERIC_OR_PI4));
    expect(a.status).toBe('warn');
    expect(a.missing).toEqual(['DOTPROD', 'FP16']);
    expect(a.detail).toMatch(
      /compiled with: NEON, NDEBUG; this CPU \(Raspberry Pi 5 Model B Rev 1\.0 \(Cortex-A76\)\) has: NEON DOTPROD FP16 — not compiled for DOTPROD FP16/,
    );
    expect(assessWhisperBuild(facts(CPUINFO_PI5, ARM_PI5)).status).toBe('ok');
  });

  it('a Pi 5 build copied to a Pi 4 fails: it would die of an illegal instruction', () => {
    const a = assessWhisperBuild(facts(CPUINFO_PI4, ARM_PI5));
    expect(a.status).toBe('fail');
    expect(a.extra).toEqual(['DOTPROD', 'FP16']);
    expect(a.detail).toMatch(/illegal instruction/);
    expect(a.fix).toContain(REBUILD);
  });

  it('an addon for another architecture, a missing addon, an unknown CPU', () => {
    expect(assessWhisperBuild(facts(CPUINFO_PI5, X86_NATIVE))).toMatchObject({
      status: 'fail',
      problem: 'the whisper.cpp addon is built for x86_64, but this CPU is arm64',
    });
    const missing = assessWhisperBuild(facts(CPUINFO_PI5, null));
    expect(missing.status).toBe('fail');
    expect(missing.detail).toMatch(/cannot read the whisper.cpp addon .*smart-whisper.node: ENOENT/);
    expect(assessWhisperBuild(facts(CPUINFO_PI5, null, { addonError: 'not a 64-bit little-endian ELF file' })).status).toBe('warn');
    expect(assessWhisperBuild(facts(null, X86_NATIVE)).status).toBe('ok');
    expect(assessWhisperBuild(facts('processor : 0\ncpu model : POWER9\n', X86_NATIVE)).status).toBe('ok');
  });
});

describe('the stamp and the facts from disk', () => {
  it('parses the stamp build-whisper.sh writes', () => {
    expect(parseStamp('smart-whisper 0.8.1\ncflags -O3 -march=native -DNDEBUG\naddon-sha256 abc\n')).toEqual({
      'smart-whisper': '0.8.1',
      cflags: '-O3 -march=native -DNDEBUG',
      'addon-sha256': 'abc',
    });
  });

  it('reads /proc/cpuinfo, the addon and the stamp; the stamp counts only while it matches the addon', () => {
    const dir = outputDir('whisper-build-facts');
    const addonPath = join(dir, 'smart-whisper.node');
    const cpuinfoPath = join(dir, 'cpuinfo');
    const stampPath = join(dir, 'stamp');
    writeFileSync(addonPath, ARM_PI5);
    writeFileSync(cpuinfoPath, CPUINFO_PI5);
    const sum = createHash('sha256').update(ARM_PI5).digest('hex');
    writeFileSync(stampPath, `cflags -O3 -mcpu=native -DNDEBUG\naddon-sha256 ${sum}\n`);
    const f = whisperBuildFacts({ addonPath, cpuinfoPath, stampPath, root: '/opt/hark' });
    expect(f.cpu?.arch).toBe('arm64');
    expect(f.addon?.systemInfo.DOTPROD).toBe(true);
    expect(f.stamp?.cflags).toBe('-O3 -mcpu=native -DNDEBUG');
    expect(f.rebuild).toMatch(/^(sudo )?bash \/opt\/hark\/scripts\/build-whisper\.sh$/);
    expect(assessWhisperBuild(f).detail).toMatch(/built by scripts\/build-whisper\.sh with -O3 -mcpu=native -DNDEBUG$/);
    // npm ci rebuilt the addon since: the stamp no longer describes it
    writeFileSync(addonPath, ARM_GENERIC_OR_PI4);
    expect(whisperBuildFacts({ addonPath, cpuinfoPath, stampPath }).stamp).toBeNull();
    // nothing there at all
    const none = whisperBuildFacts({ addonPath: join(dir, 'nope.node'), cpuinfoPath: join(dir, 'nope') });
    expect(none.cpu).toBeNull();
    expect(none.addon).toBeNull();
    expect(none.addonError).toMatch(/ENOENT/);
  });
});

describe('hark run: one warning at start', () => {
  const config = validateConfig({}, 'defaults');

  it('warns once, with the features and the command, when the build does not fit the CPU', () => {
    const log = memoryLogger();
    warnIfWhisperBuildDiffers(config, log, () => facts(CPUINFO_PI5, ARM_GENERIC_OR_PI4));
    expect(log.lines).toHaveLength(1);
    const line = JSON.parse(log.lines[0]!) as Record<string, string>;
    expect(line.level).toBe('warn');
    expect(line.msg).toMatch(/^whisper\.cpp is not built for this CPU: not compiled for DOTPROD FP16/);
    expect(line).toMatchObject({ compiled: 'NEON', cpu: 'NEON DOTPROD FP16' });
    expect(line.fix).toContain(REBUILD);
  });

  it('says nothing when it fits, or when Whisper is not used', () => {
    const log = memoryLogger();
    warnIfWhisperBuildDiffers(config, log, () => facts(CPUINFO_PI5, ARM_PI5));
    warnIfWhisperBuildDiffers({ ...config, stt: { ...config.stt, mode: 'cloud-only' } }, log, () => facts(CPUINFO_PI5, ARM_GENERIC_OR_PI4));
    expect(log.lines).toEqual([]);
  });

  it('never throws: a failure to look is a debug line', () => {
    const log = memoryLogger();
    warnIfWhisperBuildDiffers(config, log, () => {
      throw new Error('boom');
    });
    expect(log.lines.map((l) => (JSON.parse(l) as { level: string }).level)).toEqual(['debug']);
  });
});

describe('hark doctor', () => {
  it('`hark doctor whisper` compares the real addon with this CPU', async () => {
    const { stdout } = await run(process.execPath, [HARK_BIN, 'doctor', 'whisper', '--json']);
    const a = JSON.parse(stdout) as { status: string; detail: string; cpu: string[]; compiled: string[] };
    expect(['ok', 'warn']).toContain(a.status);
    expect(a.detail).toMatch(/^compiled with: .*; this CPU .*has: /);
    if (process.arch === 'x64') expect(a.cpu.length).toBeGreaterThan(0);
    const text = await run(process.execPath, [HARK_BIN, 'doctor', 'whisper']);
    expect(text.stdout).toMatch(/^\[(ok  |WARN)\] whisper\.cpp build: compiled with: /);
    if (a.status === 'warn') expect(text.stdout).toMatch(/fix: (sudo )?bash \S+\/scripts\/build-whisper\.sh/);
  });

  it('`hark doctor` includes the check, next to the model', async () => {
    const cfg = join(outputDir('whisper-build-cfg'), 'doctor.yaml');
    writeFileSync(cfg, 'capture:\n  device: "null"\n');
    const r = (await run(process.execPath, [HARK_BIN, 'doctor', '--json', '--config', cfg]).catch((e: unknown) => e)) as { stdout: string };
    const ids = (JSON.parse(r.stdout) as { checks: { id: string }[] }).checks.map((c) => c.id);
    expect(ids.indexOf('whisper-build')).toBe(ids.indexOf('whisper-model') + 1);
  });
});

describe('a card baked for a Pi 5: the target, a move to a Pi 4, emulation', () => {
  const STAMP_A76 = { target: 'cortex-a76', cflags: '-O3 -mcpu=cortex-a76 -DNDEBUG' };

  it('names the target the addon was built for', () => {
    const a = assessWhisperBuild(facts(CPUINFO_PI5, ARM_PI5, { stamp: STAMP_A76 }));
    expect(a.status).toBe('ok');
    expect(a.detail).toMatch(/; built for cortex-a76 by scripts\/build-whisper\.sh with -O3 -mcpu=cortex-a76 -DNDEBUG$/);
  });

  it('the Pi 5 build in a Pi 4 fails naming the target, the illegal instruction and the rebuild', () => {
    const a = assessWhisperBuild(facts(CPUINFO_PI4, ARM_PI5, { stamp: STAMP_A76 }));
    expect(a.status).toBe('fail');
    expect(a.extra).toEqual(['DOTPROD', 'FP16']);
    expect(a.detail).toMatch(/built for cortex-a76 .*illegal instruction/);
    expect(a.fix).toContain(REBUILD);
  });

  it('under qemu-user (arm64 process, x86 /proc/cpuinfo): a warning saying so, not "built for the wrong CPU"', () => {
    const a = assessWhisperBuild(facts(CPUINFO_X86_EPYC, ARM_PI5, { stamp: STAMP_A76, processArch: 'arm64' }));
    expect(a.status).toBe('warn');
    expect(a.detail).toMatch(/compiled for aarch64; built for cortex-a76 .* \/proc\/cpuinfo describes an x86 CPU but hark runs as arm64 \(emulated/);
    expect(a.detail).toMatch(/HARK_CPUINFO/);
    // On real x86 hardware an arm64 addon is still simply the wrong build.
    expect(assessWhisperBuild(facts(CPUINFO_X86_EPYC, ARM_PI5, { processArch: 'x64' })).status).toBe('fail');
  });

  it('hark refuses to load the Pi 5 addon on a Pi 4, with the rebuild command, instead of dying of SIGILL', () => {
    const dir = join(outputDir('whisper-refuse'), 'node_modules', 'smart-whisper', 'build', 'Release');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'smart-whisper.node');
    writeFileSync(file, ARM_PI5);
    writeFileSync(join(dir, '..', '..', '..', '.hark-whisper-stamp'), 'target cortex-a76\n');
    let err: unknown;
    try {
      checkAddonFitsCpu(file, parseCpuinfo(CPUINFO_PI4));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toMatch(
      /^refusing to load the whisper\.cpp addon .*smart-whisper\.node \(built for cortex-a76\): it was compiled for DOTPROD FP16, which this CPU \(Raspberry Pi 4 Model B Rev 1\.\d \(Cortex-A72\)\) lacks, and would stop hark with an illegal instruction\. Rebuild it for this CPU: bash .*\/scripts\/build-whisper\.sh$/,
    );
    // The same file on a Pi 5, the Pi 4 build anywhere, an unknown CPU: loaded as usual.
    expect(() => checkAddonFitsCpu(file, parseCpuinfo(CPUINFO_PI5))).not.toThrow();
    expect(() => checkAddonFitsCpu(file, null)).not.toThrow();
    writeFileSync(file, ARM_GENERIC_OR_PI4);
    expect(() => checkAddonFitsCpu(file, parseCpuinfo(CPUINFO_PI4))).not.toThrow();
  });

  it("`hark transcribe` on a CPU without the addon's SIMD (this x86 build, a Core 2's cpuinfo): exit 2 with the refusal, no SIGILL", async () => {
    // The real addon of this checkout; on x86 it carries AVX when build-whisper.sh has run (dev-deps, CI).
    const compiled = addonBuildInfo(readFileSync(whisperBuildFacts().addonPath)).systemInfo;
    if (!compiled.AVX) return; // an npm ci build (no SIMD) fits every CPU: nothing to refuse
    const cpuinfo = join(outputDir('whisper-refuse'), 'cpuinfo-core2');
    writeFileSync(cpuinfo, CPUINFO_X86_CORE2);
    const err = (await run('node', [HARK_BIN, 'transcribe', '--stt-mode', 'local-only', '--model', TINY_MODEL, JFK_WAV], {
      env: { ...process.env, HARK_CPUINFO: cpuinfo },
    }).catch((e) => e)) as { code: number; signal: string | null; stderr: string };
    expect(err.signal ?? null).toBeNull();
    expect(err.code).toBe(2);
    expect(err.stderr).toMatch(
      /refusing to load the whisper\.cpp addon .*compiled for AVX.*which this CPU \(Intel\(R\) Core\(TM\)2 .*lacks, and would stop hark with an illegal instruction\. Rebuild it for this CPU: .*build-whisper\.sh/,
    );
  });
});
