import type { HarkConfig } from '../config/schema.js';
import type { Bus } from '../core/bus.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import { buildTargets } from '../actions/targets/index.js';
import { createIntentRuntime, type IntentRuntime } from '../intent/compose.js';
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
  /** Words the router listens for: Whisper's initial prompt (vocabulary biasing). */
  vocabulary: string[];
  /** Kitchen timers kept in the store; restoreTimers() brings them back at start. */
  timerKeeper: StoreTimerKeeper | null;
}

/** At start, once speech is up: timers kept from before the restart run again (or ring, if due meanwhile). */
export function restoreTimers(c: Commands): void {
  if (c.timerKeeper) c.core.timers.restore(c.timerKeeper.load());
}

export function buildCommands(o: { config: HarkConfig; clock: Clock; log: Logger; bus: Bus; store: Store | null; voices?: readonly { id: string; say?: string[] }[]; onEffect: EffectSink }): Commands {
  const { config, clock, log } = o;
  // The intent pass needs the store open (lists live there); without one its lists are in memory.
  const intent = config.intent.enabled ? createIntentRuntime({ config, clock, log, bus: o.bus, ...(o.store ? { store: o.store } : {}) }) : null;
  const timerKeeper = o.store ? new StoreTimerKeeper(o.store.timers(), clock, log.child({ component: 'timers' })) : null;
  const core = new CommandCore({
    clock,
    ...(timerKeeper ? { timerKeeper } : {}),
    ...(config.device.area ? { area: config.device.area } : {}),
    // Rules and the intent pass keep the same lists.
    lists: intent?.lists ?? (o.store ? new StoreListBook(o.store) : new MemoryListBook()),
    router: intent?.router ?? config.router,
    actions: config.actions,
    log: log.child({ component: 'router' }),
    ...(o.voices ? { voices: o.voices as never } : {}),
    ...(intent ? { classifiers: intent.classifiers, plugins: [intent.pass] } : {}),
    onEffect: o.onEffect,
    targets: (emit) => buildTargets(config.actions.targets, { dataDir: config.actions.dataDir, emit, ...(intent ? { intent: intent.target } : {}) }),
  });
  // Load the model now, so the first request does not pay for it. Never throws.
  if (intent && config.intent.warmUp) void intent.pass.warmUp();
  return { core, intent, vocabulary: routerVocabulary(config.router.frames), timerKeeper };
}
