import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { writeWavFile } from '../../src/audio/wav.js';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/log.js';
import { DeepgramEngine } from '../../src/stt/deepgram/engine.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import { WhisperEngine } from '../../src/stt/whisper/engine.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { outputDir, requireFile, TINY_MODEL } from '../support/paths.js';
import { espeakPhrase } from '../support/speech.js';
import { ensureWhisperCli } from './whisper-cli.js';

/**
 * 1. Local engine: per-segment overhead beyond inference, in-process (model loaded once) against
 *    spawning whisper.cpp's `main` per segment with the model reloaded (what whisper-node does:
 *    write the clip to a WAV, exec main, read stdout). Same clip, same test model, same params.
 *    "Beyond inference" is measured on a 0.6 s clip: whisper.cpp does everything for it — state
 *    allocation, the mel spectrogram, and in the spawned case process start and model load — but
 *    skips the encoder/decoder ("input is too short"), so the wall time IS the overhead, without
 *    subtracting a noisy inference time. (The engine normally pads such a clip; here it must not.)
 *    Target: local / spawn <= 0.2.
 *    For scale, a 1.5 s command with full inference is timed too (informational; both sides are
 *    built for this CPU: the addon by scripts/build-whisper.sh, main by whisper.cpp's Makefile).
 * 2. Deepgram: from the final (from_finalize) message leaving the double's socket to utterance.final
 *    on the bus — SDK parse, AsrEventSource, routing, the builder, the bus. Target <= 2 ms.
 */

const run = promisify(execFile);
const dir = outputDir('bench-stt');
const THREADS = 2;
const AUDIO_CTX_PAD = 0;

const samples = {
  local: [] as number[],
  spawn: [] as number[],
  localFull: [] as number[],
  spawnFull: [] as number[],
  whisperNode: [] as number[],
  dgArrival: [] as number[],
  dgPipeline: [] as number[],
};
let whisper: WhisperEngine;
let cli: string;
let shortClip: Int16Array;
let command: Int16Array;
let shortWav: string;
let commandWav: string;
let dg: DeepgramDouble;
let cloud: DeepgramEngine;
let svc: Transcriber;
let bus: Bus;
let seg = 0;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]! : NaN;
};

beforeAll(async () => {
  cli = ensureWhisperCli();
  const speech = await espeakPhrase('turn on the kitchen lights please');
  shortClip = speech.subarray(0, 9600);
  command = speech.subarray(0, 24_000);
  shortWav = join(dir, 'short.wav');
  commandWav = join(dir, 'command.wav');
  await writeWavFile(shortWav, shortClip);
  await writeWavFile(commandWav, command);
  whisper = await WhisperEngine.load({
    modelPath: requireFile(TINY_MODEL),
    language: 'en',
    threads: THREADS,
    scaleAudioCtx: true,
    audioCtxPad: AUDIO_CTX_PAD,
    maxTokensPerSecond: 0,
    deadlineBaseMs: 600_000,
    deadlinePerSecondMs: 0,
    temperatureFallback: false,
    nativeLog: false,
    padShortClips: false,
    logger: createLogger({ level: 'error' }),
  });

  dg = await DeepgramDouble.start({ apiKey: 'bench' });
  bus = new Bus();
  const clock = new SystemClock();
  cloud = new DeepgramEngine({
    apiKey: 'bench',
    url: dg.url,
    model: 'nova-3',
    language: 'en',
    interimResults: true,
    utteranceEndMs: 1000,
    vadEvents: true,
    endpointingMs: 300,
    smartFormat: true,
    connectTimeoutMs: 3000,
    finalizeTimeoutMs: 3000,
    keepAliveMs: 4000,
    idleCloseMs: 60_000,
    reconnectInitialMs: 100,
    reconnectMaxMs: 1000,
    logger: createLogger({ level: 'error' }),
    clock,
  });
  svc = new Transcriber({
    engines: [{ id: 'deepgram', engine: cloud }],
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: { phrases: DEFAULT_HALLUCINATIONS },
    stabilizer: { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
    clock,
    logger: createLogger({ level: 'error' }),
    bus,
  });
  bus.on('asr.final', (f) => (lastFinalReceivedAt = f.receivedAt));
  bus.on('utterance.final', () => {
    const now = performance.now();
    const sent = dg.finalSentAt[dg.finalSentAt.length - 1]!;
    samples.dgArrival.push(now - sent);
    samples.dgPipeline.push(now - lastFinalReceivedAt);
  });
}, 600_000);
let lastFinalReceivedAt = 0;

afterAll(async () => {
  await whisper?.close();
  await cloud?.close();
  await dg?.close();
  const local = median(samples.local);
  const spawn = median(samples.spawn);
  console.log(
    [
      '',
      'stt benchmark summary (medians)',
      `  local Whisper, overhead beyond inference (0.6 s clip, whisper.cpp skips encode/decode): in-process ${local.toFixed(1)} ms vs spawn+reload ${spawn.toFixed(1)} ms  →  ratio ${(local / spawn).toFixed(3)} (target <= 0.2)`,
      `  local Whisper, 1.5 s command with inference (informational): in-process ${median(samples.localFull).toFixed(0)} ms vs spawn+reload ${median(samples.spawnFull).toFixed(0)} ms`,
      `  the same command against the whisper-node way (spawn, reload, full 30 s window): in-process ${median(samples.localFull).toFixed(0)} ms vs ${median(samples.whisperNode).toFixed(0)} ms  →  ratio ${(median(samples.localFull) / median(samples.whisperNode)).toFixed(3)} (target <= 0.2)`,
      `  Deepgram final message sent → utterance.final: median ${median(samples.dgArrival).toFixed(3)} ms, p95 ${p95(samples.dgArrival).toFixed(3)} ms (target <= 2 ms); of which after AsrEventSource stamped it: ${median(samples.dgPipeline).toFixed(3)} ms`,
      `  samples: local ${samples.local.length}, spawn ${samples.spawn.length}, deepgram ${samples.dgArrival.length}`,
    ].join('\n'),
  );
});

async function spawnMain(wav: string, audioCtx: number): Promise<void> {
  // whisper-node's shape: the clip is a file on disk, main reloads the model, stdout is the text.
  // audioCtx 0: whisper.cpp's default, the full 30 s window (what whisper-node runs).
  const ac = audioCtx > 0 ? ['-ac', String(audioCtx)] : [];
  await run(cli, ['-m', TINY_MODEL, '-f', wav, '-l', 'en', '-t', String(THREADS), '-bo', '1', '-bs', '1', '-nf', '-nt', ...ac, '-np'], { maxBuffer: 1 << 20 });
}

const timed = (into: number[], fn: () => Promise<unknown>) => async () => {
  const t0 = performance.now();
  await fn();
  into.push(performance.now() - t0);
};

describe('local Whisper: per-segment overhead beyond inference (0.6 s clip; whisper.cpp skips encode/decode)', () => {
  bench(
    'in-process (smart-whisper addon, model loaded once)',
    timed(samples.local, () => whisper.transcribe({ id: 's', pcm: shortClip })),
    { iterations: 30, time: 0, warmupIterations: 2 },
  );
  bench(
    'spawn whisper.cpp main per segment, model reloaded (whisper-node)',
    timed(samples.spawn, async () => {
      await writeWavFile(shortWav, shortClip);
      await spawnMain(shortWav, whisper.plan(shortClip.length).audioCtx);
    }),
    { iterations: 15, time: 0, warmupIterations: 1 },
  );
});

describe('local Whisper: a 1.5 s command with inference (informational)', () => {
  bench(
    'in-process',
    timed(samples.localFull, () => whisper.transcribe({ id: 'c', pcm: command })),
    { iterations: 3, time: 0, warmupIterations: 0 },
  );
  bench(
    'spawn + reload',
    timed(samples.spawnFull, async () => {
      await writeWavFile(commandWav, command);
      await spawnMain(commandWav, whisper.plan(command.length).audioCtx);
    }),
    { iterations: 3, time: 0, warmupIterations: 0 },
  );
  bench(
    'the whisper-node way: spawn + reload + the full 30 s window',
    timed(samples.whisperNode, async () => {
      await writeWavFile(commandWav, command);
      await spawnMain(commandWav, 0);
    }),
    { iterations: 3, time: 0, warmupIterations: 0 },
  );
});

describe('Deepgram: final message → utterance.final', () => {
  bench(
    'one segment through the real adapter, socket and builder (cloud-only)',
    async () => {
      dg.script = [{ text: 'Turn on the kitchen lights.' }];
      await svc.transcribe({ index: seg++, pcm: command, maxProb: 0.95 });
    },
    { iterations: 200, time: 0, warmupIterations: 10 },
  );
});
