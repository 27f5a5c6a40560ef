import { bench, describe } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Bus } from '../../src/core/bus.js';
import { SystemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/log.js';
import { validateConfig } from '../../src/config/load.js';
import { Conversation } from '../../src/path/conversation.js';
import { Store } from '../../src/store/store.js';
import { PickingRuntime } from '../../src/picking/runtime.js';
import { SqliteLedger } from '../../src/picking/sqlite-ledger.js';
import { outputDir } from '../support/paths.js';
import { assignment, pickOf } from '../picking/sim.js';

/**
 * Voice picking, hark's own time: from a picker's transcribed reply handed to the command side to
 * hark's next prompt (the `speak` effect), recognition excluded. The command side as the device
 * builds it (Conversation, no voice), the picking frame on its router, the ledger in a real SQLite
 * store file (each confirmation one transaction). Each iteration is a scripted picker working a
 * 50-pick assignment through: sign on, then check digits and quantity for each pick (102 replies).
 */
function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const dir = outputDir('bench-picking');
rmSync(dir, { recursive: true, force: true });
const config = validateConfig({ picking: { enabled: true }, intent: { enabled: false }, store: { path: join(dir, 'hark.db') } }, 'bench');
const log = createLogger({ level: 'error' });
const clock = new SystemClock();
const bus = new Bus();
const store = new Store({ path: config.store.path, housekeeping: null });
const conversation = new Conversation({ config, bus, clock, log, store, speech: null });
let spokeAt = 0;
conversation.listen((e) => {
  if (e.type === 'speak') spokeAt = performance.now();
});
const ledger = new SqliteLedger(store.db, 'bench');
const runtime = new PickingRuntime({ config: config.picking, router: conversation.core.router, ledger, clock, log });
const replyMs: number[] = [];
/** The same, apart: a check-digit reply (nothing written) and a quantity reply (the pick kept: one fsync'd transaction). */
const digitsMs: number[] = [];
const quantityMs: number[] = [];
const perPickMs: number[] = [];
let run = 0;
let n = 0;

async function reply(text: string, into?: number[]): Promise<void> {
  const t0 = performance.now();
  spokeAt = 0;
  await conversation.dispatch({ id: `b${n++}`, text, rawText: text, engine: 'text', atMs: clock.now() });
  if (!spokeAt) throw new Error(`no prompt after "${text}" (step ${runtime.dialogue.stepName})`);
  replyMs.push(spokeAt - t0);
  into?.push(spokeAt - t0);
}

function report(): void {
  const lines = [
    `reply -> next prompt (dispatch to speak effect, recognition excluded): p50 ${pct(replyMs, 50).toFixed(3)} ms, p95 ${pct(replyMs, 95).toFixed(3)} ms, max ${Math.max(...replyMs).toFixed(3)} ms, n=${replyMs.length}`,
    `  check digits read (nothing kept): p50 ${pct(digitsMs, 50).toFixed(3)} ms, max ${Math.max(...digitsMs).toFixed(3)} ms; quantity (the pick kept, synchronous=FULL): p50 ${pct(quantityMs, 50).toFixed(3)} ms, p95 ${pct(quantityMs, 95).toFixed(3)} ms, max ${Math.max(...quantityMs).toFixed(3)} ms`,
    `a 50-pick assignment, hark's own time per pick (digits + quantity): p50 ${pct(perPickMs, 50).toFixed(3)} ms, max ${Math.max(...perPickMs).toFixed(3)} ms, n=${perPickMs.length}`,
  ];
  writeFileSync(join(outputDir('bench-results'), 'picking.txt'), lines.join('\n') + '\n');
}

describe("voice picking, hark's own time", () => {
  bench(
    'a scripted picker works a 50-pick assignment (sign on + 100 replies)',
    async () => {
      const id = `B${++run}`;
      runtime.offer(assignment(id, 50));
      if (runtime.dialogue.stepName === 'signed-off') {
        await reply('sign on');
        await reply('one two');
      }
      for (let i = 1; i <= 50; i++) {
        const t = performance.now();
        await reply(pickOf(i).check, digitsMs);
        await reply(String(pickOf(i).quantity), quantityMs);
        perPickMs.push(performance.now() - t);
      }
      if (runtime.dialogue.stepName !== 'idle') throw new Error(`assignment ${id} not finished: ${runtime.dialogue.stepName}`);
      report();
    },
    { iterations: 20, warmupIterations: 2 },
  );
});
