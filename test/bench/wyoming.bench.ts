import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { AplayPlayer } from '../../src/speech/aplay.js';
import type { OutputCallbacks, SpeechItem, SpeechOutput } from '../../src/speech/item.js';
import { WyomingOutput } from '../../src/speech/wyoming-output.js';
import { WyomingVoice } from '../../src/speech/wyoming-voice.js';
import { StreamResampler } from '../../src/speech/wyoming-resampler.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import { WyomingSttEngine } from '../../src/stt/wyoming/engine.js';
import { parseServerUrl } from '../../src/wyoming/server-url.js';
import { outputDir } from '../support/paths.js';
import { WyomingDouble } from '../support/wyoming-server.js';

/**
 * 1. Speech-to-text: hark's own time from the segment's close to its transcript (utterance.final on
 *    the bus), with the Wyoming double on 127.0.0.1 answering at once. The segment (2 s, pre-roll
 *    first) streamed to the server while it was open, as in the daemon; at the close hark sends
 *    audio-stop and waits for the transcript. What is timed is all hark's (framing, socket, parser,
 *    transcriber, bus) plus the double's parse of audio-stop and one loopback round trip.
 *    Target: <= 5 ms p50. The whole-segment way (all audio sent at the close) is timed too.
 * 2. Voice: from the double writing the first audio-chunk to its socket, to that audio reaching
 *    aplay's stdin (the parser, resampling 22050 → 16000, the streaming player). aplay here is a
 *    shell that stamps the time its first bytes arrive (`head -c 2`, then `date`): the stamp
 *    includes starting `date`, so this is an upper bound. Target: <= 50 ms.
 */

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]! : NaN;
};

const samples = { live: [] as number[], whole: [] as number[], tts: [] as number[], ttsWrite: [] as number[], ttsParsed: [] as number[] };

/** When the first chunk had come through the socket and the parser (it is about to be resampled). */
let firstParsedAt: number | null = null;
const originalPush = StreamResampler.prototype.push;
StreamResampler.prototype.push = function (this: StreamResampler, pcm: Int16Array) {
  if (firstParsedAt === null) firstParsedAt = performance.timeOrigin + performance.now();
  return originalPush.call(this, pcm);
};

/**
 * The moment hark hands audio to aplay, seen in-process: the first write on a pipe (aplay's stdin;
 * the double's socket is TCP) after the first chunk left the double. Socket.prototype.write is
 * wrapped for the benchmark only.
 */
let firstPipeWriteAt: number | null = null;
const originalWrite = Socket.prototype.write;
function watchPipeWrites(): void {
  Socket.prototype.write = function (this: Socket, ...args: unknown[]) {
    const handle = (this as unknown as { _handle?: { constructor?: { name?: string } } })._handle;
    if (firstPipeWriteAt === null && handle?.constructor?.name === 'Pipe') firstPipeWriteAt = performance.timeOrigin + performance.now();
    return (originalWrite as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof Socket.prototype.write;
}
let server: WyomingDouble;
let svc: Transcriber;
let bus: Bus;
let engine: WyomingSttEngine;
let voice: WyomingVoice;
let player: AplayPlayer;
let stamp: string;
let seg = 0;
const segment = Int16Array.from({ length: 32_000 }, (_, i) => Math.round(3000 * Math.sin(i / 7)));

beforeAll(async () => {
  server = await WyomingDouble.start({ ttsChunkSamples: 1024 });
  server.defaultText = 'computer set a timer for five minutes';
  const u = parseServerUrl(server.url);
  if ('error' in u) throw new Error(u.error);
  const clock = new SystemClock();
  engine = new WyomingSttEngine({
    server: u.server,
    language: 'en',
    model: '',
    connectTimeoutMs: 1000,
    deadlineBaseMs: 5000,
    deadlinePerSecondMs: 0,
    chunkSamples: 1024,
    logger: memoryLogger(),
    clock,
  });
  await engine.describe();
  bus = new Bus();
  svc = new Transcriber({
    engines: [{ id: 'wyoming', engine }],
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: { phrases: DEFAULT_HALLUCINATIONS },
    stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
    clock,
    logger: memoryLogger(),
    bus,
  });

  voice = new WyomingVoice({ server: u.server, voice: 'en_US-lessac-medium', connectTimeoutMs: 1000, firstChunkTimeoutMs: 3000, chunkGapTimeoutMs: 3000 });
  const dir = outputDir('bench-wyoming');
  stamp = join(dir, 'first-bytes');
  const bin = join(dir, 'stamp-aplay.sh');
  writeFileSync(bin, `#!/bin/sh\nhead -c 2 > /dev/null && date +%s%N > "${stamp}" && cat > /dev/null\n`);
  chmodSync(bin, 0o755);
  player = new AplayPlayer({ device: 'null', bin, leadMs: 400 });
  watchPipeWrites();
});

afterAll(async () => {
  Socket.prototype.write = originalWrite;
  StreamResampler.prototype.push = originalPush;
  await engine?.close();
  await server?.close();
  console.log(
    [
      '',
      'wyoming benchmark summary',
      `  segment close → utterance.final, streamed while open (the daemon's way): median ${median(samples.live).toFixed(2)} ms, p95 ${p95(samples.live).toFixed(2)} ms (target <= 5 ms p50)`,
      `  segment close → utterance.final, whole 2 s segment sent at the close: median ${median(samples.whole).toFixed(2)} ms, p95 ${p95(samples.whole).toFixed(2)} ms`,
      `  first TTS chunk on the socket → written to aplay's stdin (in-process): median ${median(samples.ttsWrite).toFixed(2)} ms, p95 ${p95(samples.ttsWrite).toFixed(2)} ms (target <= 50 ms)`,
      `    of which socket → parsed (loopback, event loop, framing): median ${median(samples.ttsParsed).toFixed(2)} ms`,
      `  first TTS chunk on the socket → read by the process on aplay's stdin (upper bound, includes starting date(1)): median ${median(samples.tts).toFixed(1)} ms, p95 ${p95(samples.tts).toFixed(1)} ms `,
      `  samples: ${samples.live.length}, ${samples.whole.length}, ${samples.tts.length}`,
    ].join('\n'),
  );
});

function heard(): Promise<number> {
  return new Promise((resolve) => {
    const off = bus.on('utterance.final', () => {
      off();
      resolve(performance.now());
    });
  });
}

describe('wyoming speech-to-text: segment close → transcript', () => {
  bench(
    'streamed while open; at the close only audio-stop',
    async () => {
      const key = `@${seg++}`;
      const live = svc.open(key, segment.subarray(0, 8000))!;
      for (let i = 8000; i < segment.length; i += 512) live.write(segment.subarray(i, i + 512));
      // The server has had the audio; as in the daemon, the close comes after the hangover.
      await new Promise((r) => setTimeout(r, 20));
      const got = heard();
      const t0 = performance.now();
      await svc.transcribe({ index: seg, pcm: segment, maxProb: 0.9 }, live, key);
      samples.live.push((await got) - t0);
    },
    { iterations: 40, time: 0, warmupIterations: 3 },
  );

  bench(
    'whole segment sent at the close',
    async () => {
      const got = heard();
      const t0 = performance.now();
      await svc.transcribe({ index: seg++, pcm: segment, maxProb: 0.9 });
      samples.whole.push((await got) - t0);
    },
    { iterations: 40, time: 0, warmupIterations: 3 },
  );
});

describe('wyoming voice: first chunk → aplay', () => {
  const fallback: SpeechOutput = {
    play: (_item: SpeechItem, cb: OutputCallbacks) => {
      cb.finished('fallback used');
      return { stop: () => {} };
    },
  };
  bench(
    'first audio-chunk on the socket → aplay stdin',
    async () => {
      rmSync(stamp, { force: true });
      firstPipeWriteAt = null;
      firstParsedAt = null;
      const out = new WyomingOutput({ voice, player, fallback });
      const before = server.tts().length;
      await new Promise<void>((resolve, reject) => {
        out.play(
          { id: 1, kind: 'speech', text: 'Timer set.', priority: 'normal', offsetMs: 0 },
          { started: () => {}, finished: (e) => (e ? reject(new Error(e)) : resolve()) },
        );
      });
      const ex = server.tts()[before]!;
      if (!existsSync(stamp) || ex.firstChunkAt === undefined) throw new Error('no stamp');
      const atAplay = Number(readFileSync(stamp, 'utf8').trim()) / 1e6;
      samples.tts.push(atAplay - ex.firstChunkAt);
      if (firstPipeWriteAt !== null) samples.ttsWrite.push(firstPipeWriteAt - ex.firstChunkAt);
      if (firstParsedAt !== null) samples.ttsParsed.push(firstParsedAt - ex.firstChunkAt);
    },
    { iterations: 20, time: 0, warmupIterations: 2 },
  );
});
