import { bench, describe } from 'vitest';
import { readFileSync } from 'node:fs';
import { decodeWav } from '../../src/audio/wav.js';
import { Framer } from '../../src/audio/framer.js';
import { Segmenter } from '../../src/vad/segmenter.js';
import { JFK_WAV } from '../support/paths.js';

/**
 * Ring + segmenter cost per 32 ms frame (target ≤ 0.02 ms). One bench iteration = one frame, so the
 * reported mean is the per-frame cost; a frame is 32 ms of audio, so mean / 32 is the fraction of real time.
 * The probability script cycles speech and silence so opens, hangovers and closes (segment copies) are
 * all in the mix, at about the rate a busy kitchen produces them.
 */
const pcm = decodeWav(readFileSync(JFK_WAV), 'jfk.wav').pcm;
const frames: Int16Array[] = [];
for (let i = 0; i + 512 <= pcm.length; i += 512) frames.push(pcm.slice(i, i + 512));
// 2 s of speech, 1 s of silence, repeating
const probs = Array.from({ length: 94 }, (_, i) => (i % 94 < 62 ? 0.9 : 0.05));

const options = { threshold: 0.5, releaseThreshold: 0.35, prerollMs: 500, minSpeechMs: 96, hangoverMs: 600, maxSegmentMs: 12000, minSegmentMs: 250 };

describe('ring + segmenter per 32 ms frame', () => {
  const seg = new Segmenter(options);
  let i = 0;
  bench('Segmenter.push (ring write, live copy, state, segment emit)', () => {
    seg.push(frames[i % frames.length]!, probs[i % probs.length]!);
    i++;
  });

  const framer = new Framer(512);
  const seg2 = new Segmenter(options);
  let j = 0;
  // arecord hands over 4096-byte reads = 2048 samples = 4 frames
  const chunks: Int16Array[] = [];
  for (let k = 0; k + 2048 <= pcm.length; k += 2048) chunks.push(pcm.slice(k, k + 2048));
  bench('Framer + Segmenter, per frame (2048-sample chunks, 4 frames per call: divide by 4)', () => {
    for (const f of framer.frames(chunks[j % chunks.length]!)) seg2.push(f, probs[j % probs.length]!);
    j++;
  });
});
