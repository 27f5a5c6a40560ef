import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readWavFile, writeWavFile } from '../../src/audio/wav.js';
import { msToSamples } from '../../src/audio/pcm.js';
import { outputDir } from './paths.js';

/**
 * Real speech made on the spot: espeak-ng says a phrase, sox makes it 16 kHz mono s16.
 * Cached under test-output/speech/ by content, so a run makes each phrase once.
 */
export async function espeakPhrase(text: string, voice = 'en-us'): Promise<Int16Array> {
  const dir = outputDir('speech');
  const name = `${voice}-${text.replace(/[^a-z0-9]+/gi, '_').slice(0, 60)}.wav`;
  const path = join(dir, name);
  if (!existsSync(path)) {
    const raw = join(dir, `raw-${name}`);
    execFileSync('espeak-ng', ['-v', voice, '-s', '150', '-w', raw, text]);
    execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', path]);
  }
  return trimSilence((await readWavFile(path)).pcm);
}

/** Noise from sox: 'whitenoise' | 'pinknoise' | 'brownnoise', at a linear amplitude. */
export async function soxNoise(kind: 'whitenoise' | 'pinknoise' | 'brownnoise', ms: number, amplitude: number): Promise<Int16Array> {
  const dir = outputDir('speech');
  const path = join(dir, `${kind}-${ms}-${amplitude}.wav`);
  if (!existsSync(path)) {
    // -R: repeatable noise, so a test sees the same samples on every machine and run
    execFileSync('sox', ['-R', '-n', '-r', '16000', '-c', '1', '-b', '16', path, 'synth', String(ms / 1000), kind, 'vol', String(amplitude)]);
  }
  return (await readWavFile(path)).pcm;
}

/** Cut leading and trailing near-silence (espeak pads its output), so a phrase's extent is known. */
export function trimSilence(pcm: Int16Array, floor = 300): Int16Array {
  let a = 0;
  let b = pcm.length;
  while (a < b && Math.abs(pcm[a]!) < floor) a++;
  while (b > a && Math.abs(pcm[b - 1]!) < floor) b--;
  return pcm.slice(a, b);
}

export interface Scene {
  pcm: Int16Array;
  /** Where each phrase sits, in samples [start, end). */
  phrases: { text: string; start: number; end: number }[];
}

/**
 * Lay phrases out between known gaps: [gapMs, phrase, gapMs, phrase, ..., gapMs].
 * With `noise`, that noise is mixed in under the whole scene (speech and gaps alike).
 */
export async function scene(parts: (string | number)[], noise?: { kind: 'whitenoise' | 'pinknoise' | 'brownnoise'; amplitude: number }): Promise<Scene> {
  const pieces: Int16Array[] = [];
  const phrases: Scene['phrases'] = [];
  let at = 0;
  for (const part of parts) {
    if (typeof part === 'number') {
      const n = msToSamples(part);
      pieces.push(new Int16Array(n));
      at += n;
    } else {
      const p = await espeakPhrase(part);
      phrases.push({ text: part, start: at, end: at + p.length });
      pieces.push(p);
      at += p.length;
    }
  }
  const pcm = new Int16Array(at);
  let o = 0;
  for (const p of pieces) {
    pcm.set(p, o);
    o += p.length;
  }
  if (noise) {
    const n = await soxNoise(noise.kind, Math.ceil((at / 16000) * 1000) + 100, noise.amplitude);
    for (let i = 0; i < pcm.length; i++) pcm[i] = Math.max(-32768, Math.min(32767, pcm[i]! + n[i]!));
  }
  return { pcm, phrases };
}

export async function writeScene(s: Scene, name: string): Promise<string> {
  const path = join(outputDir('scenes'), `${name}.wav`);
  await writeWavFile(path, s.pcm);
  return path;
}
