import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarkError } from '../../src/core/errors.js';
import { checkModelFile, fetchHint, resolveModelPath } from '../../src/stt/whisper/model-file.js';
import { outputDir, requireFile, TINY_MODEL } from '../support/paths.js';
import { ggmlModel, TINY_HP, writeGgml } from './ggml-file.js';

const dir = outputDir('stt-model-file');
const file = (name: string, data: Buffer | string) => {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
};

function refusal(path: string): string {
  try {
    checkModelFile(path);
  } catch (err) {
    expect(err).toBeInstanceOf(HarkError);
    expect((err as HarkError).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error(`${path} was accepted`);
}

describe('whisper model file check (before whisper.cpp sees it)', () => {
  it('accepts the test model and says it has no weights', () => {
    const info = checkModelFile(requireFile(TINY_MODEL));
    expect(info).toMatchObject({ size: 'tiny', multilingual: false, precision: 'f16', tensors: 0, empty: true });
  });

  it('accepts a complete model with every tensor in the shape whisper.cpp allocates', () => {
    const info = checkModelFile(writeGgml(join(dir, 'ggml-complete.bin')));
    expect(info.tensors).toBe(11 + 15 + 24);
    expect(info.empty).toBe(false);
  });

  it.each([
    ['missing', () => join(dir, 'ggml-base.en-q5_1.bin'), /ggml-base\.en-q5_1\.bin does not exist; get a good copy with `hark model fetch base\.en-q5_1`/],
    ['a directory', () => dir, /is a directory/],
    ['empty', () => file('ggml-empty.bin', ''), /is empty/],
    ['junk', () => file('ggml-junk.bin', Buffer.alloc(4096, 7)), /is not a ggml model \(bad magic 0x7070707\)/],
    ['GGUF', () => file('ggml-gguf.bin', Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(100)])), /it is a GGUF file/],
    ['cut in the header', () => file('ggml-cut1.bin', readFileSync(TINY_MODEL).subarray(0, 30)), /truncated \(the file ends inside the header/],
    ['cut in the vocabulary', () => file('ggml-cut2.bin', readFileSync(TINY_MODEL).subarray(0, 200_000)), /truncated \(the file ends inside the vocabulary/],
    [
      'cut inside a tensor',
      () => file('ggml-cut3.bin', ggmlModel().subarray(0, ggmlModel().length - 100)),
      /truncated \(the file ends inside tensor "decoder\.blocks\.0\.cross_attn\.out\.weight"/,
    ],
    ['missing a tensor', () => writeGgml(join(dir, 'ggml-omit.bin'), { omit: ['decoder.ln.bias'] }), /incomplete \(49 of 50 tensors/],
    [
      'a tensor of the wrong shape',
      () => writeGgml(join(dir, 'ggml-shape.bin'), { reshape: { 'encoder.conv1.bias': [1, 5] } }),
      /"encoder\.conv1\.bias" shaped \[1, 5\], but its header says \[1, 4, 1\]/,
    ],
    [
      'an unknown tensor',
      () => writeGgml(join(dir, 'ggml-extra.bin'), { extra: [{ name: 'encoder.adapter.weight', dims: [4] }] }),
      /a tensor whisper\.cpp does not know \("encoder\.adapter\.weight"\)/,
    ],
    [
      'mismatched audio/text width (a whisper.cpp assert)',
      () => writeGgml(join(dir, 'ggml-width.bin'), { hp: { ...TINY_HP, nTextState: 8 }, tensors: false }),
      /audio state 4 ≠ text state 8/,
    ],
    [
      'an unknown weight format',
      () => writeGgml(join(dir, 'ggml-ftype.bin'), { hp: { ...TINY_HP, ftype: 5 }, tensors: false }),
      /weight format hark does not load \(ftype 5\)/,
    ],
  ])('refuses a file that is %s, naming it and the fetch command', (_what, make, message) => {
    const path = make();
    const msg = refusal(path);
    expect(msg).toContain(path);
    expect(msg).toMatch(message);
    expect(msg).toContain('hark model fetch');
  });

  it('resolves a model name in the models directory and a path as given', () => {
    expect(resolveModelPath('base.en-q5_1', '/var/lib/hark/models')).toBe('/var/lib/hark/models/ggml-base.en-q5_1.bin');
    expect(resolveModelPath('/opt/m.bin', '/x')).toBe('/opt/m.bin');
    expect(resolveModelPath('models/m.bin', '/x', '/home/pi')).toBe('/home/pi/models/m.bin');
    expect(fetchHint('/a/ggml-tiny.en-q5_1.bin')).toBe('hark model fetch tiny.en-q5_1');
    expect(fetchHint('/a/custom.bin')).toMatch(/hark model fetch <name>/);
    mkdirSync(dir, { recursive: true });
  });
});
