import { loadavg } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, bench, describe } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { WhisperEngine, type WhisperEngineOptions } from '../../src/stt/whisper/engine.js';
import { requireFile, SHARED } from '../support/paths.js';
import { espeakPhrase } from '../support/speech.js';

/**
 * What language detection costs on one segment, same model, same clip, same params: one language
 * forced (no detection), `auto` over all of Whisper's languages, and `auto` restricted to the
 * device's [es, de]. Restricted and unrestricted run the same detection (one encoder pass over the
 * first window and one decoder step) and differ only in which probability is taken, so they should
 * cost the same; forced is the floor. The multilingual test model has no weights but runs every
 * layer, so the times are real inference times for tiny (not its accuracy). The three run in turn
 * within each round, in a rotating order, so load from other work on the machine falls on all alike.
 */

const MULTI_MODEL = join(SHARED, 'models', 'for-tests-ggml-tiny.bin');
const logger = createLogger({ level: 'error', json: true, sink: () => {} });
const opts = (over: Partial<WhisperEngineOptions>): WhisperEngineOptions => ({
  modelPath: requireFile(MULTI_MODEL),
  language: 'auto',
  languages: [],
  threads: 2,
  scaleAudioCtx: true,
  audioCtxPad: 64,
  maxTokensPerSecond: 6,
  deadlineBaseMs: 600_000,
  deadlinePerSecondMs: 0,
  temperatureFallback: false,
  nativeLog: false,
  logger,
  ...over,
});

const engines: Record<'forced' | 'any' | 'restricted', WhisperEngine | null> = { forced: null, any: null, restricted: null };
const samples: Record<keyof typeof engines, number[]> = { forced: [], any: [], restricted: [] };
let clip: Int16Array;
let load0: number[];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : NaN;
};

beforeAll(async () => {
  clip = await espeakPhrase('enciende la luz de la cocina', 'es');
  engines.forced = await WhisperEngine.load(opts({ language: 'es', languages: ['es'] }));
  engines.any = await WhisperEngine.load(opts({}));
  engines.restricted = await WhisperEngine.load(opts({ languages: ['es', 'de'] }));
  load0 = loadavg();
}, 120_000);

afterAll(async () => {
  const load1 = loadavg();
  const row = (k: keyof typeof engines) => `${k.padEnd(10)} median ${Math.round(median(samples[k]))} ms (${samples[k].map(Math.round).join(', ')})`;
  console.log(
    [
      `whisper language detection, one ${(clip.length / 16_000).toFixed(2)} s segment, tiny (test model), 2 threads`,
      row('forced'),
      row('any'),
      row('restricted'),
      `restricted - any: ${Math.round(median(samples.restricted) - median(samples.any))} ms; detection (any - forced): ${Math.round(median(samples.any) - median(samples.forced))} ms`,
      `load average before ${load0.map((l) => l.toFixed(2)).join(' ')}, after ${load1.map((l) => l.toFixed(2)).join(' ')}`,
    ].join('\n'),
  );
  for (const e of Object.values(engines)) await e?.close();
});

const ORDER = ['forced', 'any', 'restricted'] as const;
let round = 0;
const oneRound = async () => {
  for (let i = 0; i < ORDER.length; i++) {
    const k = ORDER[(round + i) % ORDER.length]!;
    const t = await engines[k]!.transcribe({ id: k, pcm: clip });
    if (round > 0) samples[k].push(t.ms); // round 0 warms up
  }
  round++;
};

describe("one segment: language forced, auto, auto restricted to the device's", () => {
  bench('one round: forced (es), auto over any language, auto restricted to [es, de]', oneRound, { iterations: 9, time: 0, warmupIterations: 1 });
});
