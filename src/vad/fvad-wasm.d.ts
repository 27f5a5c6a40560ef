// @echogarden/fvad-wasm ships no types. This covers the part of its Emscripten module hark uses:
// libfvad's C API (https://github.com/dpirch/libfvad/blob/master/include/fvad.h) on the wasm heap.
declare module '@echogarden/fvad-wasm' {
  export interface FvadModule {
    /** Views of the wasm memory; replaced when memory grows, so read them at each use. */
    readonly HEAP16: Int16Array;
    _malloc(bytes: number): number;
    _free(ptr: number): void;
    /** Returns a handle, or 0 when out of memory. */
    _fvad_new(): number;
    _fvad_free(handle: number): void;
    /** Clears all state and sets mode and sample rate back to their defaults (0, 8000). */
    _fvad_reset(handle: number): void;
    /** 0 on success, -1 for a mode outside 0..3. */
    _fvad_set_mode(handle: number, mode: number): number;
    /** 0 on success, -1 for a rate other than 8000/16000/32000/48000. */
    _fvad_set_sample_rate(handle: number, rate: number): number;
    /** 1 voiced, 0 unvoiced, -1 for a length that is not 10, 20 or 30 ms. */
    _fvad_process(handle: number, samplesPtr: number, length: number): number;
  }
  const fvad: (moduleArg?: Record<string, unknown>) => Promise<FvadModule>;
  export default fvad;
}
