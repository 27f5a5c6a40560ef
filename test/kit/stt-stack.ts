import type { Bus } from '../../src/core/bus.js';
import type { Clock } from '../../src/core/clock.js';
import type { Logger } from '../../src/core/log.js';
import type { SttConfig } from '../../src/stt/config.js';
import type { SttStack } from '../../src/stt/create.js';
import type { EngineSlot, SttEngine } from '../../src/stt/engine.js';
import { DEFAULT_HALLUCINATIONS } from '../../src/stt/hallucination-filter.js';
import { Transcriber } from '../../src/stt/transcriber.js';

/**
 * The real transcriber (fallback order, breakers, hallucination filter, stabiliser) over the kit's
 * engines, as the daemon's speech-to-text stack: what the segment path and its stages are given.
 */
export function sttStack(o: {
  engines: readonly (SttEngine | EngineSlot)[];
  clock: Clock;
  bus: Bus;
  log: Logger;
  breakerFailures?: number;
  config?: Pick<SttConfig, 'filter' | 'stabilizer'>;
}): SttStack {
  const engines: EngineSlot[] = o.engines.map((e) => ('engine' in e ? e : { id: e.id, engine: e }));
  const transcriber = new Transcriber({
    engines,
    clearSpeechProb: 0.8,
    breaker: { failures: o.breakerFailures ?? 3, openMs: 30_000 },
    filter: o.config?.filter ?? { phrases: DEFAULT_HALLUCINATIONS },
    stabilizer: o.config?.stabilizer ?? { windowSize: 3, minConfidence: 0.6, requireRepetition: true },
    clock: o.clock,
    logger: o.log,
    bus: o.bus,
  });
  return { transcriber, engines, describe: 'test', setVocabulary: () => {}, close: async () => {} };
}
