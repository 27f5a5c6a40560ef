import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { CommandCore } from '../../src/command/core.js';
import type { Classifier } from '../../src/command/classifier.js';
import type { Effect, TimedEffect } from '../../src/core/effects.js';
import type { VoiceSpec } from '../../src/command/spec.js';
import type { Delivery, Target } from '../../src/command/actions/targets/target.js';

/** A target that keeps what it was given. */
export class MemoryTarget implements Target {
  readonly type = 'memory';
  readonly got: Delivery[] = [];
  constructor(readonly name: string) {}
  describe(): string {
    return `memory ${this.name}`;
  }
  async deliver(d: Delivery): Promise<string | undefined> {
    this.got.push(d);
    return undefined;
  }
}

export interface HarnessOptions {
  /** Raw config, as it would come from YAML (validated like a file). */
  config?: Record<string, unknown>;
  classifiers?: Record<string, Classifier>;
  voices?: VoiceSpec[];
}

/**
 * The whole command core on a virtual clock, with memory targets: say() an utterance, look at the
 * effects that came out. Never sleeps; time moves with clock.advanceTo/advanceBy.
 */
export function harness(opts: HarnessOptions = {}) {
  const clock = new VirtualClock(0);
  const effects: TimedEffect[] = [];
  const log = memoryLogger();
  const cfg = validateConfig(opts.config ?? {}, 'test config');
  const targets = new Map<string, MemoryTarget>();
  const core = new CommandCore({
    clock,
    router: cfg.router,
    actions: cfg.actions,
    log,
    onEffect: (e) => effects.push({ ...e, atMs: clock.now() }),
    ...(cfg.device.area ? { area: cfg.device.area } : {}),
    ...(opts.classifiers ? { classifiers: opts.classifiers } : {}),
    ...(opts.voices ? { voices: opts.voices } : {}),
    targets: () => {
      for (const name of Object.keys(cfg.actions.targets)) targets.set(name, new MemoryTarget(name));
      return targets;
    },
  });
  let n = 0;
  const h = {
    clock,
    core,
    effects,
    log,
    targets,
    /** Dispatch one utterance now (or at atMs, advancing the clock first). */
    say(text: string, atMs?: number): void {
      if (atMs !== undefined) clock.advanceTo(atMs);
      core.dispatch({ id: `u${++n}`, text, rawText: text, engine: 'text', atMs: clock.now() });
    },
    /** Say each in turn, one second apart. */
    sayAll(...texts: string[]): void {
      for (const t of texts) h.say(t, clock.now() + 1000);
    },
    /** A button tap, as the daemon hands it over: true when the top frame took it. */
    tap: (): boolean => core.router.button('tap'),
    stack: () => core.router.stack,
    /** Effects of one type since the start (or since the last clear). */
    of<T extends Effect['type']>(type: T): Extract<TimedEffect, { type: T }>[] {
      return effects.filter((e) => e.type === type) as Extract<TimedEffect, { type: T }>[];
    },
    spoken: () => h.of('speak').map((e) => e.text),
    actions: () => h.of('action').map((e) => ({ name: e.name, args: e.args })),
    ignored: () => h.of('ignored').map((e) => ({ frame: e.frame, text: e.text })),
    submits: () => h.of('submit').map((e) => ({ frame: e.frame, target: e.target, text: e.text })),
    clear: () => {
      effects.length = 0;
    },
  };
  return h;
}

export type Harness = ReturnType<typeof harness>;
