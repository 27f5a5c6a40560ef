import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { validateConfig } from '../../src/config/load.js';
import { buildCommandParts } from '../../src/path/command-parts.js';
import { coreDriver, coreParts } from '../command/harness.js';
import type { Store } from '../../src/store/store.js';

/**
 * The command side exactly as the daemon builds it (buildCommandParts: router, targets, the intent
 * pass when on, Home Assistant's agent) on a virtual clock. Calls to Home Assistant (and Ollama)
 * are real HTTP to the doubles, so `settle()` waits real time for them.
 */
export function haHarness(opts: { url: string; token?: string; config?: Record<string, unknown>; store?: Store }) {
  const parts = coreParts();
  const { clock, log } = parts;
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
  const commands = buildCommandParts({
    config: cfg,
    secrets: opts.token === undefined ? {} : { haToken: opts.token },
    clock,
    log,
    bus: new Bus(),
    store: opts.store ?? null,
    onEffect: parts.onEffect,
  });
  // Each line a second after the last, as `hark simulate` reads them.
  const d = coreDriver({ ...parts, core: commands.core }, { step: 1000 });
  return {
    ...d,
    commands,
    clear: () => {
      d.clear();
      log.lines.length = 0;
    },
  };
}
