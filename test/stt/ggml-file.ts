import { writeFileSync } from 'node:fs';
import { expectedTensors, type ModelHparams } from '../../src/stt/whisper/model-file.js';

/** A small but complete whisper.cpp ggml model: every tensor the loader expects, shaped as it expects. */
export const TINY_HP: ModelHparams = {
  nVocab: 51864,
  nAudioCtx: 8,
  nAudioState: 4,
  nAudioHead: 1,
  nAudioLayer: 1,
  nTextCtx: 8,
  nTextState: 4,
  nTextHead: 1,
  nTextLayer: 1,
  nMels: 80,
  ftype: 1,
};

const i32 = (...v: number[]) => {
  const b = Buffer.alloc(4 * v.length);
  v.forEach((x, i) => b.writeInt32LE(x, i * 4));
  return b;
};

function isF32(name: string): boolean {
  return name.endsWith('positional_embedding') || name.endsWith('.bias') || /(^|\.)(\w+_)?ln(_post)?\.weight$/.test(name);
}

export interface GgmlOptions {
  hp?: ModelHparams;
  /** Drop these tensors, rename, reshape, or stop writing after N bytes. */
  omit?: string[];
  reshape?: Record<string, number[]>;
  extra?: { name: string; dims: number[] }[];
  tensors?: boolean;
}

export function ggmlModel(o: GgmlOptions = {}): Buffer {
  const hp = o.hp ?? TINY_HP;
  const parts: Buffer[] = [];
  parts.push(
    i32(0x67676d6c),
    i32(hp.nVocab, hp.nAudioCtx, hp.nAudioState, hp.nAudioHead, hp.nAudioLayer, hp.nTextCtx, hp.nTextState, hp.nTextHead, hp.nTextLayer, hp.nMels, hp.ftype),
  );
  parts.push(i32(hp.nMels, 201), Buffer.alloc(hp.nMels * 201 * 4));
  const vocab = ['!', '"', 'hello', ' world'];
  parts.push(i32(vocab.length));
  for (const w of vocab) parts.push(i32(Buffer.byteLength(w)), Buffer.from(w));
  if (o.tensors !== false) {
    const list = [...expectedTensors(hp).entries()].filter(([n]) => !o.omit?.includes(n)).map(([name, ne]) => ({ name, dims: o.reshape?.[name] ?? trim(ne) }));
    for (const t of [...list, ...(o.extra ?? [])]) {
      const type = isF32(t.name) ? 0 : 1;
      const n = t.dims.reduce((a, b) => a * b, 1);
      parts.push(i32(t.dims.length, Buffer.byteLength(t.name), type), i32(...t.dims), Buffer.from(t.name), Buffer.alloc(n * (type === 0 ? 4 : 2)));
    }
  }
  return Buffer.concat(parts);
}

function trim(ne: [number, number, number]): number[] {
  const d = [...ne];
  while (d.length > 1 && d[d.length - 1] === 1) d.pop();
  return d;
}

export function writeGgml(path: string, o: GgmlOptions = {}): string {
  writeFileSync(path, ggmlModel(o));
  return path;
}
