import type { Clock } from '../core/clock.js';
import type { EffectSink } from '../core/effects.js';
import type { Logger } from '../core/log.js';
import type { LanguageConfig } from '../language/config.js';
import type { ActionRouter } from './actions/action-router.js';
import type { ActionsConfig } from './actions/config.js';
import type { Target } from './actions/targets/target.js';
import type { TimerKeeper } from './actions/timers.js';
import type { Classifier } from './classifier.js';
import type { RouterConfig } from './config.js';
import type { ListBook } from './lists.js';
import type { CommandRouter } from './router.js';
import type { VoiceSpec } from './spec.js';

export interface CommandCoreOptions {
  clock: Clock;
  router: RouterConfig;
  actions: ActionsConfig;
  /** Builds the targets; given the core's own sink so a speak target can talk. */
  targets?: (emit: EffectSink) => ReadonlyMap<string, Target>;
  classifiers?: Record<string, Classifier>;
  /** Voices the speech engine has (overrides router.voices). */
  voices?: readonly VoiceSpec[];
  log?: Logger;
  /** Everything that leaves the core: speech, earcons, fired actions, stack changes, ... */
  onEffect: EffectSink;
  /** Parts that ride on the core (the intent pass): attached once the router exists. */
  plugins?: readonly CorePlugin[];
  /** Where lists live (the store on the appliance; the intent pass shares it). Memory if omitted. */
  lists?: ListBook;
  /** Where timers are kept across restarts (the store). */
  timerKeeper?: TimerKeeper;
  /** This device's room (device.area). */
  area?: string;
  /** The kitchen language's section (extra templates, replies); the built-in language if omitted. */
  language?: LanguageConfig;
}

/** What a plugin gets: the router (to ask yes/no), the action router (to act) and the core's sink. */
export interface CoreHost {
  readonly clock: Clock;
  readonly router: CommandRouter;
  readonly actions: ActionRouter;
  emit: EffectSink;
}

/** Something that works beside the router, asynchronously, and must be waited for by idle(). */
export interface CorePlugin {
  attach(host: CoreHost): void;
  readonly busy: boolean;
  idle(): Promise<void>;
  dispose(): void;
}
