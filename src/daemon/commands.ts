import type { HarkConfig } from '../config/schema.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { buildTargets } from '../actions/targets/index.js';
import { createIntentRuntime, type IntentRuntime } from '../intent/compose.js';
import { HA_TARGET } from '../actions/targets/home-assistant.js';
import type { Secrets } from '../config/load.js';
import { createHaConversation, type HaConversationRuntime } from '../ha/conversation/compose.js';
import { CommandCore } from '../router/command-core.js';
import { StoreTimerKeeper } from '../actions/timer-keeper.js';
import { MemoryListBook, StoreListBook } from '../kitchen/lists.js';
import type { EffectSink } from '../router/effects.js';
import { routerVocabulary } from '../router/vocabulary.js';
import type { Store } from '../store/store.js';

/** The command side of the daemon: the router with its targets, and the intent pass when enabled. */
export interface Commands {
  core: CommandCore;
  /** The local-model intent pass (seed 004), when intent.enabled. */
  intent: IntentRuntime | null;
  /** Home Assistant's conversation agent, when ha.conversation.url is set. */
  ha: HaConversationRuntime | null;
  /** Words the router listens for: Whisper's initial prompt (vocabulary biasing). */
  vocabulary: string[];
  /** Kitchen timers kept in the store; restoreTimers() brings them back at start. */
  timerKeeper: StoreTimerKeeper | null;
}

/** At start, once speech is up: timers kept from before the restart run again (or ring, if due meanwhile). */
export function restoreTimers(c: Commands): void {
  if (c.timerKeeper) c.core.timers.restore(c.timerKeeper.load());
}

export function buildCommands(o: { config: HarkConfig; secrets?: Secrets; clock: Clock; log: Logger; bus: Bus; store: Store | null; voices?: readonly { id: string; say?: string[] }[]; onEffect: EffectSink }): Commands {
  const { config, clock, log } = o;
  // Home Assistant takes what hark's rules leave; the intent pass, when on, is asked before it.
  const ha = createHaConversation({ config, secrets: o.secrets ?? {}, clock, log, ...(o.store ? { store: o.store } : {}) });
  // The intent pass needs the store open (lists live there); without one its lists are in memory.
  const intent = config.intent.enabled
    ? createIntentRuntime({ config, clock, log, bus: o.bus, ...(o.store ? { store: o.store } : {}), ...(ha ? { router: ha.router, handOverTo: HA_TARGET } : {}) })
    : null;
  const timerKeeper = o.store ? new StoreTimerKeeper(o.store.timers(), clock, log.child({ component: 'timers' })) : null;
  const core = new CommandCore({
    clock,
    ...(timerKeeper ? { timerKeeper } : {}),
    ...(config.device.area ? { area: config.device.area } : {}),
    // Rules and the intent pass keep the same lists.
    lists: intent?.lists ?? (o.store ? new StoreListBook(o.store) : new MemoryListBook()),
    router: intent?.router ?? ha?.router ?? config.router,
    language: config.language,
    actions: config.actions,
    log: log.child({ component: 'router' }),
    ...(o.voices ? { voices: o.voices as never } : {}),
    ...(intent ? { classifiers: intent.classifiers } : {}),
    plugins: [...(intent ? [intent.pass] : []), ...(ha ? [ha.agent] : [])],
    onEffect: o.onEffect,
    targets: (emit) =>
      buildTargets(config.actions.targets, {
        dataDir: config.actions.dataDir,
        emit,
        ...(intent ? { intent: { ...intent.target, ...(ha ? { direct: () => ha.agent.awaitingAnswer } : {}) } } : {}),
        ...(ha ? { homeAssistant: ha.target } : {}),
      }),
  });
  // Load the model now, so the first request does not pay for it. Never throws.
  if (intent && config.intent.warmUp) void intent.pass.warmUp();
  return { core, intent, ha, vocabulary: routerVocabulary(config.router.frames), timerKeeper };
}
