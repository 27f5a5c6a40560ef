import { validateConfig } from '../../src/config/load.js';
import { IntentTarget, INTENT_TARGET } from '../../src/command/actions/targets/intent.js';
import type { Target } from '../../src/command/actions/targets/target.js';
import { CommandCore } from '../../src/command/core.js';
import { createIntentRuntime } from '../../src/intent/compose.js';
import type { Store } from '../../src/store/store.js';
import { MemoryTarget, coreDriver, coreParts } from '../command/harness.js';

export interface IntentHarnessOptions {
  /** Ollama's URL (the double's). */
  host: string;
  /** Raw config as from YAML; intent.host is set to `host`. */
  config?: Record<string, unknown>;
  store?: Store;
}

/**
 * The command core with the intent pass, as the daemon composes it, on a virtual clock, with
 * memory targets for everything but the intent target. The model calls are real HTTP (to the
 * double), so `settle()` waits on real time for them; everything else moves only with the clock.
 */
export function intentHarness(opts: IntentHarnessOptions) {
  const parts = coreParts();
  const { clock, log } = parts;
  const raw = opts.config ?? {};
  const cfg = validateConfig({ ...raw, intent: { warmUp: false, ...(raw.intent as object), host: opts.host } }, 'test config');
  const rt = createIntentRuntime({ config: cfg, clock, log, ...(opts.store ? { store: opts.store } : {}) });
  const targets = new Map<string, Target>();
  const memory = new Map<string, MemoryTarget>();
  const core = new CommandCore({
    clock,
    router: rt.router,
    actions: cfg.actions,
    language: cfg.language,
    classifiers: rt.classifiers,
    // As the daemon composes it: the rules and the intent pass keep the same lists.
    lists: rt.lists,
    plugins: [rt.pass],
    log,
    onEffect: parts.onEffect,
    targets: () => {
      for (const name of Object.keys(cfg.actions.targets)) {
        const t = new MemoryTarget(name);
        memory.set(name, t);
        targets.set(name, t);
      }
      targets.set(INTENT_TARGET, new IntentTarget(INTENT_TARGET, rt.target.sink, (f) => (f ? targets.get(rt.target.fallbacks[f] ?? '') : undefined)));
      return targets;
    },
  });
  return {
    // Each line a second after the last, as `hark simulate` reads them.
    ...coreDriver({ ...parts, core }, { step: 1000 }),
    pass: rt.pass,
    lists: rt.lists,
    /** The memory targets by name (file, inventory, speak). */
    memory,
  };
}

export type IntentHarness = ReturnType<typeof intentHarness>;
