import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { HarkError, errorMessage } from '../../core/errors.js';

/**
 * Check a ggml Whisper model file before whisper.cpp sees it.
 *
 * Why: smart-whisper's loader calls whisper_print_timings() on the context even when loading
 * failed, i.e. on a null pointer — a missing, truncated or corrupt model file does not raise an
 * error, it kills the process with SIGSEGV (and a load error from a worker would never settle its
 * promise). So hark walks the whole file the way whisper_model_load() does — magic, hyper-parameters,
 * mel filters, vocabulary, then every tensor header and its data size — and refuses anything that
 * would not load, with a message naming the file and how to fetch a good one.
 */

const GGML_MAGIC = 0x67676d6c; // "ggml", little-endian

/** ggml type id → [bytes per block, elements per block] (ggml-common.h, whisper.cpp as vendored). */
const TYPE_SIZE: Record<number, [number, number]> = {
  0: [4, 1], // F32
  1: [2, 1], // F16
  2: [18, 32], // Q4_0
  3: [20, 32], // Q4_1
  6: [22, 32], // Q5_0
  7: [24, 32], // Q5_1
  8: [34, 32], // Q8_0
  10: [84, 256], // Q2_K
  11: [110, 256], // Q3_K
  12: [144, 256], // Q4_K
  13: [176, 256], // Q5_K
  14: [210, 256], // Q6_K
};
const TYPE_NAME: Record<number, string> = {
  0: 'f32',
  1: 'f16',
  2: 'q4_0',
  3: 'q4_1',
  6: 'q5_0',
  7: 'q5_1',
  8: 'q8_0',
  10: 'q2_k',
  11: 'q3_k',
  12: 'q4_k',
  13: 'q5_k',
  14: 'q6_k',
};

/** The file's ftype (weights' precision) → the ggml type of its big matrices (ggml_ftype_to_ggml_type). */
const FTYPE_TO_TYPE: Record<number, number> = { 0: 0, 1: 1, 2: 2, 3: 3, 7: 8, 8: 6, 9: 7, 10: 10, 11: 11, 12: 12, 13: 13, 14: 14 };

const MODEL_SIZES: Record<number, string> = { 4: 'tiny', 6: 'base', 12: 'small', 24: 'medium', 32: 'large' };

export interface ModelInfo {
  path: string;
  bytes: number;
  /** tiny, base, small, ... (from the encoder depth). */
  size: string;
  multilingual: boolean;
  /** Weight precision: f16, q5_1, q8_0, ... */
  precision: string;
  tensors: number;
  /** True for a file with no weights (whisper.cpp loads it "for testing"; it transcribes nothing). */
  empty: boolean;
}

export interface ModelHparams {
  nVocab: number;
  nAudioCtx: number;
  nAudioState: number;
  nAudioHead: number;
  nAudioLayer: number;
  nTextCtx: number;
  nTextState: number;
  nTextHead: number;
  nTextLayer: number;
  nMels: number;
  ftype: number;
}

/** `base.en-q5_1` → `<modelsDir>/ggml-base.en-q5_1.bin`; anything with a slash or `.bin` is a path. */
export function resolveModelPath(model: string, modelsDir: string, cwd = process.cwd()): string {
  if (model.includes('/') || model.endsWith('.bin')) return isAbsolute(model) ? model : resolve(cwd, model);
  return join(modelsDir, `ggml-${model}.bin`);
}

/** The `hark model fetch` command that would put a good copy of this file in place. */
export function fetchHint(path: string): string {
  const m = /^ggml-(.+)\.bin$/.exec(basename(path));
  return m ? `hark model fetch ${m[1]}` : 'hark model fetch <name> (e.g. base.en-q5_1), then point stt.whisper.model at it';
}

class Reader {
  pos = 0;
  constructor(
    private readonly fd: number,
    readonly size: number,
  ) {}
  private buf = Buffer.alloc(0);
  private bufStart = 0;
  /** Read `n` bytes at the cursor; null when the file ends first. */
  bytes(n: number): Buffer | null {
    if (this.pos + n > this.size) return null;
    if (this.pos < this.bufStart || this.pos + n > this.bufStart + this.buf.length) {
      this.bufStart = this.pos;
      this.buf = Buffer.alloc(Math.min(Math.max(n, 1 << 20), this.size - this.pos));
      readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
    }
    const out = this.buf.subarray(this.pos - this.bufStart, this.pos - this.bufStart + n);
    this.pos += n;
    return out;
  }
  i32(): number | null {
    const b = this.bytes(4);
    return b ? b.readInt32LE(0) : null;
  }
  u32(): number | null {
    const b = this.bytes(4);
    return b ? b.readUInt32LE(0) : null;
  }
  skip(n: number): boolean {
    if (this.pos + n > this.size) return false;
    this.pos += n;
    return true;
  }
}

/**
 * Every tensor whisper_model_load() maps for these hyper-parameters, with the shape it allocates
 * ([ne0, ne1, ne2]): a file tensor of another name or shape makes the loader fail (and crash).
 */
export function expectedTensors(hp: ModelHparams): Map<string, [number, number, number]> {
  const S = hp.nAudioState;
  const m = new Map<string, [number, number, number]>();
  const add = (name: string, ...ne: number[]) => m.set(name, [ne[0] ?? 1, ne[1] ?? 1, ne[2] ?? 1]);
  add('encoder.positional_embedding', S, hp.nAudioCtx);
  add('encoder.conv1.weight', 3, hp.nMels, S);
  add('encoder.conv1.bias', 1, S);
  add('encoder.conv2.weight', 3, S, S);
  add('encoder.conv2.bias', 1, S);
  add('encoder.ln_post.weight', S);
  add('encoder.ln_post.bias', S);
  add('decoder.positional_embedding', hp.nTextState, hp.nTextCtx);
  add('decoder.token_embedding.weight', hp.nTextState, hp.nVocab);
  add('decoder.ln.weight', hp.nTextState);
  add('decoder.ln.bias', hp.nTextState);
  const block = (prefix: string, n: number, cross: boolean) => {
    for (let i = 0; i < n; i++) {
      const b = `${prefix}.blocks.${i}.`;
      const D = prefix === 'encoder' ? S : hp.nTextState;
      add(b + 'mlp_ln.weight', D);
      add(b + 'mlp_ln.bias', D);
      add(b + 'mlp.0.weight', D, 4 * D);
      add(b + 'mlp.0.bias', 4 * D);
      add(b + 'mlp.2.weight', 4 * D, D);
      add(b + 'mlp.2.bias', D);
      add(b + 'attn_ln.weight', D);
      add(b + 'attn_ln.bias', D);
      add(b + 'attn.query.weight', D, D);
      add(b + 'attn.query.bias', D);
      add(b + 'attn.key.weight', D, D);
      add(b + 'attn.value.weight', D, D);
      add(b + 'attn.value.bias', D);
      add(b + 'attn.out.weight', D, D);
      add(b + 'attn.out.bias', D);
      if (!cross) continue;
      add(b + 'cross_attn_ln.weight', D);
      add(b + 'cross_attn_ln.bias', D);
      add(b + 'cross_attn.query.weight', D, D);
      add(b + 'cross_attn.query.bias', D);
      add(b + 'cross_attn.key.weight', D, D);
      add(b + 'cross_attn.value.weight', D, D);
      add(b + 'cross_attn.value.bias', D);
      add(b + 'cross_attn.out.weight', D, D);
      add(b + 'cross_attn.out.bias', D);
    }
  };
  block('encoder', hp.nAudioLayer, false);
  block('decoder', hp.nTextLayer, true);
  return m;
}

/** The ggml type whisper.cpp allocates for a tensor (whisper_model_load): the file must match it. */
function expectedType(name: string, wtype: number): number {
  if (name.endsWith('positional_embedding') || name.endsWith('.bias') || /(^|\.)(\w+_)?ln(_post)?\.weight$/.test(name)) return 0;
  if (/\.conv[12]\.weight$/.test(name)) return wtype === 0 ? 0 : 1;
  return wtype;
}

/**
 * Validate `path` as a whisper.cpp ggml model. Throws a HarkError naming the file, what is wrong,
 * and the fetch command; returns what it found otherwise.
 */
export function checkModelFile(path: string): ModelInfo {
  const bad = (what: string): HarkError =>
    new HarkError(`whisper model ${path} ${what}; get a good copy with \`${fetchHint(path)}\` (or set stt.whisper.model / --model)`, { exitCode: 2 });
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw bad('does not exist');
    if (code === 'EACCES') throw bad('cannot be read (permission denied)');
    if (code === 'EISDIR') throw bad('is a directory, not a model file');
    throw bad(`cannot be opened: ${errorMessage(err)}`);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw bad('is a directory, not a model file');
    const size = st.size;
    const r = new Reader(fd, size);
    const truncated = (where: string) => bad(`is truncated (the file ends inside ${where}; ${size} bytes)`);
    const magic = r.u32();
    if (magic === null) throw bad(size === 0 ? 'is empty' : 'is too short to be a model');
    if (magic !== GGML_MAGIC) {
      const head = Buffer.alloc(4);
      head.writeUInt32LE(magic, 0);
      const hint = head.toString('latin1') === 'GGUF' ? ' (it is a GGUF file; whisper.cpp needs the ggml .bin format)' : '';
      throw bad(`is not a ggml model (bad magic 0x${magic.toString(16)})${hint}`);
    }
    const vals: number[] = [];
    for (let i = 0; i < 11; i++) {
      const v = r.i32();
      if (v === null) throw truncated('the header');
      vals.push(v);
    }
    const [nVocab, nAudioCtx, nAudioState, nAudioHead, nAudioLayer, nTextCtx, nTextState, nTextHead, nTextLayer, nMels, ftypeRaw] = vals as [
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const hp: ModelHparams = {
      nVocab,
      nAudioCtx,
      nAudioState,
      nAudioHead,
      nAudioLayer,
      nTextCtx,
      nTextState,
      nTextHead,
      nTextLayer,
      nMels,
      ftype: ftypeRaw % 1000,
    };
    for (const [k, v] of Object.entries(hp)) {
      if (k !== 'ftype' && (v < 1 || v > 1_000_000)) throw bad(`has an impossible header (${k} = ${v})`);
    }
    // whisper.cpp asserts this (an abort, not an error) — refuse it here instead.
    if (nAudioState !== nTextState) throw bad(`has an impossible header (audio state ${nAudioState} ≠ text state ${nTextState})`);
    const wtype = FTYPE_TO_TYPE[hp.ftype];
    if (wtype === undefined) throw bad(`uses a weight format hark does not load (ftype ${hp.ftype})`);

    const nMel = r.i32();
    const nFft = r.i32();
    if (nMel === null || nFft === null) throw truncated('the mel filters');
    if (nMel < 1 || nFft < 1 || nMel * nFft > 10_000_000) throw bad(`has impossible mel filters (${nMel} × ${nFft})`);
    if (!r.skip(nMel * nFft * 4)) throw truncated('the mel filters');

    const vocab = r.i32();
    if (vocab === null) throw truncated('the vocabulary');
    if (vocab < 0 || vocab > nVocab) throw bad(`has an impossible vocabulary size (${vocab} words for n_vocab ${nVocab})`);
    for (let i = 0; i < vocab; i++) {
      const len = r.u32();
      if (len === null || !r.skip(len)) throw truncated(`the vocabulary (word ${i} of ${vocab})`);
      if (len > 1024) throw bad(`has a corrupt vocabulary (word ${i} is ${len} bytes long)`);
    }

    const expected = expectedTensors(hp);
    const seen = new Set<string>();
    while (r.pos < size) {
      const nDims = r.i32();
      const nameLen = r.i32();
      const ttype = r.i32();
      if (nDims === null || nameLen === null || ttype === null) throw truncated(`the header of tensor ${seen.size + 1}`);
      if (nDims < 1 || nDims > 4 || nameLen < 1 || nameLen > 256)
        throw bad(`is corrupt at byte ${r.pos - 12} (tensor ${seen.size + 1}: ${nDims} dims, name of ${nameLen} bytes)`);
      let elements = 1;
      const shape = [1, 1, 1, 1];
      for (let d = 0; d < nDims; d++) {
        const ne = r.i32();
        if (ne === null) throw truncated(`the header of tensor ${seen.size + 1}`);
        if (ne < 1) throw bad(`is corrupt at byte ${r.pos - 4} (tensor dimension ${ne})`);
        shape[d] = ne;
        elements *= ne;
      }
      const nameBuf = r.bytes(nameLen);
      if (!nameBuf) throw truncated(`the header of tensor ${seen.size + 1}`);
      const name = nameBuf.toString('latin1');
      const want3 = expected.get(name);
      if (!want3) throw bad(`has a tensor whisper.cpp does not know ("${name.slice(0, 60)}")`);
      if (shape[0] !== want3[0] || shape[1] !== want3[1] || shape[2] !== want3[2] || shape[3] !== 1) {
        throw bad(`has tensor "${name}" shaped [${shape.slice(0, nDims).join(', ')}], but its header says [${want3.join(', ')}]`);
      }
      if (seen.has(name)) throw bad(`has tensor "${name}" twice`);
      const ts = TYPE_SIZE[ttype];
      if (!ts) throw bad(`has tensor "${name}" in an unknown format (type ${ttype})`);
      const want = expectedType(name, wtype);
      if (ttype !== want) throw bad(`has tensor "${name}" as ${TYPE_NAME[ttype]}, but its header says whisper.cpp must load it as ${TYPE_NAME[want] ?? want}`);
      if (elements % ts[1] !== 0) throw bad(`has tensor "${name}" with ${elements} elements, not a whole number of ${TYPE_NAME[ttype]} blocks`);
      if (!r.skip((elements / ts[1]) * ts[0])) throw truncated(`tensor "${name}"`);
      seen.add(name);
    }
    if (seen.size > 0 && seen.size !== expected.size) {
      throw bad(`is incomplete (${seen.size} of ${expected.size} tensors; the download may have been cut short)`);
    }
    return {
      path,
      bytes: size,
      size: MODEL_SIZES[nAudioLayer] ?? `${nAudioLayer}-layer`,
      multilingual: nVocab >= 51865,
      precision: TYPE_NAME[wtype] ?? String(wtype),
      tensors: seen.size,
      empty: seen.size === 0,
    };
  } finally {
    closeSync(fd);
  }
}
