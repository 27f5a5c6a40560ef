/**
 * Which SIMD features the CPU has and which ones whisper.cpp was compiled with. Pure: the text of
 * /proc/cpuinfo and whatever was read from the addon come in, sets and comparisons go out.
 *
 * ggml picks its SIMD code at compile time (#if defined(__AVX2__), __ARM_FEATURE_DOTPROD, ...), never
 * at run time: an addon built without -march=native / -mcpu=native runs ggml's scalar code on a CPU
 * that has AVX2 or dotprod — several times slower — and one built for a bigger CPU than this one dies
 * with SIGILL.
 */

export type CpuArch = 'x86' | 'arm64' | 'arm' | 'other';

/** The features that decide whisper.cpp's speed, per architecture, in the order they are shown. */
export const SIMD_FEATURES = {
  x86: ['AVX', 'AVX2', 'FMA', 'F16C', 'AVX512'],
  arm64: ['NEON', 'DOTPROD', 'FP16', 'I8MM'],
  arm: ['NEON'],
  other: [],
} as const satisfies Record<CpuArch, readonly string[]>;

export type SimdFeature = (typeof SIMD_FEATURES)[keyof typeof SIMD_FEATURES][number];

export interface CpuInfo {
  arch: CpuArch;
  /** The flags (x86) or Features (arm) of the first processor, lower case. */
  flags: string[];
  /** model name (x86), Model (a Pi's board) or the CPU part, for the report. */
  model: string | null;
}

/** Cortex cores a Pi (and most arm64 boards) may have, by `CPU part` (implementer 0x41, Arm). */
const ARM_PARTS: Record<string, string> = {
  '0xd03': 'Cortex-A53',
  '0xd04': 'Cortex-A35',
  '0xd05': 'Cortex-A55',
  '0xd07': 'Cortex-A57',
  '0xd08': 'Cortex-A72',
  '0xd09': 'Cortex-A73',
  '0xd0a': 'Cortex-A75',
  '0xd0b': 'Cortex-A76',
  '0xd0c': 'Neoverse-N1',
  '0xd0d': 'Cortex-A77',
  '0xd41': 'Cortex-A78',
  '0xd46': 'Cortex-A510',
  '0xd47': 'Cortex-A710',
  '0xd4d': 'Cortex-A715',
  '0xd80': 'Cortex-A520',
  '0xd81': 'Cortex-A720',
};

function field(text: string, name: string): string | null {
  const re = new RegExp(`^${name}\\s*:\\s*(.*)$`, 'mi');
  const m = re.exec(text);
  return m ? m[1]!.trim() : null;
}

/** Read /proc/cpuinfo's text: the architecture, the first processor's flags and a model line. */
export function parseCpuinfo(text: string): CpuInfo {
  const x86Flags = field(text, 'flags');
  if (x86Flags !== null) {
    return { arch: 'x86', flags: x86Flags.toLowerCase().split(/\s+/).filter(Boolean), model: field(text, 'model name') };
  }
  const features = field(text, 'Features');
  if (features !== null) {
    const flags = features.toLowerCase().split(/\s+/).filter(Boolean);
    // A 64-bit kernel lists asimd; a 32-bit one (armv7 userland) lists neon/vfp instead.
    const arch: CpuArch = flags.includes('asimd') || (field(text, 'CPU architecture') === '8' && !flags.includes('neon')) ? 'arm64' : 'arm';
    const part = field(text, 'CPU part')?.toLowerCase();
    const core = part ? (ARM_PARTS[part] ?? `CPU part ${part}`) : null;
    const board = field(text, 'Model');
    const model = board && core ? `${board} (${core})` : (board ?? core);
    return { arch, flags, model };
  }
  return { arch: 'other', flags: [], model: field(text, 'model name') ?? field(text, 'cpu model') };
}

export type SimdSet = Partial<Record<SimdFeature, boolean>>;

/** The features this CPU has, named as whisper.cpp names what it was compiled with. */
export function cpuSimd(cpu: CpuInfo): SimdSet {
  const has = (f: string) => cpu.flags.includes(f);
  switch (cpu.arch) {
    case 'x86':
      return { AVX: has('avx'), AVX2: has('avx2'), FMA: has('fma'), F16C: has('f16c'), AVX512: has('avx512f') };
    case 'arm64':
      // fp16 arithmetic needs both the scalar (fphp) and the vector (asimdhp) half-precision units.
      return { NEON: has('asimd'), DOTPROD: has('asimddp'), FP16: has('fphp') && has('asimdhp'), I8MM: has('i8mm') };
    case 'arm':
      return { NEON: has('neon') };
    default:
      return {};
  }
}

/**
 * Parse whisper.cpp's system info line (`whisper_print_system_info()`: "AVX = 1 | AVX2 = 0 | ...",
 * also what whisper.cpp's `main` prints after "system_info:") into name → compiled in.
 */
export function parseSystemInfo(text: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const m of text.matchAll(/([A-Z][A-Z0-9_]*)\s*=\s*(\d+)/g)) out[m[1]!] = m[2] !== '0';
  return out;
}

/**
 * What whisper.cpp was compiled with, by the names of cpuSimd(): from a system info record (the
 * ggml_cpu_has_* names, plus DOTPROD, which this whisper.cpp does not report itself). A feature the
 * record does not know stays undefined (unknown), never false.
 */
export function compiledSimd(sys: Record<string, boolean | null | undefined>, arch: CpuArch): SimdSet {
  const from: Record<SimdFeature, string> = {
    AVX: 'AVX',
    AVX2: 'AVX2',
    FMA: 'FMA',
    F16C: 'F16C',
    AVX512: 'AVX512',
    NEON: 'NEON',
    DOTPROD: 'DOTPROD',
    FP16: 'FP16_VA',
    I8MM: 'MATMUL_INT8',
  };
  const out: SimdSet = {};
  for (const f of SIMD_FEATURES[arch]) {
    const v = sys[from[f]];
    if (typeof v === 'boolean') out[f] = v;
  }
  return out;
}

export interface SimdComparison {
  /** The CPU has it, whisper.cpp was not compiled for it: slower than it could be. */
  missing: SimdFeature[];
  /** Compiled in, the CPU lacks it: whisper.cpp will die with an illegal instruction. */
  extra: SimdFeature[];
  /** Could not tell what was compiled in. */
  unknown: SimdFeature[];
}

export function compareSimd(arch: CpuArch, cpu: SimdSet, compiled: SimdSet): SimdComparison {
  const r: SimdComparison = { missing: [], extra: [], unknown: [] };
  for (const f of SIMD_FEATURES[arch]) {
    const c = compiled[f];
    if (c === undefined) {
      if (cpu[f]) r.unknown.push(f);
    } else if (cpu[f] && !c) r.missing.push(f);
    else if (!cpu[f] && c) r.extra.push(f);
  }
  return r;
}

/** The features of `set` that are on ("AVX AVX2 FMA", or "none"), and those not known. */
export function formatSimd(arch: CpuArch, set: SimdSet): string {
  const all = SIMD_FEATURES[arch] as readonly SimdFeature[];
  const on = all.filter((f) => set[f]);
  const unknown = all.filter((f) => set[f] === undefined);
  return `${on.length ? on.join(' ') : 'none'}${unknown.length ? ` (${unknown.join(' ')} unknown)` : ''}`;
}
