/**
 * Minimal 64-bit little-endian ELF shared objects for the addon reader's tests: a .text section at a
 * virtual address different from its file offset (as in a real .so), a .symtab/.strtab naming the
 * functions, and optional extra bytes (a .rodata string). The function bodies are real compiler
 * output, copied from builds of smart-whisper's own whisper.cpp sources (see the constants below).
 */

export const EM_X86_64 = 62;
export const EM_AARCH64 = 183;

export interface FixtureFunction {
  name: string;
  code: Buffer;
}

export function makeElf(machine: number, functions: FixtureFunction[], rodata = ''): Buffer {
  const TEXT_ADDR = 0x401000;
  const header = Buffer.alloc(64);
  // .text: each function 16-byte aligned
  const textParts: Buffer[] = [];
  const placed: { name: string; off: number; size: number }[] = [];
  let textLen = 0;
  for (const f of functions) {
    const pad = (16 - (textLen % 16)) % 16;
    if (pad) textParts.push(Buffer.alloc(pad, 0xcc));
    textLen += pad;
    placed.push({ name: f.name, off: textLen, size: f.code.length });
    textParts.push(f.code);
    textLen += f.code.length;
  }
  const text = Buffer.concat(textParts);
  const ro = Buffer.from(rodata + '\0', 'latin1');
  const names = ['', ...functions.map((f) => f.name)];
  const strtab = Buffer.from(names.join('\0') + '\0', 'latin1');
  const nameOff = (i: number) => names.slice(0, i).reduce((n, s) => n + s.length + 1, 0);
  const symtab = Buffer.alloc(24 * (functions.length + 1)); // entry 0: the null symbol
  const textOff = 64;
  const roOff = textOff + text.length;
  const strOff = roOff + ro.length;
  const symOff = Math.ceil((strOff + strtab.length) / 8) * 8;
  placed.forEach((p, i) => {
    const o = 24 * (i + 1);
    symtab.writeUInt32LE(nameOff(i + 1), o);
    symtab[o + 4] = 0x12; // STB_GLOBAL, STT_FUNC
    symtab.writeUInt16LE(1, o + 6); // in section 1 (.text)
    symtab.writeBigUInt64LE(BigInt(TEXT_ADDR + p.off), o + 8);
    symtab.writeBigUInt64LE(BigInt(p.size), o + 16);
  });
  const shOff = Math.ceil((symOff + symtab.length) / 8) * 8;
  const sections = [
    { type: 0, flags: 0, addr: 0, offset: 0, size: 0, link: 0, entsize: 0 },
    { type: 1, flags: 0x6, addr: TEXT_ADDR, offset: textOff, size: text.length, link: 0, entsize: 0 }, // .text
    { type: 1, flags: 0x2, addr: TEXT_ADDR + 0x100000, offset: roOff, size: ro.length, link: 0, entsize: 0 }, // .rodata
    { type: 3, flags: 0, addr: 0, offset: strOff, size: strtab.length, link: 0, entsize: 0 }, // .strtab
    { type: 2, flags: 0, addr: 0, offset: symOff, size: symtab.length, link: 3, entsize: 24 }, // .symtab
  ];
  const sh = Buffer.alloc(64 * sections.length);
  sections.forEach((s, i) => {
    const o = 64 * i;
    sh.writeUInt32LE(s.type, o + 4);
    sh.writeBigUInt64LE(BigInt(s.flags), o + 8);
    sh.writeBigUInt64LE(BigInt(s.addr), o + 16);
    sh.writeBigUInt64LE(BigInt(s.offset), o + 24);
    sh.writeBigUInt64LE(BigInt(s.size), o + 32);
    sh.writeUInt32LE(s.link, o + 40);
    sh.writeBigUInt64LE(BigInt(s.entsize), o + 56);
  });
  header.writeUInt32BE(0x7f454c46, 0);
  header[4] = 2; // ELFCLASS64
  header[5] = 1; // little-endian
  header[6] = 1;
  header.writeUInt16LE(3, 0x10); // ET_DYN
  header.writeUInt16LE(machine, 0x12);
  header.writeUInt32LE(1, 0x14);
  header.writeBigUInt64LE(BigInt(shOff), 0x28);
  header.writeUInt16LE(64, 0x34);
  header.writeUInt16LE(64, 0x3a);
  header.writeUInt16LE(sections.length, 0x3c);
  const file = Buffer.alloc(shOff + sh.length);
  header.copy(file, 0);
  text.copy(file, textOff);
  ro.copy(file, roOff);
  strtab.copy(file, strOff);
  symtab.copy(file, symOff);
  sh.copy(file, shOff);
  return file;
}

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** `int f(void) { return 0|1; }` as gcc 12 -O3 compiles it (x86-64: smart-whisper.node built by npm ci / natively). */
export const X86_RET0 = hex('31 c0 c3');
export const X86_RET1 = hex('b8 01 00 00 00 c3');
/** The same with -fcf-protection (Ubuntu's default): endbr64 first. */
export const X86_ENDBR_RET1 = hex('f3 0f 1e fa b8 01 00 00 00 c3');
/** aarch64-linux-gnu-gcc 12 -O3: mov w0 with the immediate 0 or 1; ret. */
export const A64_RET0 = hex('00 00 80 52 c0 03 5f d6');
export const A64_RET1 = hex('20 00 80 52 c0 03 5f d6');
/** With branch protection (bti c) first. */
export const A64_BTI_RET1 = hex('5f 24 03 d5 20 00 80 52 c0 03 5f d6');

/**
 * ggml_vec_dot_q8_0_q8_0 from smart-whisper 0.8.1's ggml-quants.c, compiled by aarch64-linux-gnu-gcc
 * 12.2 -O3 -DNDEBUG with -mcpu=cortex-a72 (a Pi 4's core: no dotprod, so vdotq_s32 is emulated with
 * smull/saddlp) and with -mcpu=cortex-a76 (a Pi 5's: SDOT instructions).
 */
export const Q8_DOT_CORTEX_A72 = Buffer.from(
  '5wMAKh8AAHEAfAARALCHGv/8AHHmAwOq6AMBqgN8BRPtDQBUBwQAT+EDBqrgAwWqBACAUvAcp04CIMA8ggwAEQAQAZF/AAJrhAgAESAgwDwhEAGRIeDcPATg3DwFwCIOEQDePADAIk4jAN48EwDfPDLAJA4kwCROIgDfPKUoYE4AKGBOYcAxDgbAW3xjwDFONMBbfFIqYE4AhKVOhChgTlHAMw4F4F18QsAzTiEoYE4z4F18xkDiHlKGpE5jKGBOlELiHqRA4h4lKmBOQihgTgCEsk4hhKNOcULiHsMINB6lhKJOANghToIIMR4hhKVOAJCDTyHYIU4Q1iBOIJCCT+fUIE6s+f9UENYwbmAIAFFBAIBS59QnbgB4HxL//ABxAAABCwDAgRoQ1jBu59QnbuQoMB5/AABr7QQAVGEAAEtCBIBSIcAgiyEQAYvHCACRpAgAkQB8IpvDSACRokgAkSH4f9MfIAPVhWjgPONo4DxgaOA8QmjgPGfAJQ6haGB8Y8AlTsVoYHwAiACRPwAA60bAIA5CwCBO4KQQDyFA4h6lQOIeABBnTgAQYw4hCCUeABBjTgAQZg4AEGZOABBiDgAQYk4AuLFOANghXgQQAR/B/P9UBAEAvcADX9YEBAAPAACAUtT//xc=',
  'base64',
);
export const Q8_DOT_CORTEX_A76 = Buffer.from(
  'HwAAceQDBarnAwAqBXwAEaWwgBroAwGqpXwFEx/8AHGtCgBUBAQATxAEAE/hAwOq4AMEqgYAgFKHHKROHyAD1QIgwTwBHrBOwgwAEQAQAZHGCAARICDBPCEQAZEjwFt8BsBbfBEA3zwBlIJOAB6wTiUA3zxjQOIexkDiHgLgXXwT4Ns8oJSRTiXgXXwy4Ns8YwgmHkJA4h4GAN48MQDePKVA4h5BlpNOIJaGTkIIJR4h2CFOANghTiGQg08AkIJP59QhToTUIE6/AAJrrPv/VOfUJ26hCABRQACAUoTUJG4heB8S//wAcSEAAAshwIAa59QnboTUJG6CKCcevwABa20DAFRCBIBSoAABSwDAIYsGBABPABAAiyF8IptiBACLYAABi4EAAYsBIMA8wBymTiMgwDwFIME8JCDBPCCUg04hJEJ8AyRCfICUhU4hQOIeY0DiHgC4sU4A2CFeIQgjHgIIAR8fAALrAf7/VAIBAL3AA1/WAgQADwEAgFLg//8X',
  'base64',
);

/** The ggml_cpu_has_* functions an addon exports, each returning 0 or 1. */
export function systemInfoFunctions(
  machine: number,
  on: string[],
  names = ['avx', 'avx2', 'avx512', 'fma', 'neon', 'arm_fma', 'f16c', 'fp16_va', 'sse3', 'ssse3', 'matmul_int8', 'sve', 'blas'],
): FixtureFunction[] {
  const [r0, r1] = machine === EM_X86_64 ? [X86_RET0, X86_RET1] : [A64_RET0, A64_RET1];
  return names.map((n) => ({ name: `ggml_cpu_has_${n}`, code: on.includes(n) ? r1 : r0 }));
}
