import { bench, describe } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateConfig } from '../../src/config/load.js';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/log.js';
import { SegmentPath } from '../../src/path/segment-path.js';
import { Conversation } from '../../src/path/conversation.js';
import { EspeakTts } from '../../src/speech/espeak.js';
import type { SttStack } from '../../src/stt/create.js';
import type { EngineSlot } from '../../src/stt/engine.js';
import { Transcriber } from '../../src/stt/transcriber.js';
import type { Segment } from '../../src/vad/segment.js';
import { OllamaDouble } from '../support/ollama-server.js';
import { outputDir } from '../support/paths.js';
import { testSpeech } from '../kit/speech.js';
import { ScriptedEngine } from '../kit/stt.js';

/**
 * End of speech → the model's spoken proposal ("Add three cases of milk to the order
 * list? Say yes or no." rendered and ready to play), wake-word mode, on the real clock. The segment
 * path, router, intent pass, Ollama client (to the protocol double on loopback, answering after
 * HARK_BENCH_MODEL_MS, default 400 ms: a small model on a Pi 5) and espeak-ng (real, cached) are the
 * appliance's; speech-to-text is a scripted engine (not what is measured) and the segment closes on
 * a push-to-talk release, so its close is the end of speech.
 *
 *   before: no cascade for the request (as before the cascade prepared proposals): the query's 4 s silence, then the model.
 *   after:  the cascade: the model at 0.5 s, the question rendered at 1.5 s, handed over at 2 s.
 */
const MODEL_MS = Number(process.env.HARK_BENCH_MODEL_MS ?? 400);
const SAID = 'computer add three cases of milk to the order list';

const ollama = await new OllamaDouble({ delayMs: MODEL_MS }).start();
ollama.on('three cases of milk', { verb: 'add_to_list', object: '3 cases of milk' });
const tts = new EspeakTts({ voice: 'en-us', speed: 160, volume: 100 });
const samples: Record<'before' | 'after', number[]> = { before: [], after: [] };

function build(withCascade: boolean) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hark-bench-proposal-'));
  const config = validateConfig({ speech: { device: 'null' }, actions: { dataDir }, intent: { host: ollama.url, warmUp: false } }, 'bench');
  const clock = new SystemClock();
  const bus = new Bus();
  const log = createLogger({ level: 'error' });
  const engines: EngineSlot[] = [{ id: 'whisper', engine: new ScriptedEngine({ script: [{ raw: SAID, ms: 1 }] }) }];
  const transcriber = new Transcriber({
    engines,
    clearSpeechProb: 0.8,
    breaker: { failures: 3, openMs: 30_000 },
    filter: config.stt.filter,
    stabilizer: config.stt.stabilizer,
    clock,
    logger: log,
    bus,
  });
  const stt: SttStack = { transcriber, engines, describe: 'bench', setVocabulary: () => {}, close: async () => {} };
  let ready: ((text: string) => void) | null = null;
  // The speaker: a line is "spoken" once espeak-ng has its audio (rendered now, or from the cache the cascade filled).
  const voice = testSpeech({ clock, bus, tts });
  voice.output.onPlay = (item) => void (item.kind === 'speech' && tts.render(item.text).then(() => ready?.(item.text)));
  const { speech } = voice;
  // The appliance's command side; without the cascade, answers are said at once (the baseline).
  const conversation = new Conversation({ config, bus, clock, log, store: null, speech, noCascade: !withCascade });
  const path: SegmentPath | null = new SegmentPath({ config, bus, clock, log, stt, speech, conversation, store: () => null, source: 'mic' });
  let index = 0;
  return {
    /** One request, from the release of the button to its question being ready to play (ms). */
    async once(): Promise<number> {
      const startSample = index * 48_000;
      path!.opened({ startSample, pcm: new Int16Array(8000) });
      const spoken = new Promise<void>((r) => (ready = (text) => text.startsWith('Add') && r()));
      const seg: Segment = {
        index: index++,
        pcm: new Int16Array(32_000),
        prerollSamples: 8000,
        startSample,
        vadStartSample: startSample + 8000,
        endSample: startSample + 32_000,
        closeReason: 'ptt-release',
        maxProb: 0.95,
        openedBy: 'ptt',
      };
      const t0 = performance.now();
      void path!.closed(seg);
      await spoken;
      const ms = performance.now() - t0;
      // Back to the base frame for the next request (a hard abort: nothing answered).
      await path!.idle();
      path!.commands.core.router.abort();
      return ms;
    },
  };
}

const before = build(false);
const after = build(true);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}
function report(): void {
  const line = (k: 'before' | 'after') =>
    samples[k].length
      ? `${k}: end of speech -> spoken proposal p50 ${pct(samples[k], 50).toFixed(0)} ms, max ${Math.max(...samples[k]).toFixed(0)} ms, n=${samples[k].length} (model ${MODEL_MS} ms)`
      : '';
  writeFileSync(join(outputDir('bench-results'), 'proposal-latency.txt'), [line('before'), line('after')].filter(Boolean).join('\n') + '\n');
}

describe('end of speech → the model’s spoken proposal', () => {
  bench(
    'before: the query’s 4 s silence, then the model',
    async () => {
      samples.before.push(await before.once());
      report();
    },
    { iterations: 4, warmupIterations: 1, time: 0 },
  );

  bench(
    'after: the cascade (model at 0.5 s, rendered at 1.5 s, said at 2 s)',
    async () => {
      samples.after.push(await after.once());
      report();
    },
    { iterations: 4, warmupIterations: 1, time: 0 },
  );
});
