import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { FRAME_SAMPLES, SAMPLE_RATE, rms } from '../../src/audio/pcm.js';
import { readWavFile } from '../../src/audio/wav.js';
import type { Vad } from '../../src/vad/vad.js';
import { outputDir } from '../support/paths.js';

/**
 * Audio for the VAD tests: real recordings and sox/espeak-ng generated clips, cut into 32 ms frames.
 * Generated files land in test-output/vad/ so a failing case can be listened to.
 */

export const OUT = outputDir('vad');

/** hark's own decoder: 16 kHz mono s16 whatever the file holds. */
export async function readPcm16k(path: string): Promise<Int16Array> {
  return (await readWavFile(path)).pcm;
}

function sox(...args: string[]): void {
  execFileSync('sox', args, { stdio: 'pipe' });
}

const FMT = ['-r', String(SAMPLE_RATE), '-c', '1', '-b', '16'];

/** `seconds` of digital silence. */
export function silenceWav(name: string, seconds: number): string {
  const out = join(OUT, name);
  sox('-n', ...FMT, out, 'trim', '0', String(seconds));
  return out;
}

/**
 * Steady white or pink noise at a moderate level (`vol` of full scale). `-R` makes sox's random
 * generator repeatable: WebRTC's score on noise varies from one realisation to the next (a few
 * percent of frames up to a few tens), and a test must not pass or fail by the dice.
 */
export function noiseWav(name: string, kind: 'whitenoise' | 'pinknoise', seconds: number, vol: number): string {
  const out = join(OUT, name);
  sox('-R', '-n', ...FMT, out, 'synth', String(seconds), kind, 'vol', String(vol));
  return out;
}

/** An espeak-ng phrase at 16 kHz, `before` s of silence ahead of it and `after` s behind. */
export async function phraseWav(name: string, text: string, before: number, after: number): Promise<{ path: string; speechStart: number; speechEnd: number }> {
  const raw = join(OUT, `${name}.espeak.wav`);
  const out = join(OUT, name);
  execFileSync('espeak-ng', ['-w', raw, text], { stdio: 'pipe' });
  sox(raw, ...FMT, out, 'pad', String(before), String(after));
  const total = (await readPcm16k(out)).length;
  return { path: out, speechStart: before * SAMPLE_RATE, speechEnd: total - after * SAMPLE_RATE };
}

/** `speech` with `noise` mixed under it (sox -m), trimmed to the speech's length. */
export async function mixWav(name: string, speech: string, noise: string): Promise<string> {
  const out = join(OUT, name);
  sox('-R', '-m', speech, noise, ...FMT, out, 'trim', '0', String((await readPcm16k(speech)).length / SAMPLE_RATE));
  return out;
}

/** Whole 512-sample frames (a trailing partial frame is dropped). */
export function frames(pcm: Int16Array): Int16Array[] {
  const out: Int16Array[] = [];
  for (let at = 0; at + FRAME_SAMPLES <= pcm.length; at += FRAME_SAMPLES) out.push(pcm.slice(at, at + FRAME_SAMPLES));
  return out;
}

/** Runs a stream through the VAD in order, one awaited frame at a time as the pipeline does. */
export async function probs(vad: Vad, fs: Int16Array[]): Promise<number[]> {
  const out: number[] = [];
  for (const f of fs) out.push(await vad.process(f));
  return out;
}

/** Share of `ps` at or above the segmenter's default threshold. */
export function fractionSpeech(ps: number[], threshold = 0.5): number {
  if (ps.length === 0) throw new Error('no frames to judge');
  return ps.filter((p) => p >= threshold).length / ps.length;
}

/** Indices of frames lying wholly inside [start, end) samples. */
export function framesWithin(start: number, end: number, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) if (i * FRAME_SAMPLES >= start && (i + 1) * FRAME_SAMPLES <= end) out.push(i);
  return out;
}

/** Frame indices whose level is at least `level` (RMS, fraction of full scale): clearly voiced. */
export function loudFrames(fs: Int16Array[], level: number): number[] {
  return fs.flatMap((f, i) => (rms(f) >= level ? [i] : []));
}

export interface Phrase {
  frames: Int16Array[];
  /** Frames wholly inside the phrase as espeak-ng wrote it (its own short edges included). */
  speech: number[];
  /** Frames wholly inside the leading padding. */
  lead: number[];
  /** Frames starting 300 ms or more after the phrase: past any VAD's decay. */
  tail: number[];
  /** Frames of the phrase that are clearly voiced (RMS at least 0.03 of full scale). */
  loud: number[];
}

export interface Fixtures {
  silence: Int16Array[];
  white: Int16Array[];
  pink: Int16Array[];
  phrase: Phrase;
  /** The same phrase with pink noise mixed under it, 15 dB below the voiced frames. */
  phraseInNoise: Phrase;
}

/** Generates the standard clips under names prefixed by `prefix`, so test files running in parallel never share a file. */
export async function fixtures(prefix: string): Promise<Fixtures> {
  const before = 1.5;
  const after = 1.5;
  const ph = await phraseWav(`${prefix}-phrase.wav`, 'Turn on the kitchen lights and set a timer for ten minutes', before, after);
  const clean = await readPcm16k(ph.path);
  const seconds = clean.length / SAMPLE_RATE;
  const mixed = await mixWav(`${prefix}-phrase-noise.wav`, ph.path, noiseWav(`${prefix}-bed.wav`, 'pinknoise', Math.ceil(seconds), 0.1));
  const cleanFrames = frames(clean);
  const n = cleanFrames.length;
  const layout = {
    speech: framesWithin(ph.speechStart, ph.speechEnd, n),
    lead: framesWithin(0, ph.speechStart, n),
    tail: framesWithin(ph.speechEnd + 0.3 * SAMPLE_RATE, Infinity, n),
    // judged on the clean clip, so the noisy copy is scored on the same frames
    loud: loudFrames(cleanFrames, 0.03),
  };
  return {
    silence: frames(await readPcm16k(silenceWav(`${prefix}-silence.wav`, 2))),
    white: frames(await readPcm16k(noiseWav(`${prefix}-white.wav`, 'whitenoise', 3, 0.1))),
    pink: frames(await readPcm16k(noiseWav(`${prefix}-pink.wav`, 'pinknoise', 3, 0.1))),
    phrase: { frames: cleanFrames, ...layout },
    phraseInNoise: { frames: frames(await readPcm16k(mixed)).slice(0, n), ...layout },
  };
}

/** The probabilities at the given frame indices. */
export function at(ps: number[], idx: number[]): number[] {
  return idx.map((i) => ps[i]!);
}
