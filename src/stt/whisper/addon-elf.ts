import { compareSimd, compiledSimd, cpuSimd, type CpuInfo, type SimdFeature } from './cpu-features.js';

/**
 * What the smart-whisper addon was compiled with, read from the compiled file itself. Pure: it works
 * on the file's bytes.
 *
 * smart-whisper does not expose whisper_print_system_info() to JavaScript, but its addon is an
 * unstripped ELF shared object that exports ggml's `int ggml_cpu_has_avx2(void)` and friends. Each
 * of those is `#if defined(__AVX2__) return 1; #else return 0;` — compiled, a two-instruction
 * function (`mov eax, 1; ret` / `xor eax, eax; ret`; on arm64 `mov w0, #1; ret`). Reading the
 * constant each one returns is reading the system info line without running anything; it is the
 * ground truth whoever built the file and however (npm ci, a hand-run npm rebuild, the build script).
 *
 * Two things this whisper.cpp has no ggml_cpu_has_* for are read from the code instead:
 *  - arm64 dot product (__ARM_FEATURE_DOTPROD): ggml_vec_dot_q8_0_q8_0 then uses SDOT/UDOT
 *    instructions, and without it emulates them with multiplies (the hand-written assembly kernels
 *    in ggml-aarch64.c use SDOT either way, so only that C function is looked at);
 *  - NDEBUG: without it ggml-alloc.c keeps a "reallocating ... buffer" fprintf(stderr) that fires
 *    on inferences whose graph grows, so its format string is in the file or not.
 */

export type ElfMachine = 'x86_64' | 'aarch64' | 'other';

export interface ElfSymbol {
  value: number;
  size: number;
}

export interface ElfImage {
  machine: ElfMachine;
  symbols: Map<string, ElfSymbol>;
  /** File offset of a virtual address inside a loaded section, or null. */
  offsetOf(vaddr: number): number | null;
}

const SHT_SYMTAB = 2;
const SHT_NOBITS = 8;
const SHT_DYNSYM = 11;
const SHF_ALLOC = 0x2;

/** Parse a 64-bit little-endian ELF file's sections and symbols. Throws on anything else. */
export function readElf(buf: Buffer): ElfImage {
  if (buf.length < 64 || buf.readUInt32BE(0) !== 0x7f454c46) throw new Error('not an ELF file');
  if (buf[4] !== 2 || buf[5] !== 1) throw new Error('not a 64-bit little-endian ELF file');
  const em = buf.readUInt16LE(0x12);
  const machine: ElfMachine = em === 62 ? 'x86_64' : em === 183 ? 'aarch64' : 'other';
  const shoff = Number(buf.readBigUInt64LE(0x28));
  const shentsize = buf.readUInt16LE(0x3a);
  const shnum = buf.readUInt16LE(0x3c);
  if (shoff === 0 || shentsize < 64 || shoff + shnum * shentsize > buf.length) throw new Error('ELF section headers missing or truncated');
  const sections = Array.from({ length: shnum }, (_, i) => {
    const o = shoff + i * shentsize;
    return {
      type: buf.readUInt32LE(o + 4),
      flags: Number(buf.readBigUInt64LE(o + 8)),
      addr: Number(buf.readBigUInt64LE(o + 16)),
      offset: Number(buf.readBigUInt64LE(o + 24)),
      size: Number(buf.readBigUInt64LE(o + 32)),
      link: buf.readUInt32LE(o + 40),
      entsize: Number(buf.readBigUInt64LE(o + 56)),
    };
  });
  const symbols = new Map<string, ElfSymbol>();
  for (const s of sections) {
    if (s.type !== SHT_SYMTAB && s.type !== SHT_DYNSYM) continue;
    const strtab = sections[s.link];
    if (!strtab || s.entsize < 24 || s.offset + s.size > buf.length || strtab.offset + strtab.size > buf.length) continue;
    for (let o = s.offset; o + 24 <= s.offset + s.size; o += s.entsize) {
      const nameOff = buf.readUInt32LE(o);
      const shndx = buf.readUInt16LE(o + 6);
      if (nameOff === 0 || shndx === 0) continue; // unnamed, or undefined (imported)
      const start = strtab.offset + nameOff;
      const end = buf.indexOf(0, start);
      if (end < 0 || end > strtab.offset + strtab.size) continue;
      const name = buf.toString('latin1', start, end);
      if (!symbols.has(name)) symbols.set(name, { value: Number(buf.readBigUInt64LE(o + 8)), size: Number(buf.readBigUInt64LE(o + 16)) });
    }
  }
  const loaded = sections.filter((s) => s.flags & SHF_ALLOC && s.type !== SHT_NOBITS && s.size > 0);
  return {
    machine,
    symbols,
    offsetOf(vaddr) {
      const s = loaded.find((x) => vaddr >= x.addr && vaddr < x.addr + x.size);
      return s ? s.offset + (vaddr - s.addr) : null;
    },
  };
}

/**
 * The constant a `int f(void) { return K; }` function returns, from its first bytes; null when the
 * code is not that shape. Tolerates the prologues compilers add (endbr64, a frame pointer, bti/pac).
 */
export function returnedConstant(code: Buffer, machine: ElfMachine): number | null {
  if (machine === 'x86_64') return x86Constant(code);
  if (machine === 'aarch64') return arm64Constant(code);
  return null;
}

function x86Constant(c: Buffer): number | null {
  let i = 0;
  const at = (...bytes: number[]) => bytes.every((b, k) => c[i + k] === b);
  if (at(0xf3, 0x0f, 0x1e, 0xfa)) i += 4; // endbr64
  if (at(0x55, 0x48, 0x89, 0xe5)) i += 4; // push rbp; mov rbp, rsp
  let value: number;
  if (at(0x31, 0xc0) || at(0x33, 0xc0)) {
    value = 0; // xor eax, eax
    i += 2;
  } else if (c[i] === 0xb8 && i + 5 <= c.length) {
    value = c.readInt32LE(i + 1); // mov eax, imm32
    i += 5;
  } else return null;
  if (c[i] === 0x5d) i += 1; // pop rbp
  if (c[i] === 0xc3 || at(0xf3, 0xc3)) return value; // ret / rep ret
  return null;
}

const A64_SKIP = new Set([
  0xd503201f, // nop
  0xd503245f, // bti c
  0xd503233f, // paciasp
  0xd50323bf, // autiasp
  0xa9bf7bfd, // stp x29, x30, [sp, #-16]!
  0x910003fd, // mov x29, sp
  0xa8c17bfd, // ldp x29, x30, [sp], #16
]);
const A64_RET = 0xd65f03c0;

function arm64Constant(c: Buffer): number | null {
  let value: number | null = null;
  for (let o = 0; o + 4 <= c.length && o < 64; o += 4) {
    const w = c.readUInt32LE(o);
    if (A64_SKIP.has(w)) continue;
    if (w === A64_RET) return value;
    if (value !== null) return null;
    if ((w & 0xffe0001f) === 0x52800000)
      value = (w >>> 5) & 0xffff; // movz w0, #imm16
    else if (w === 0x2a1f03e0)
      value = 0; // mov w0, wzr
    else if (w === 0x320003e0)
      value = 1; // orr w0, wzr, #1
    else return null;
  }
  return null;
}

/** Whether arm64 code contains an SDOT/UDOT instruction (vector or by-element form). */
export function hasDotProduct(code: Buffer): boolean {
  for (let o = 0; o + 4 <= code.length; o += 4) {
    const w = code.readUInt32LE(o);
    if ((w & 0x9fe0fc00) === 0x0e809400 || (w & 0x9fc0f400) === 0x0f80e000) return true;
  }
  return false;
}

/** The ggml_cpu_has_* names, as whisper_print_system_info() prints them. */
export const SYSTEM_INFO_NAMES = ['AVX', 'AVX2', 'AVX512', 'FMA', 'NEON', 'ARM_FMA', 'F16C', 'FP16_VA', 'SSE3', 'SSSE3', 'MATMUL_INT8', 'SVE', 'BLAS'] as const;

export interface AddonBuildInfo {
  machine: ElfMachine;
  /**
   * whisper_print_system_info()'s names → compiled in; null where the function was not found or
   * not readable. DOTPROD is added on arm64 (null elsewhere).
   */
  systemInfo: Record<string, boolean | null>;
  /** Built with -DNDEBUG (no ggml debug lines on stderr). */
  ndebug: boolean;
}

/** Read what an addon file was compiled with. Throws if it is not a readable 64-bit ELF file. */
export function addonBuildInfo(buf: Buffer): AddonBuildInfo {
  const elf = readElf(buf);
  const code = (name: string, max = 64): Buffer | null => {
    const s = elf.symbols.get(name);
    if (!s) return null;
    const off = elf.offsetOf(s.value);
    if (off === null) return null;
    return buf.subarray(off, Math.min(buf.length, off + Math.max(4, Math.min(max, s.size || max))));
  };
  const systemInfo: Record<string, boolean | null> = {};
  for (const name of SYSTEM_INFO_NAMES) {
    const c = code(`ggml_cpu_has_${name.toLowerCase()}`);
    const k = c ? returnedConstant(c, elf.machine) : null;
    systemInfo[name] = k === null ? null : k !== 0;
  }
  if (elf.machine === 'aarch64') {
    const s = elf.symbols.get('ggml_vec_dot_q8_0_q8_0');
    const c = s && s.size > 0 ? code('ggml_vec_dot_q8_0_q8_0', s.size) : null;
    systemInfo.DOTPROD = c ? hasDotProduct(c) : null;
  } else {
    systemInfo.DOTPROD = null;
  }
  const ndebug = buf.indexOf('reallocating %s buffer from size', 0, 'latin1') < 0;
  return { machine: elf.machine, systemInfo, ndebug };
}

/**
 * The SIMD features an addon was compiled with that this CPU lacks: loading it would end in an
 * illegal instruction (SIGILL kills the process; nothing can catch it). Empty when it fits, when the
 * CPU is unknown, or when the addon is for another architecture (then it fails to load with an error
 * anyway, which is catchable). Pure.
 */
export function illegalFeatures(cpu: CpuInfo | null, addon: AddonBuildInfo): SimdFeature[] {
  if (!cpu || cpu.arch === 'other') return [];
  const arch = addon.machine === 'x86_64' ? 'x86' : addon.machine === 'aarch64' ? 'arm64' : null;
  if (arch !== cpu.arch) return [];
  return compareSimd(arch, cpuSimd(cpu), compiledSimd(addon.systemInfo, arch)).extra;
}

/** Why hark refuses to load this addon on this CPU, with the command that fixes it; null: load it. */
export function addonRefusal(cpu: CpuInfo | null, addon: AddonBuildInfo, file: string, rebuild: string, target?: string): string | null {
  const extra = illegalFeatures(cpu, addon);
  if (!extra.length) return null;
  const built = target ? ` (built for ${target})` : '';
  const here = cpu?.model ? ` (${cpu.model})` : '';
  return `refusing to load the whisper.cpp addon ${file}${built}: it was compiled for ${extra.join(' ')}, which this CPU${here} lacks, and would stop hark with an illegal instruction. Rebuild it for this CPU: ${rebuild}`;
}
