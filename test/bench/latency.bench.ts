import { bench, describe } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/load.js';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/log.js';
import { SegmentPath } from '../../src/path/segment-path.js';
import { Conversation } from '../../src/path/conversation.js';
import { Store } from '../../src/store/store.js';
import { createStt, type SttStack } from '../../src/stt/create.js';
import { createVad } from '../../src/vad/create.js';
import { segmenterOptions } from '../../src/vad/options.js';
import { SegmentPipeline } from '../../src/vad/pipeline.js';
import type { Vad } from '../../src/vad/vad.js';
import { DeepgramDouble } from '../support/deepgram-server.js';
import { outputDir } from '../support/paths.js';
import { espeakPhrase } from '../support/speech.js';

/**
 * hark's own overhead from the end of speech to the action: the real Silero VAD, segmenter, STT
 * service (Deepgram adapter against the protocol double on loopback), utterance builder, command
 * router, action router and SQLite store, in one process, as the daemon wires them.
 *
 *   (a) push-to-talk: the release is the end of speech; t0 = the release.
 *   (b) VAD close: the segment closes on the frame that completes the hangover; t0 = that frame's
 *       arrival. (End of speech to that frame is the configured hangover, 600 ms, plus at most one
 *       32 ms frame: a setting, not overhead.)
 * overhead = (action event − t0) − the STT time the service measured for the segment.
 * Target: ≤ 20 ms p50. Each bench iteration is one spoken command.
 */
const PHRASE = 'computer, set a timer for ten minutes';
const F = 512;

let deepgram: DeepgramDouble;
let stt: SttStack;
let conversation: SegmentPath;
let pipeline: SegmentPipeline;
let vad: Vad;
let store: Store;
let speech: Int16Array;
const bus = new Bus();
const samples: Record<'ptt' | 'vad', number[]> = { ptt: [], vad: [] };
let lastSttMs = 0;
let onAction: (() => void) | null = null;
let onClose: (() => void) | null = null;

function frames(pcm: Int16Array): Int16Array[] {
  const out: Int16Array[] = [];
  for (let i = 0; i + F <= pcm.length; i += F) out.push(pcm.subarray(i, i + F));
  return out;
}
const silence = new Int16Array(F);

async function pushAll(list: Int16Array[]): Promise<void> {
  for (const f of list) await pipeline.push(f);
}

function waitAction(): Promise<number> {
  return new Promise((resolve) => (onAction = () => resolve(performance.now())));
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

// vitest bench runs no beforeAll/afterAll: set up once at load, report after every iteration.
const dir = outputDir('bench-latency');
rmSync(dir, { recursive: true, force: true });
const config = validateConfig({ stt: { mode: 'cloud-only' }, actions: { dataDir: dir }, store: { path: join(dir, 'hark.db') } }, 'bench');
deepgram = await DeepgramDouble.start({ apiKey: 'bench' });
const log = createLogger({ level: 'error' });
const clock = new SystemClock();
stt = await createStt({ config: config.stt, secrets: { deepgramApiKey: 'bench' }, bus, logger: log, clock, deepgramUrl: deepgram.url });
store = new Store({ path: config.store.path, housekeeping: null });
conversation = new SegmentPath({
  config,
  bus,
  clock,
  log,
  stt,
  speech: null,
  conversation: new Conversation({ config, bus, clock, log, store, speech: null }),
  store: () => store,
  source: 'mic',
});
vad = await createVad(config.vad);
pipeline = new SegmentPipeline({ vad, segmenter: segmenterOptions(config.vad) });
pipeline.on('open', (e) => conversation.opened(e));
pipeline.on('audio', (f) => conversation.audio(f));
pipeline.on('segment', (s) => {
  onClose?.();
  void conversation.closed(s);
});
pipeline.on('dropped', (d) => conversation.dropped(d.startSample));
bus.on('segment.handled', (h) => (lastSttMs = h.sttMs));
bus.on('router.effect', (e) => {
  if (e.type === 'action' && e.name === 'timer.set') onAction?.();
});
speech = await espeakPhrase(PHRASE);

function report(): void {
  const line = (k: 'ptt' | 'vad') =>
    samples[k].length === 0
      ? ''
      : `${k === 'ptt' ? '(a) push-to-talk release' : '(b) VAD close'} -> action, STT subtracted: p50 ${pct(samples[k], 50).toFixed(2)} ms, p95 ${pct(samples[k], 95).toFixed(2)} ms, n=${samples[k].length}`;
  writeFileSync(join(outputDir('bench-results'), 'latency.txt'), [line('ptt'), line('vad')].filter(Boolean).join('\n') + '\n');
}

describe('end of speech to action', () => {
  bench(
    '(a) push-to-talk: release → timer.set',
    async () => {
      deepgram.script = [{ text: PHRASE }];
      await pushAll(frames(new Int16Array(F * 4)));
      await pipeline.pttDown();
      await pushAll(frames(speech));
      const acted = waitAction();
      const t0 = performance.now();
      await pipeline.pttUp();
      const t1 = await acted;
      await conversation.idle();
      samples.ptt.push(t1 - t0 - lastSttMs);
      report();
    },
    { iterations: 25, warmupIterations: 2, time: 0 },
  );

  bench(
    '(b) VAD: closing frame → timer.set',
    async () => {
      deepgram.script = [{ text: PHRASE }];
      await pushAll(frames(new Int16Array(F * 16)));
      await pushAll(frames(speech));
      let closed = false;
      onClose = () => (closed = true);
      const acted = waitAction();
      let t0 = 0;
      for (let i = 0; i < 200 && !closed; i++) {
        t0 = performance.now();
        await pipeline.push(silence);
      }
      onClose = null;
      const t1 = await acted;
      await conversation.idle();
      samples.vad.push(t1 - t0 - lastSttMs);
      report();
    },
    { iterations: 25, warmupIterations: 2, time: 0 },
  );
});
