import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addonBuildInfo, hasDotProduct, readElf, returnedConstant } from '../../src/stt/whisper/addon-elf.js';
import { addonFile } from '../../src/doctor/whisper-build.js';
import {
  A64_BTI_RET1,
  A64_RET0,
  A64_RET1,
  EM_AARCH64,
  EM_X86_64,
  makeElf,
  Q8_DOT_CORTEX_A72,
  Q8_DOT_CORTEX_A76,
  systemInfoFunctions,
  X86_ENDBR_RET1,
  X86_RET0,
  X86_RET1,
} from './elf-fixture.js';

const DEBUG_STRING = '%s: reallocating %s buffer from size %.02f MiB to %.02f MiB\n';

describe('reading the constant a ggml_cpu_has_* function returns', () => {
  it.each([
    ['x86 xor eax,eax; ret', X86_RET0, 'x86_64', 0],
    ['x86 mov eax,1; ret', X86_RET1, 'x86_64', 1],
    ['x86 endbr64 first', X86_ENDBR_RET1, 'x86_64', 1],
    ['x86 with a frame pointer', Buffer.from('554889e5b8010000005dc3', 'hex'), 'x86_64', 1],
    ['arm64 mov w0,#0; ret', A64_RET0, 'aarch64', 0],
    ['arm64 mov w0,#1; ret', A64_RET1, 'aarch64', 1],
    ['arm64 bti c first', A64_BTI_RET1, 'aarch64', 1],
  ] as const)('%s', (_name, code, machine, want) => {
    expect(returnedConstant(code, machine)).toBe(want);
  });

  it('is null for code of any other shape', () => {
    expect(returnedConstant(Buffer.from('4883ec08e8000000', 'hex'), 'x86_64')).toBeNull(); // sub rsp; call
    expect(returnedConstant(Q8_DOT_CORTEX_A76.subarray(0, 32), 'aarch64')).toBeNull();
    expect(returnedConstant(X86_RET1, 'other')).toBeNull();
  });
});

describe('dot product instructions (arm64)', () => {
  it('finds SDOT in ggml_vec_dot_q8_0_q8_0 compiled for a Pi 5 (Cortex-A76), none for a Pi 4 (Cortex-A72)', () => {
    expect(hasDotProduct(Q8_DOT_CORTEX_A76)).toBe(true);
    expect(hasDotProduct(Q8_DOT_CORTEX_A72)).toBe(false);
  });

  it('knows both encodings: vector and by element, signed and unsigned', () => {
    const word = (w: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(w >>> 0);
      return b;
    };
    expect(hasDotProduct(word(0x4e989661))).toBe(true); // sdot v1.4s, v19.16b, v24.16b
    expect(hasDotProduct(word(0x4f9be21a))).toBe(true); // sdot v26.4s, v16.16b, v27.4b[0]
    expect(hasDotProduct(word(0x6e989661))).toBe(true); // udot
    expect(hasDotProduct(word(0x4e209c00))).toBe(false); // mul v0.16b, v0.16b, v0.16b
  });
});

describe('addonBuildInfo', () => {
  it('an x86 addon built like npm ci builds it: no SIMD, no NDEBUG', () => {
    const elf = makeElf(EM_X86_64, systemInfoFunctions(EM_X86_64, []), DEBUG_STRING);
    const info = addonBuildInfo(elf);
    expect(info.machine).toBe('x86_64');
    expect(info.systemInfo).toMatchObject({ AVX: false, AVX2: false, FMA: false, F16C: false, AVX512: false, NEON: false, DOTPROD: null });
    expect(info.ndebug).toBe(false);
  });

  it('an x86 addon built with -march=native -DNDEBUG', () => {
    const elf = makeElf(
      EM_X86_64,
      systemInfoFunctions(EM_X86_64, ['avx', 'avx2', 'fma', 'f16c', 'avx512', 'sse3', 'ssse3']),
      'whisper_init_state: kv self size',
    );
    const info = addonBuildInfo(elf);
    expect(info.systemInfo).toMatchObject({ AVX: true, AVX2: true, FMA: true, F16C: true, AVX512: true, SSE3: true, NEON: false });
    expect(info.ndebug).toBe(true);
  });

  it('arm64 addons built on a Pi 4 and on a Pi 5 (-mcpu=native)', () => {
    const pi4 = addonBuildInfo(
      makeElf(EM_AARCH64, [...systemInfoFunctions(EM_AARCH64, ['neon', 'arm_fma']), { name: 'ggml_vec_dot_q8_0_q8_0', code: Q8_DOT_CORTEX_A72 }]),
    );
    const pi5 = addonBuildInfo(
      makeElf(EM_AARCH64, [...systemInfoFunctions(EM_AARCH64, ['neon', 'arm_fma', 'fp16_va']), { name: 'ggml_vec_dot_q8_0_q8_0', code: Q8_DOT_CORTEX_A76 }]),
    );
    expect(pi4.machine).toBe('aarch64');
    expect(pi4.systemInfo).toMatchObject({ NEON: true, ARM_FMA: true, FP16_VA: false, MATMUL_INT8: false, DOTPROD: false, AVX2: false });
    expect(pi5.systemInfo).toMatchObject({ NEON: true, ARM_FMA: true, FP16_VA: true, MATMUL_INT8: false, DOTPROD: true });
  });

  it('a function it cannot find or read is null (unknown), not false', () => {
    const info = addonBuildInfo(
      makeElf(
        EM_AARCH64,
        systemInfoFunctions(EM_AARCH64, ['neon'], ['neon', 'fp16_va']).concat([{ name: 'ggml_cpu_has_avx2', code: Buffer.from('4883ec08e8000000', 'hex') }]),
      ),
    );
    expect(info.systemInfo).toMatchObject({ NEON: true, FP16_VA: false, AVX2: null, AVX: null, DOTPROD: null });
  });

  it('refuses what is not a 64-bit little-endian ELF file', () => {
    expect(() => addonBuildInfo(Buffer.from('not an addon at all, just text'.repeat(4)))).toThrow(/not an ELF file/);
    const elf32 = makeElf(EM_X86_64, []);
    elf32[4] = 1;
    expect(() => readElf(elf32)).toThrow(/64-bit little-endian/);
    expect(() => readElf(makeElf(EM_X86_64, []).subarray(0, 100))).toThrow(/section headers/);
  });

  it('maps virtual addresses to file offsets through the sections', () => {
    const elf = readElf(
      makeElf(EM_X86_64, [
        { name: 'a', code: X86_RET0 },
        { name: 'b', code: X86_RET1 },
      ]),
    );
    const b = elf.symbols.get('b')!;
    expect(b).toEqual({ value: 0x401010, size: X86_RET1.length });
    expect(elf.offsetOf(b.value)).toBe(64 + 16);
    expect(elf.offsetOf(0x10)).toBeNull();
  });

  it('reads the addon hark loads (node_modules/smart-whisper), whatever built it', () => {
    const info = addonBuildInfo(readFileSync(addonFile()));
    expect(info.machine).toBe(process.arch === 'x64' ? 'x86_64' : process.arch === 'arm64' ? 'aarch64' : 'other');
    for (const name of ['AVX', 'AVX2', 'FMA', 'F16C', 'NEON', 'FP16_VA']) expect(typeof info.systemInfo[name], name).toBe('boolean');
    if (process.arch === 'x64') expect(info.systemInfo.NEON).toBe(false);
    if (process.arch === 'arm64') expect(info.systemInfo.NEON).toBe(true);
  });
});
