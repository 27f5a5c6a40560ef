import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { VirtualClock } from '../../src/core/clock.js';
import { memoryLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { buildCommands } from '../../src/path/build-commands.js';
import type { Effect, TimedEffect } from '../../src/core/effects.js';
import type { Store } from '../../src/store/store.js';

/**
 * The command side exactly as the daemon builds it (buildCommands: router, targets, the intent
 * pass when on, Home Assistant's agent) on a virtual clock. Calls to Home Assistant (and Ollama)
 * are real HTTP to the doubles, so `settle()` waits real time for them.
 */
export function haHarness(opts: { url: string; token?: string; config?: Record<string, unknown>; store?: Store }) {
  const clock = new VirtualClock(0);
  const effects: TimedEffect[] = [];
  const log = memoryLogger();
  const raw = opts.config ?? {};
  const ha = (raw.ha as { conversation?: object } | undefined)?.conversation ?? {};
  const cfg = validateConfig(
    {
      intent: { enabled: false },
      ...raw,
      actions: { dataDir: mkdtempSync(join(tmpdir(), 'hark-ha-')), ...(raw.actions as object) },
      ha: { conversation: { url: opts.url, ...ha } },
    },
    'test config',
  );
  const commands = buildCommands({
    config: cfg,
    secrets: opts.token === undefined ? {} : { haToken: opts.token },
    clock,
    log,
    bus: new Bus(),
    store: opts.store ?? null,
    onEffect: (e) => effects.push({ ...e, atMs: clock.now() }),
  });
  const core = commands.core;
  let n = 0;
  const h = {
    clock,
    core,
    commands,
    effects,
    log,
    say(text: string, atMs?: number): string {
      clock.advanceTo(atMs ?? clock.now() + 1000);
      const id = `u${++n}`;
      core.dispatch({ id, text, rawText: text, engine: 'text', atMs: clock.now() });
      return id;
    },
    settle: () => core.idle(),
    async script(...lines: string[]): Promise<void> {
      for (const l of lines) {
        h.say(l);
        await h.settle();
      }
    },
    /** "computer <text>", then "go": one request in wake-word mode. */
    request: (text: string) => h.script(`computer ${text}`, 'go'),
    of<T extends Effect['type']>(type: T): Extract<TimedEffect, { type: T }>[] {
      return effects.filter((e) => e.type === type) as Extract<TimedEffect, { type: T }>[];
    },
    spoken: () => h.of('speak').map((e) => e.text),
    stack: () => core.router.stack,
    logs: () => log.lines.map((l) => JSON.parse(l) as Record<string, unknown> & { level: string; msg: string }),
    clear: () => {
      effects.length = 0;
      log.lines.length = 0;
    },
  };
  return h;
}

/** A 127.0.0.1 URL nothing listens on (bound then released): "Home Assistant is down". */
export async function closedUrl(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}
