import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HarkConfig } from '../config/schema.js';
import { errorMessage } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import { addonBuildInfo, type AddonBuildInfo } from '../stt/whisper/addon-elf.js';
import { addonFile, readCpuinfo, rebuildCommand } from '../stt/whisper/binding.js';
import { compareSimd, compiledSimd, cpuSimd, formatSimd, parseCpuinfo, SIMD_FEATURES, type CpuInfo, type SimdFeature } from '../stt/whisper/cpu-features.js';
import type { Check, CheckStatus } from './check.js';

/**
 * Is whisper.cpp built for this CPU? `hark doctor` shows the SIMD features compiled into the addon
 * next to those /proc/cpuinfo lists, and `hark run` logs one warning at start when they differ.
 * npm ci builds the addon with no -march/-mcpu (ggml then runs its scalar code, several times
 * slower) and without NDEBUG; scripts/build-whisper.sh rebuilds it for the CPU it runs on.
 */

export interface WhisperBuildFacts {
  /** null: /proc/cpuinfo could not be read. */
  cpu: CpuInfo | null;
  addonPath: string;
  /** null: the addon could not be read (addonError says why). */
  addon: AddonBuildInfo | null;
  addonError?: string;
  /** scripts/build-whisper.sh's stamp, only when it describes the addon file as it is now. */
  stamp: Record<string, string> | null;
  /** The one command that rebuilds whisper.cpp for this CPU. */
  rebuild: string;
  /** The architecture this process runs as (process.arch); absent: trust /proc/cpuinfo. */
  processArch?: string;
}

export interface WhisperBuildAssessment {
  status: CheckStatus;
  detail: string;
  fix?: string;
  /** The one-line problem, for `hark run`'s warning; null when the build fits the CPU. */
  problem: string | null;
  compiled: SimdFeature[];
  cpu: SimdFeature[];
  missing: SimdFeature[];
  extra: SimdFeature[];
  ndebug: boolean | null;
}

const MACHINE_ARCH = { x86_64: 'x86', aarch64: 'arm64', other: 'other' } as const;
const PROCESS_ARCH: Record<string, string> = { x64: 'x86', arm64: 'arm64', arm: 'arm' };

/** "built for cortex-a76 by scripts/build-whisper.sh with -O3 -mcpu=cortex-a76 -DNDEBUG", from the stamp. */
function builtBy(stamp: Record<string, string> | null): string {
  if (!stamp?.cflags) return '';
  return `; built${stamp.target ? ` for ${stamp.target}` : ''} by scripts/build-whisper.sh with ${stamp.cflags}`;
}

/** Compare what the addon was compiled with to what the CPU has. Pure. */
export function assessWhisperBuild(f: WhisperBuildFacts): WhisperBuildAssessment {
  const base = { compiled: [], cpu: [], missing: [], extra: [], ndebug: f.addon?.ndebug ?? null };
  const fix = `${f.rebuild}   (builds whisper.cpp for this CPU; then restart hark)`;
  if (!f.addon) {
    // A missing file stops Whisper; a file this reader does not understand (a 32-bit build) may run.
    const missing = /ENOENT|EACCES|Cannot find module/.test(f.addonError ?? 'ENOENT');
    const problem = `cannot read the whisper.cpp addon ${f.addonPath}: ${f.addonError ?? 'unknown error'}`;
    return { ...base, status: missing ? 'fail' : 'warn', detail: problem, fix, problem };
  }
  if (!f.cpu || f.cpu.arch === 'other') {
    return {
      ...base,
      status: 'ok',
      detail: `${f.addonPath}: compiled for ${f.addon.machine}${builtBy(f.stamp)}; this CPU's features are unknown (no x86 or arm /proc/cpuinfo)`,
      problem: null,
    };
  }
  const running = f.processArch ? PROCESS_ARCH[f.processArch] : undefined;
  if (running && running !== f.cpu.arch && running === MACHINE_ARCH[f.addon.machine]) {
    // qemu-user: an arm64 process on an x86 machine reads the host's /proc/cpuinfo.
    const problem = `/proc/cpuinfo describes an ${f.cpu.arch} CPU but hark runs as ${running} (emulated, e.g. qemu-user?): cannot tell whether the build fits; HARK_CPUINFO=<file> names the CPU to check against`;
    return { ...base, status: 'warn', detail: `${f.addonPath}: compiled for ${f.addon.machine}${builtBy(f.stamp)} — ${problem}`, problem };
  }
  const arch = f.cpu.arch;
  const addonArch = MACHINE_ARCH[f.addon.machine];
  if (addonArch !== arch) {
    const problem = `the whisper.cpp addon is built for ${f.addon.machine}, but this CPU is ${arch}`;
    return { ...base, status: 'fail', detail: `${problem} (${f.addonPath})`, fix, problem };
  }
  const cpu = cpuSimd(f.cpu);
  const compiled = compiledSimd(f.addon.systemInfo, arch);
  const cmp = compareSimd(arch, cpu, compiled);
  const on = (s: typeof cpu) => (SIMD_FEATURES[arch] as readonly SimdFeature[]).filter((x) => s[x]);
  const problems: string[] = [];
  let status: CheckStatus = 'ok';
  if (cmp.extra.length) {
    status = 'fail';
    problems.push(`compiled for ${cmp.extra.join(' ')}, which this CPU lacks: whisper.cpp will stop with an illegal instruction`);
  }
  if (cmp.missing.length) {
    if (status === 'ok') status = 'warn';
    problems.push(`not compiled for ${cmp.missing.join(' ')}, which this CPU has: speech-to-text runs several times slower than it could`);
  }
  if (!f.addon.ndebug) {
    if (status === 'ok') status = 'warn';
    problems.push('built without NDEBUG: ggml writes debug lines to stderr during inference');
  }
  if (cmp.unknown.length && status === 'ok') {
    status = 'warn';
    problems.push(`could not read whether ${cmp.unknown.join(' ')} ${cmp.unknown.length > 1 ? 'were' : 'was'} compiled in`);
  }
  const cpuName = f.cpu.model ? ` (${f.cpu.model})` : '';
  const by = builtBy(f.stamp);
  const summary = `compiled with: ${formatSimd(arch, compiled)}${f.addon.ndebug ? ', NDEBUG' : ''}; this CPU${cpuName} has: ${formatSimd(arch, cpu)}${by}`;
  const problem = problems.length ? problems.join('; ') : null;
  return {
    status,
    detail: problem ? `${summary} — ${problem}` : summary,
    ...(status === 'ok' ? {} : { fix }),
    problem,
    compiled: on(compiled),
    cpu: on(cpu),
    missing: cmp.missing,
    extra: cmp.extra,
    ndebug: f.addon.ndebug,
  };
}

/** scripts/build-whisper.sh's stamp: one `key value` per line. Pure. */
export function parseStamp(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([\w-]+) (.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/** hark's own directory (a checkout, or /opt/hark): this file is src/doctor/ or dist/doctor/. */
export function harkRoot(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
}

export { addonFile, rebuildCommand };

/** Gather the facts: /proc/cpuinfo, the addon's bytes, the build stamp. Never throws. */
export function whisperBuildFacts(
  opts: { cpuinfoPath?: string; addonPath?: string; stampPath?: string; root?: string; processArch?: string } = {},
): WhisperBuildFacts {
  // HARK_CPUINFO: the CPU to check against when this one cannot say (under qemu-user).
  const cpu: CpuInfo | null = readCpuinfo(opts.cpuinfoPath);
  let addonPath = opts.addonPath ?? '';
  let addon: AddonBuildInfo | null = null;
  let addonError: string | undefined;
  let stamp: Record<string, string> | null = null;
  try {
    addonPath ||= addonFile();
    const bytes = readFileSync(addonPath);
    addon = addonBuildInfo(bytes);
    const stampPath = opts.stampPath ?? join(dirname(addonPath), '..', '..', '..', '.hark-whisper-stamp');
    try {
      const s = parseStamp(readFileSync(stampPath, 'utf8'));
      if (s['addon-sha256'] === createHash('sha256').update(bytes).digest('hex')) stamp = s;
    } catch {
      // no stamp: built by npm ci or by hand
    }
  } catch (err) {
    addonError = errorMessage(err);
  }
  const root = opts.root ?? harkRoot();
  return {
    cpu,
    addonPath: addonPath || 'smart-whisper',
    addon,
    ...(addonError ? { addonError } : {}),
    stamp,
    rebuild: rebuildCommand(root, addonPath ? dirname(addonPath) : root),
    processArch: opts.processArch ?? process.arch,
  };
}

export const whisperBuildCheck: Check = {
  id: 'whisper-build',
  title: 'whisper.cpp build (SIMD for this CPU)',
  async run(ctx) {
    if (ctx.loaded?.config.stt.mode === 'cloud-only') return { status: 'ok', detail: 'not used (stt.mode cloud-only)' };
    const a = assessWhisperBuild(whisperBuildFacts());
    return {
      status: a.status,
      detail: a.detail,
      ...(a.fix ? { fix: a.fix } : {}),
      data: { compiled: a.compiled, cpu: a.cpu, missing: a.missing, extra: a.extra, ndebug: a.ndebug },
    };
  },
};

/**
 * `hark run`: one warning at start when whisper.cpp is not built for this CPU (slow, noisy, or about
 * to die of an illegal instruction). Silent when it fits, when Whisper is not used, or when nothing
 * could be read. Never throws.
 */
export function warnIfWhisperBuildDiffers(config: HarkConfig, logger: Logger, facts: () => WhisperBuildFacts = whisperBuildFacts): void {
  try {
    if (config.stt.mode === 'cloud-only') return;
    const a = assessWhisperBuild(facts());
    if (!a.problem) return;
    logger.warn(`whisper.cpp is not built for this CPU: ${a.problem}`, {
      compiled: a.compiled.join(' ') || 'none',
      cpu: a.cpu.join(' ') || 'none',
      fix: a.fix,
    });
  } catch (err) {
    logger.debug('could not check the whisper.cpp build', { error: errorMessage(err) });
  }
}
