import { createServer } from 'node:net';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { IntentTarget, INTENT_TARGET } from '../../src/command/actions/targets/intent.js';
import type { Target } from '../../src/command/actions/targets/target.js';
import { CommandCore } from '../../src/command/core.js';
import type { Effect, TimedEffect } from '../../src/core/effects.js';
import { createIntentRuntime } from '../../src/intent/compose.js';
import type { Store } from '../../src/store/store.js';
import { MemoryTarget } from '../command/harness.js';

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
  const clock = new VirtualClock(0);
  const effects: TimedEffect[] = [];
  const log = memoryLogger();
  const raw = opts.config ?? {};
  const cfg = validateConfig({ ...raw, intent: { warmUp: false, ...(raw.intent as object), host: opts.host } }, 'test config');
  const rt = createIntentRuntime({ config: cfg, clock, log, ...(opts.store ? { store: opts.store } : {}) });
  const targets = new Map<string, Target>();
  const memory = new Map<string, MemoryTarget>();
  const core = new CommandCore({
    clock,
    router: rt.router,
    actions: cfg.actions,
    classifiers: rt.classifiers,
    // As the daemon composes it: the rules and the intent pass keep the same lists.
    lists: rt.lists,
    plugins: [rt.pass],
    log,
    onEffect: (e) => effects.push({ ...e, atMs: clock.now() }),
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
  let n = 0;
  const h = {
    clock,
    core,
    effects,
    log,
    pass: rt.pass,
    lists: rt.lists,
    /** The memory targets by name (file, inventory, speak). */
    memory,
    say(text: string, atMs?: number): void {
      clock.advanceTo(atMs ?? clock.now() + 1000);
      core.dispatch({ id: `u${++n}`, text, rawText: text, engine: 'text', atMs: clock.now() });
    },
    /** Wait for the router, deliveries and model calls (real time for those). */
    settle: () => core.idle(),
    /** Say each line a second apart, settling after each (what `hark simulate` does). */
    async script(...lines: string[]): Promise<void> {
      for (const l of lines) {
        h.say(l);
        await h.settle();
      }
    },
    /** "computer <text>", then "go": one request in wake-word mode. */
    async request(text: string): Promise<void> {
      await h.script(`computer ${text}`, 'go');
    },
    of<T extends Effect['type']>(type: T): Extract<TimedEffect, { type: T }>[] {
      return effects.filter((e) => e.type === type) as Extract<TimedEffect, { type: T }>[];
    },
    spoken: () => h.of('speak').map((e) => e.text),
    stack: () => core.router.stack,
    /** Log records as objects. */
    logs: () => log.lines.map((l) => JSON.parse(l) as Record<string, unknown> & { level: string; msg: string }),
    clear: () => {
      effects.length = 0;
    },
  };
  return h;
}

export type IntentHarness = ReturnType<typeof intentHarness>;

/** A 127.0.0.1 port nothing listens on (bound then released): "Ollama is not running". */
export async function closedPort(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
