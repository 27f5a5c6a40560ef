import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeWav } from '../../src/audio/wav.js';
import { validateConfig } from '../../src/config/load.js';
import { createVad } from '../../src/vad/create.js';
import { segmentPcm } from '../../src/vad/pipeline.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { outputDir } from '../support/paths.js';

/**
 * The shortest commands are one word ("stop" over a ringing timer, "no" to a confirmation, "next",
 * "done"), said crisply by someone with their hands full. Silero (the default VAD) counts 100-250 ms of
 * speech in them; they must reach speech-to-text, not be dropped as a click. Kitchen bumps and clicks
 * are turned away by Silero itself, before any length is judged.
 */
const VAD = validateConfig({}, 'test').vad;
const dir = outputDir('vad-short-words');

/** `input` (a file, or -n for a synthesised sound made by `effects`) as 16 kHz mono, with silence around it. */
function sox(input: string, effects: string[], name: string): Int16Array {
  const path = join(dir, name);
  execFileSync('sox', [input, '-r', '16000', '-c', '1', '-b', '16', path, ...effects, 'pad', '1', '1.5']);
  return decodeWav(readFileSync(path), name).pcm as Int16Array;
}

async function heard(pcm: Int16Array): Promise<{ segments: number; dropped: string[] }> {
  const vad = await createVad(VAD);
  try {
    const { segments, dropped } = await segmentPcm(pcm, { vad, segmenter: segmenterOptions(VAD) });
    return { segments: segments.length, dropped: dropped.map((d) => `${d.reason} (${Math.round(d.speechMs)} ms)`) };
  } finally {
    await vad.close();
  }
}

describe('one-word commands and kitchen noises, through Silero and the segmenter with the default settings', () => {
  it.each([
    ['stop', 'en', 150],
    ['stop', 'en', 260],
    ['no', 'en-us', 260],
    ['back', 'en-us', 260],
    ['done', 'en', 260],
    ['ok', 'en-us', 260],
  ])('"%s" (espeak-ng %s at %i words a minute) becomes a segment', async (word, voice, speed) => {
    const raw = join(dir, `raw-${word}-${voice}-${speed}.wav`);
    execFileSync('espeak-ng', ['-v', voice, '-s', String(speed), '-w', raw, word]);
    expect(await heard(sox(raw, [], `${word}-${voice}-${speed}.wav`))).toEqual({ segments: 1, dropped: [] });
  });

  it.each([
    ['a click', ['synth', '0.01', 'whitenoise', 'vol', '0.9']],
    ['a burst of noise', ['synth', '0.15', 'whitenoise', 'fade', '0', '0.15', '0.14']],
    ['a door slam', ['synth', '0.6', 'brownnoise', 'fade', '0', '0.6', '0.55', 'vol', '0.9']],
    ['a plucked pan', ['synth', '0.8', 'pluck', 'C5', 'vol', '0.8']],
    ['a metal clang', ['synth', '1.2', 'sine', '1200', 'sine', '2750', 'fade', '0', '1.2', '1.15', 'vol', '0.7']],
    ['cutlery clatter', ['synth', '0.03', 'whitenoise', 'pad', '0', '0.05', 'repeat', '8', 'vol', '0.8']],
  ])('%s opens no segment', async (name, args) => {
    expect(await heard(sox('-n', args, `${name.replace(/\W+/g, '-')}.wav`))).toEqual({ segments: 0, dropped: [] });
  });
});
