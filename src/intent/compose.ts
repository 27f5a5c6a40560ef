import type { IntentSink } from '../command/actions/targets/intent.js';
import { packLanguage } from '../language/pack/english.js';
import { INTENT_TARGET } from '../command/actions/targets/intent.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { Classifier } from '../command/classifier.js';
import type { RouterConfig } from '../command/config.js';
import type { ActionsConfig } from '../command/actions/config.js';
import type { IntentConfig } from './config.js';
import { IntentPass, type IntentRecordStore } from './intent-pass.js';
import { MemoryListBook, StoreListBook, type ListBook, type ListStore } from '../command/lists.js';
import { OllamaClient } from './ollama-client.js';
import { routeFramesTo } from '../command/route-frames.js';
import type { ProposalModel } from './proposal-model.js';

/**
 * Everything the command core needs to run the intent pass, built from the config: the pass
 * (a CommandCore plugin), the router config with intent.frames' submissions routed to the
 * `intent` target, the target's wiring, and the `ollama` classifier for YAML rules. The daemon
 * and `hark simulate --ollama` both build it here, so what a technician simulates is what runs.
 * Why: docs/decisions.md#rules-first-the-model-only-for-what-no-rule-takes.
 */
export interface IntentRuntime {
  pass: IntentPass;
  router: RouterConfig;
  /** For buildTargets({ intent }). */
  target: { sink: IntentSink; fallbacks: Record<string, string> };
  /** For CommandCore({ classifiers }). */
  classifiers: Record<string, Classifier>;
  lists: ListBook;
}

/** The sections the intent pass reads: its own, the frames it is routed from, and which actions are forwarded. */
export interface IntentSections {
  intent: IntentConfig;
  router: RouterConfig;
  actions: Pick<ActionsConfig, 'forward'>;
  /** The device's languages: the pass's own words (its question's "Say yes or no.", "Cancelled.") are those of the language a request was said in, else the first's. */
  language?: { languages: readonly string[] };
}

export interface IntentRuntimeOptions {
  config: IntentSections;
  clock: Clock;
  log: Logger;
  /** The SQLite store: lists and intent records live there. Without one, lists are in memory. */
  store?: ListStore & IntentRecordStore;
  bus?: Bus;
  /** Override intent.host (`hark simulate --ollama URL`). */
  host?: string;
  /** Override the model adapter (never needed on the device; the client is built from config). */
  model?: ProposalModel;
  /** The router config to route from (config.router when omitted): Home Assistant's routing comes first. */
  router?: RouterConfig;
  /** A target that takes what the model cannot place among hark's intents (Home Assistant's agent), for frames routed to it. */
  handOverTo?: string;
}

/** The classifier name YAML rules use: {classifier: ollama, timeoutMs: 7000, do: [pop]}. */
export const INTENT_CLASSIFIER = 'ollama';

/**
 * Point each of `frames` at the intent target; returns the new frames and where each pointed before.
 * Their rules stay as they are: what hark's rules can do alone (timers, lists said the kitchen way:
 * "add eggs to the shopping list") never waits on, or depends on, the model. Only what
 * no rule takes reaches the model; both keep the same lists (one ListBook).
 */
export function routeToIntent(router: RouterConfig, frames: readonly string[]): { router: RouterConfig; fallbacks: Record<string, string> } {
  return routeFramesTo(router, frames, INTENT_TARGET);
}

export function createIntentRuntime(opts: IntentRuntimeOptions): IntentRuntime {
  const { config, clock } = opts;
  const c = config.intent;
  const model =
    opts.model ??
    new OllamaClient({
      host: opts.host ?? c.host,
      model: c.model,
      keepAlive: c.keepAlive,
      timeoutMs: c.timeoutMs,
      retries: c.retries,
      backoffMs: c.backoffMs,
      warmUpTimeoutMs: c.warmUpTimeoutMs,
    });
  const lists = opts.store ? new StoreListBook(opts.store) : new MemoryListBook();
  const { router, fallbacks } = routeToIntent(opts.router ?? config.router, c.frames);
  const handOverTo = opts.handOverTo;
  const pass = new IntentPass({
    config: c,
    model,
    ...(config.language?.languages[0] ? { language: packLanguage(config.language.languages[0]), languages: config.language.languages.map(packLanguage) } : {}),
    clock,
    lists,
    log: opts.log.child({ component: 'intent' }),
    ...(opts.store ? { store: opts.store } : {}),
    ...(opts.bus ? { bus: opts.bus } : {}),
    forwarded: (action) => (config.actions.forward[action]?.length ?? 0) > 0,
    ...(handOverTo ? { handOver: (frame: string | undefined) => frame !== undefined && fallbacks[frame] === handOverTo } : {}),
  });
  return { pass, router, target: { sink: pass, fallbacks }, classifiers: { [INTENT_CLASSIFIER]: pass }, lists };
}
