import { describe, expect, it } from 'vitest';
import { compareSimd, compiledSimd, cpuSimd, formatSimd, parseCpuinfo, parseSystemInfo } from '../../src/stt/whisper/cpu-features.js';
import { CPUINFO_PI3_ARMV7, CPUINFO_PI4, CPUINFO_PI5, CPUINFO_X86_CORE2, CPUINFO_X86_EPYC } from './cpuinfo-samples.js';

/** whisper.cpp's `main`, built by its own Makefile (-march=native) on CPUINFO_X86_EPYC's machine, prints this. */
const SYSTEM_INFO_NATIVE_X86 =
  'system_info: n_threads = 2 / 2 | AVX = 1 | AVX2 = 1 | AVX512 = 1 | FMA = 1 | NEON = 0 | ARM_FMA = 0 | METAL = 0 | F16C = 1 | FP16_VA = 0 | WASM_SIMD = 0 | BLAS = 0 | SSE3 = 1 | SSSE3 = 1 | VSX = 0 | CUDA = 0 | COREML = 0 | OPENVINO = 0 | CANN = 0';
/** ...and this when built like npm ci builds the addon (no -march). */
const SYSTEM_INFO_GENERIC_X86 =
  'system_info: n_threads = 2 / 2 | AVX = 0 | AVX2 = 0 | AVX512 = 0 | FMA = 0 | NEON = 0 | ARM_FMA = 0 | METAL = 0 | F16C = 0 | FP16_VA = 0 | WASM_SIMD = 0 | BLAS = 0 | SSE3 = 0 | SSSE3 = 0 | VSX = 0 | CUDA = 0 | COREML = 0 | OPENVINO = 0 | CANN = 0';

describe('parseCpuinfo', () => {
  it('reads an x86 CPU: flags and model name', () => {
    const c = parseCpuinfo(CPUINFO_X86_EPYC);
    expect(c.arch).toBe('x86');
    expect(c.model).toBe('AMD EPYC');
    expect(c.flags).toContain('avx2');
    expect(cpuSimd(c)).toEqual({ AVX: true, AVX2: true, FMA: true, F16C: true, AVX512: true });
  });

  it('an x86 without AVX has none of the features whisper.cpp cares about', () => {
    expect(cpuSimd(parseCpuinfo(CPUINFO_X86_CORE2))).toEqual({ AVX: false, AVX2: false, FMA: false, F16C: false, AVX512: false });
  });

  it('a Pi 4 (Cortex-A72) has NEON, but no dotprod and no fp16', () => {
    const c = parseCpuinfo(CPUINFO_PI4);
    expect(c.arch).toBe('arm64');
    expect(c.model).toBe('Raspberry Pi 4 Model B Rev 1.1 (Cortex-A72)');
    expect(cpuSimd(c)).toEqual({ NEON: true, DOTPROD: false, FP16: false, I8MM: false });
  });

  it('a Pi 5 (Cortex-A76) has NEON, dotprod (asimddp) and fp16 (fphp + asimdhp)', () => {
    const c = parseCpuinfo(CPUINFO_PI5);
    expect(c.arch).toBe('arm64');
    expect(c.model).toBe('Raspberry Pi 5 Model B Rev 1.0 (Cortex-A76)');
    expect(cpuSimd(c)).toEqual({ NEON: true, DOTPROD: true, FP16: true, I8MM: false });
  });

  it('fp16 needs both the scalar and the vector half-precision units', () => {
    const c = parseCpuinfo(CPUINFO_PI5.replaceAll(' asimdhp', ''));
    expect(cpuSimd(c).FP16).toBe(false);
  });

  it('32-bit ARM userland and unknown CPUs', () => {
    const c = parseCpuinfo(CPUINFO_PI3_ARMV7);
    expect(c.arch).toBe('arm');
    expect(cpuSimd(c)).toEqual({ NEON: true });
    expect(parseCpuinfo('processor : 0\ncpu model : POWER9\n')).toEqual({ arch: 'other', flags: [], model: 'POWER9' });
    expect(cpuSimd(parseCpuinfo(''))).toEqual({});
  });
});

describe('system info and the comparison', () => {
  it('parses whisper.cpp system info lines', () => {
    const s = parseSystemInfo(SYSTEM_INFO_NATIVE_X86);
    expect(s).toMatchObject({ AVX: true, AVX2: true, AVX512: true, FMA: true, F16C: true, NEON: false, FP16_VA: false, SSE3: true });
    expect(s.n_threads).toBeUndefined();
    expect(compiledSimd(s, 'x86')).toEqual({ AVX: true, AVX2: true, FMA: true, F16C: true, AVX512: true });
  });

  it('a generic build on an AVX-512 CPU misses everything the CPU has', () => {
    const cpu = cpuSimd(parseCpuinfo(CPUINFO_X86_EPYC));
    const compiled = compiledSimd(parseSystemInfo(SYSTEM_INFO_GENERIC_X86), 'x86');
    expect(compareSimd('x86', cpu, compiled)).toEqual({ missing: ['AVX', 'AVX2', 'FMA', 'F16C', 'AVX512'], extra: [], unknown: [] });
    expect(formatSimd('x86', compiled)).toBe('none');
    expect(formatSimd('x86', cpu)).toBe('AVX AVX2 FMA F16C AVX512');
  });

  it('a native build matches', () => {
    const cpu = cpuSimd(parseCpuinfo(CPUINFO_X86_EPYC));
    expect(compareSimd('x86', cpu, compiledSimd(parseSystemInfo(SYSTEM_INFO_NATIVE_X86), 'x86'))).toEqual({ missing: [], extra: [], unknown: [] });
  });

  it('a Pi 4 build on a Pi 5 misses dotprod and fp16; a Pi 5 build on a Pi 4 has instructions it cannot run', () => {
    const pi4 = cpuSimd(parseCpuinfo(CPUINFO_PI4));
    const pi5 = cpuSimd(parseCpuinfo(CPUINFO_PI5));
    const builtOnPi4 = compiledSimd({ NEON: true, ARM_FMA: true, FP16_VA: false, MATMUL_INT8: false, DOTPROD: false }, 'arm64');
    const builtOnPi5 = compiledSimd({ NEON: true, ARM_FMA: true, FP16_VA: true, MATMUL_INT8: false, DOTPROD: true }, 'arm64');
    expect(compareSimd('arm64', pi4, builtOnPi4)).toEqual({ missing: [], extra: [], unknown: [] });
    expect(compareSimd('arm64', pi5, builtOnPi5)).toEqual({ missing: [], extra: [], unknown: [] });
    expect(compareSimd('arm64', pi5, builtOnPi4)).toEqual({ missing: ['DOTPROD', 'FP16'], extra: [], unknown: [] });
    expect(compareSimd('arm64', pi4, builtOnPi5)).toEqual({ missing: [], extra: ['DOTPROD', 'FP16'], unknown: [] });
  });

  it('what could not be read is unknown, never "not compiled"', () => {
    const pi5 = cpuSimd(parseCpuinfo(CPUINFO_PI5));
    const compiled = compiledSimd({ NEON: true, FP16_VA: true, MATMUL_INT8: false, DOTPROD: null }, 'arm64');
    expect(compiled).toEqual({ NEON: true, FP16: true, I8MM: false });
    expect(compareSimd('arm64', pi5, compiled)).toEqual({ missing: [], extra: [], unknown: ['DOTPROD'] });
    expect(formatSimd('arm64', compiled)).toBe('NEON FP16 (DOTPROD unknown)');
  });
});
