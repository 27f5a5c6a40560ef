import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeWav } from '../../src/audio/wav.js';

/**
 * Loud room as a recording: librivox readings (pocketsphinx-testdata) chained, brown
 * noise under them (an extractor fan), and "computer set a timer for N minutes" (espeak-ng) 45 s in
 * and then once a minute, the talk pausing 1.2 s either side. Used by test/bench/loud-room.bench.ts
 * and test/e2e/loud-room.test.ts.
 */
const RATE = 16_000;
export const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

const raw = (args: string[]): Int16Array => {
  const b = execFileSync(args[0]!, args.slice(1), { maxBuffer: 1 << 28 });
  return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.length - (b.length % 2)));
};
const toRaw = (wav: string) => raw(['sox', wav, '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-t', 'raw', '-']);

export interface Command {
  text: string;
  seconds: number;
  startSample: number;
  endSample: number;
}

export function buildRecording(dir: string, minutes: number): { wav: string; commands: Command[]; pcm: Int16Array } {
  const readings = readdirSync(LIBRIVOX)
    .filter((f) => f.endsWith('.wav'))
    .map((f) => toRaw(join(LIBRIVOX, f)));
  const total = minutes * 60 * RATE;
  const pcm = new Int16Array(total);
  const commands: Command[] = [];
  let at = 0;
  let r = 0;
  let nextCommand = 45 * RATE;
  while (at < total) {
    if (at >= nextCommand && commands.length < minutes) {
      const n = commands.length + 1;
      const text = `computer set a timer for ${n} minute${n === 1 ? '' : 's'}`;
      const file = join(dir, `cmd-${n}.wav`);
      execFileSync('espeak-ng', ['-w', file, text]);
      const clip = toRaw(file);
      at += Math.round(1.2 * RATE); // the talk pauses
      if (at + clip.length >= total) break;
      pcm.set(clip, at);
      commands.push({ text, seconds: n * 60, startSample: at, endSample: at + clip.length });
      at += clip.length + Math.round(1.2 * RATE);
      nextCommand += 60 * RATE;
      continue;
    }
    const reading = readings[r++ % readings.length]!;
    const room = Math.min(reading.length, total - at, Math.max(RATE, nextCommand - at));
    pcm.set(reading.subarray(0, room), at);
    at += room;
  }
  // Kitchen noise under everything: brown noise (an extractor fan, a fridge), deterministic.
  let x = 1;
  let brown = 0;
  for (let i = 0; i < total; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    brown = 0.98 * brown + ((x / 0x7fffffff) * 2 - 1) * 120;
    pcm[i] = Math.max(-32768, Math.min(32767, pcm[i]! + Math.round(brown)));
  }
  const wav = join(dir, 'loud-room.wav');
  writeFileSync(wav, encodeWav(pcm));
  return { wav, commands, pcm };
}

/** Does `hay` contain `needle` exactly (the segment's PCM is byte-identical to the stream)? */
export function contains(hay: Int16Array, needle: Int16Array): boolean {
  const first = needle[0]!;
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    if (hay[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
