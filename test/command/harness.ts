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

type MemoryLog = ReturnType<typeof memoryLogger>;

/** A clock, an effect log and a logger, as every command-side harness starts (the core's onEffect records into `effects`). */
export function coreParts() {
  const clock = new VirtualClock(0);
  const effects: TimedEffect[] = [];
  const log = memoryLogger();
  return { clock, effects, log, onEffect: (e: Effect) => void effects.push({ ...e, atMs: clock.now() }) };
}

/**
 * The one way tests drive a command core, whoever built it (this file's harness, the intent pass's,
 * Home Assistant's): say() an utterance, look at the effects that came out. `step`: how far say()
 * moves the clock when not given a time (none: it speaks now).
 */
export function coreDriver(parts: { clock: VirtualClock; core: CommandCore; effects: TimedEffect[]; log: MemoryLog }, opts: { step?: number } = {}) {
  const { clock, core, effects, log } = parts;
  let n = 0;
  const d = {
    clock,
    core,
    effects,
    log,
    /** Dispatch one utterance at atMs (advancing the clock first), else now or `step` later; its id. */
    say(text: string, atMs?: number): string {
      const at = atMs ?? (opts.step === undefined ? undefined : clock.now() + opts.step);
      if (at !== undefined) clock.advanceTo(at);
      const id = `u${++n}`;
      core.dispatch({ id, text, rawText: text, engine: 'text', atMs: clock.now() });
      return id;
    },
    /** Dispatch one utterance that speech-to-text named the language of (a pack code), now; its id. */
    sayIn(language: string, text: string): string {
      const id = `u${++n}`;
      core.dispatch({ id, text, rawText: text, engine: 'text', atMs: clock.now(), language });
      return id;
    },
    /** Say each in turn, one second apart. */
    sayAll(...texts: string[]): void {
      for (const t of texts) d.say(t, clock.now() + 1000);
    },
    /** Wait for the router, deliveries and model calls (real time for those that go over HTTP). */
    settle: () => core.idle(),
    /** Say each line, settling after each (what `hark simulate` does). */
    async script(...lines: string[]): Promise<void> {
      for (const l of lines) {
        d.say(l);
        await d.settle();
      }
    },
    /** "computer <text>", then "go": one request in wake-word mode. */
    request: (text: string) => d.script(`computer ${text}`, 'go'),
    /** A button tap, as the daemon hands it over: true when the top frame took it. */
    tap: (): boolean => core.router.button('tap'),
    stack: () => core.router.stack,
    /** Effects of one type since the start (or since the last clear). */
    of<T extends Effect['type']>(type: T): Extract<TimedEffect, { type: T }>[] {
      return effects.filter((e) => e.type === type) as Extract<TimedEffect, { type: T }>[];
    },
    spoken: () => d.of('speak').map((e) => e.text),
    actions: () => d.of('action').map((e) => ({ name: e.name, args: e.args })),
    ignored: () => d.of('ignored').map((e) => ({ frame: e.frame, text: e.text })),
    submits: () => d.of('submit').map((e) => ({ frame: e.frame, target: e.target, text: e.text })),
    /** Log records as objects. */
    logs: () => log.lines.map((l) => JSON.parse(l) as Record<string, unknown> & { level: string; msg: string }),
    clear: () => {
      effects.length = 0;
    },
  };
  return d;
}

/**
 * The whole command core on a virtual clock, with memory targets: say() an utterance, look at the
 * effects that came out. Never sleeps; time moves with clock.advanceTo/advanceBy.
 */
export function harness(opts: HarnessOptions = {}) {
  const parts = coreParts();
  const cfg = validateConfig(opts.config ?? {}, 'test config');
  const targets = new Map<string, MemoryTarget>();
  const core = new CommandCore({
    clock: parts.clock,
    router: cfg.router,
    actions: cfg.actions,
    language: cfg.language,
    log: parts.log,
    onEffect: parts.onEffect,
    ...(cfg.device.area ? { area: cfg.device.area } : {}),
    ...(opts.classifiers ? { classifiers: opts.classifiers } : {}),
    ...(opts.voices ? { voices: opts.voices } : {}),
    targets: () => {
      for (const name of Object.keys(cfg.actions.targets)) targets.set(name, new MemoryTarget(name));
      return targets;
    },
  });
  return { ...coreDriver({ ...parts, core }), targets };
}

export type Harness = ReturnType<typeof harness>;
