import type { Bus } from '../core/bus.js';
import { SystemClock, type Clock } from '../core/clock.js';
import { HarkError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Secrets } from '../core/secrets.js';
import type { SttConfig } from './config.js';
import type { EngineSlot, SttEngine } from './engine.js';
import { ENGINES } from './engines/registry.js';
import { engineOrder, type SttMode } from './fallback-policy.js';
import { Transcriber } from './transcriber.js';
import { buildPrompt } from './whisper/params.js';
import { packLanguage } from '../language/pack/english.js';

export interface CreateSttOptions {
  config: SttConfig;
  secrets: Secrets;
  bus: Bus;
  logger: Logger;
  clock?: Clock;
  /** Command-line overrides (hark transcribe, run, replay). */
  mode?: SttMode;
  modelPath?: string;
  deepgramUrl?: string;
  /** The languages the device hears (language.languages); English alone when not given. */
  languages?: readonly string[];
}

/** What the composition root holds: the transcriber it feeds segments to, and the engines it shuts down. */
export interface SttStack {
  transcriber: Transcriber;
  /** The engines in the order they are asked, each built or missing. */
  engines: readonly EngineSlot[];
  /** The order in a word, for summaries: the mode ("cloud-only"), or the explicit list ("deepgram, whisper"). */
  describe: string;
  /** The words the router is listening for: Whisper's initial prompt is built from them. */
  setVocabulary(words: readonly string[]): void;
  close(): Promise<void>;
}

/**
 * Build speech-to-text from the config: each engine the mode (or stt.engines) names, in order, from
 * the registry. A missing or broken Whisper model, a first engine that cannot be had (a cloud mode
 * without a key) or an unknown engine name is a HarkError at start, not a surprise on the first command.
 */
export async function createStt(o: CreateSttOptions): Promise<SttStack> {
  const cfg = o.config;
  const mode = o.mode ?? cfg.mode;
  const clock = o.clock ?? new SystemClock();
  // A mode given on the command line wins over the config's explicit list.
  const order = engineOrder(mode, o.mode ? [] : cfg.engines);
  let vocabulary: readonly string[] = [];
  const prompt = () => buildPrompt(cfg.whisper.initialPrompt, cfg.whisper.vocabularyPrompt ? vocabulary : []);
  const overrides = { ...(o.modelPath ? { modelPath: o.modelPath } : {}), ...(o.deepgramUrl ? { deepgramUrl: o.deepgramUrl } : {}) };

  const label = describe(mode, cfg.engines, o.mode);
  const engines: EngineSlot[] = [];
  try {
    for (const [i, id] of order.entries()) {
      const factory = ENGINES[id];
      if (!factory) throw new HarkError(`stt.engines: unknown engine "${id}" (known: ${Object.keys(ENGINES).join(', ')})`, { exitCode: 2 });
      const built = await factory({ config: cfg, secrets: o.secrets, logger: o.logger, clock, prompt, overrides, languages: o.languages ?? ['en'] });
      if ('missing' in built) {
        if (i === 0) throw new HarkError(`${label} needs ${built.needs} (or use stt.mode local-only)`, { exitCode: 2 });
        engines.push({ id, engine: null, missing: built.missing });
      } else engines.push({ id, engine: built });
    }
  } catch (err) {
    await Promise.all(engines.map((s) => s.engine?.close()));
    throw err;
  }

  const transcriber = new Transcriber({
    engines,
    clearSpeechProb: cfg.clearSpeechProb,
    breaker: cfg.breaker,
    // Whisper's inventions differ by language: each of the device's packs names its own.
    filter: { ...cfg.filter, byLanguage: Object.fromEntries((o.languages ?? ['en']).map((code) => [code, packLanguage(code).pack.words.hallucinations])) },
    stabilizer: cfg.stabilizer,
    clock,
    logger: o.logger.child({ component: 'stt' }),
    bus: o.bus,
  });

  return {
    transcriber,
    engines,
    describe: o.mode || cfg.engines.length === 0 ? mode : order.join(', '),
    setVocabulary(words) {
      vocabulary = [...words];
    },
    async close() {
      for (const s of engines) await s.engine?.close();
    },
  };
}

function describe(mode: SttMode, explicit: readonly string[], override: SttMode | undefined): string {
  return !override && explicit.length > 0 ? `stt.engines: ${explicit.join(', ')}` : `stt.mode ${mode}`;
}

/** An engine of the stack by id, when built (benchmarks, tests, `hark doctor`). */
export function engineOf<T extends SttEngine>(stack: SttStack, id: string): T | null {
  return (stack.engines.find((s) => s.id === id)?.engine as T | undefined) ?? null;
}
