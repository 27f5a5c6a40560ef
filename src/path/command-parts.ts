import { basename, isAbsolute, resolve } from 'node:path';
import type { CommandsConfig } from './config.js';
import type { RouterConfig } from '../command/config.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { buildTargets } from '../command/actions/targets/index.js';
import type { ConversationSink } from '../command/actions/targets/home-assistant.js';
import type { Target } from '../command/actions/targets/target.js';
import { createIntentRuntime, type IntentRuntime } from '../intent/compose.js';
import { HA_TARGET } from '../command/actions/targets/home-assistant.js';
import type { Secrets } from '../core/secrets.js';
import { createHaConversation, routeToHa, type HaConversationRuntime } from '../ha/conversation/compose.js';
import { CommandCore } from '../command/core.js';
import { StoreTimerKeeper } from '../command/actions/timer-keeper.js';
import { MemoryListBook, StoreListBook } from '../command/lists.js';
import type { EffectSink } from '../core/effects.js';
import type { FramesSpec } from '../command/spec.js';
import { routerVocabulary } from '../command/vocabulary.js';
import type { Store } from '../store/store.js';

/** The command side of the daemon: the router with its targets, and the intent pass when enabled. */
export interface CommandParts {
  core: CommandCore;
  /** The local-model intent pass, when intent.enabled. */
  intent: IntentRuntime | null;
  /** Home Assistant's conversation agent, when ha.conversation.url is set (and, in a sandbox, asked for). */
  ha: HaConversationRuntime | null;
  /** The frames the router runs: the config's, with the intent pass's and Home Assistant's hand-overs. */
  frames: FramesSpec;
  /** Words the router listens for: Whisper's initial prompt (vocabulary biasing). */
  vocabulary: string[];
  /** Kitchen timers kept in the store; restoreTimers() brings them back at start. */
  timerKeeper: StoreTimerKeeper | null;
}

/**
 * `hark simulate` and `hark replay`: the same command side as the device, with no effect outside a
 * scratch directory. File targets write inside `dir`; webhooks and Home Assistant are reported, not
 * called, unless asked for; the intent pass runs only against a model named here.
 */
export interface CommandSandbox {
  dir: string;
  /** How a report of something not called says how to call it ("pass --live-webhooks", "replay"). */
  notCalled: { webhook: string; ha: string };
  liveWebhooks?: boolean;
  /** The intent pass against this Ollama; without it, no intent pass (a device whose model is absent). */
  ollama?: string;
  /** Really ask Home Assistant's conversation agent at this URL. */
  ha?: string;
}

/** At start, once speech is up: timers kept from before the restart run again (or ring, if due meanwhile). */
export function restoreTimers(c: CommandParts): void {
  if (c.timerKeeper) c.core.timers.restore(c.timerKeeper.load());
}

export interface BuildCommandPartsOptions {
  config: CommandsConfig;
  secrets?: Secrets;
  clock: Clock;
  log: Logger;
  bus: Bus;
  store: Store | null;
  voices?: readonly { id: string; say?: string[] }[];
  onEffect: EffectSink;
  sandbox?: CommandSandbox;
}

/** The one builder of the command core: the daemon, `hark simulate` and `hark replay` all call it. */
export function buildCommandParts(o: BuildCommandPartsOptions): CommandParts {
  const { config, clock, log, sandbox } = o;
  const ha = haRuntime(o);
  const haUrl = sandbox?.ha ?? config.ha.conversation.url;
  // In a sandbox without --ha, frames still go to Home Assistant's target, whose sink reports and does not call.
  const haRouting: { router: RouterConfig; fallbacks: Record<string, string> } | null = ha
    ? { router: ha.router, fallbacks: ha.target.fallbacks }
    : haUrl
      ? routeToHa(config.router, config.ha.conversation.frames)
      : null;
  const intentOn = sandbox ? sandbox.ollama !== undefined : config.intent.enabled;
  // The intent pass needs the store open (lists live there); without one its lists are in memory.
  const intent = intentOn
    ? createIntentRuntime({
        config,
        clock,
        log,
        bus: o.bus,
        ...(o.store ? { store: o.store } : {}),
        ...(sandbox?.ollama ? { host: sandbox.ollama } : {}),
        ...(haRouting ? { router: haRouting.router, handOverTo: HA_TARGET } : {}),
      })
    : null;
  const timerKeeper = o.store ? new StoreTimerKeeper(o.store.timers(), clock, log.child({ component: 'timers' })) : null;
  const router = intent?.router ?? haRouting?.router ?? config.router;
  const haSink: ConversationSink | null = ha?.agent ?? (haRouting && sandbox ? notCalledHa(haUrl!, sandbox.notCalled.ha) : null);
  const core = new CommandCore({
    clock,
    ...(timerKeeper ? { timerKeeper } : {}),
    ...(config.device.area ? { area: config.device.area } : {}),
    // Rules and the intent pass keep the same lists.
    lists: intent?.lists ?? (o.store ? new StoreListBook(o.store) : new MemoryListBook()),
    router,
    language: config.language,
    actions: config.actions,
    log: log.child({ component: 'router' }),
    ...(o.voices ? { voices: o.voices as never } : {}),
    ...(intent ? { classifiers: intent.classifiers } : {}),
    plugins: [...(intent ? [intent.pass] : []), ...(ha ? [ha.agent] : [])],
    onEffect: o.onEffect,
    targets: (emit) =>
      buildTargets(config.actions.targets, {
        dataDir: sandbox?.dir ?? config.actions.dataDir,
        emit,
        ...(sandbox ? { filePath: (p: string) => (isAbsolute(p) ? resolve(sandbox.dir, basename(p)) : resolve(sandbox.dir, p)) } : {}),
        ...(sandbox && !sandbox.liveWebhooks
          ? { webhook: (name: string, cfg: { url: string }) => notCalledWebhook(name, cfg.url, sandbox.notCalled.webhook) }
          : {}),
        ...(intent ? { intent: { ...intent.target, ...(ha ? { direct: () => ha.agent.awaitingAnswer } : {}) } } : {}),
        ...(haSink && haRouting ? { homeAssistant: { sink: haSink, fallbacks: haRouting.fallbacks } } : {}),
      }),
  });
  // Load the model now, so the first request does not pay for it. Never throws. (simulate awaits it itself.)
  if (intent && config.intent.warmUp && !sandbox) void intent.pass.warmUp();
  return { core, intent, ha, frames: router.frames, vocabulary: routerVocabulary(config.router.frames), timerKeeper };
}

/** Home Assistant's conversation agent: on the device when configured; in a sandbox only when asked for (--ha). */
function haRuntime(o: BuildCommandPartsOptions): HaConversationRuntime | null {
  const { config, clock, log, sandbox } = o;
  const secrets = o.secrets ?? {};
  if (!sandbox) return createHaConversation({ config, secrets, clock, log, ...(o.store ? { store: o.store } : {}) });
  return sandbox.ha !== undefined ? createHaConversation({ config, secrets, clock, log, url: sandbox.ha }) : null;
}

function notCalledWebhook(name: string, url: string, how: string): Target {
  return { name, type: 'webhook', describe: () => `webhook ${url} (not called; ${how})`, deliver: async () => `not called: ${url} (${how})` };
}

function notCalledHa(url: string, how: string): ConversationSink {
  return { describe: () => `Home Assistant ${url} (not called; ${how})`, converse: async () => `not called: ${url} (${how})`, declines: () => null };
}
