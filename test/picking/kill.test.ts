import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import BetterSqlite3 from 'better-sqlite3';
import { HARK_BIN } from '../support/paths.js';
import { assignment, pickOf, scratch, type Line } from './sim.js';
import { WmsDouble } from './wms-double.js';

/**
 * kill -9 mid-assignment: `hark simulate` as the device, a scripted picker answering what it hears,
 * the warehouse double on real HTTP. Each run is killed at a different moment (just after a line was
 * written: before, during or after the pick is kept and sent) and started again on the same ledger,
 * ten times over a 20-pick assignment. Bounded: 11 runs of at most 45 s each.
 */
const N = 20;
/** [line number, ms after writing it] at which each run is killed. Lines 1-2 sign on; then digits, quantity per pick. */
const KILLS: [number, number][] = [
  [3, 0],
  [4, 0],
  [4, 15],
  [5, 40],
  [3, 5],
  [4, 2],
  [6, 0],
  [5, 30],
  [4, 60],
  [2, 10],
];

let wms: WmsDouble;
beforeAll(async () => {
  wms = await new WmsDouble().start();
});
afterAll(async () => {
  await wms.close();
});

interface RunResult {
  lines: Line[];
  killed: boolean;
  firstPrompt: string | undefined;
}

/** One device run with a picker who answers each prompt; killed after line `kill[0]` if given. */
function run(dir: string, files: string[], kill: [number, number] | null): Promise<RunResult> {
  const args = [
    HARK_BIN,
    'simulate',
    '-c',
    join(dir, 'hark.yaml'),
    '--out-dir',
    join(dir, 'out'),
    '--drain-ms',
    '0',
    '--live-wms',
    '--wms-drain-ms',
    '5000',
    ...files.flatMap((f) => ['--assignment', f]),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: Line[] = [];
  let written = 0;
  let firstPrompt: string | undefined;
  let killed = false;
  const say = (text: string) => {
    // After the kill's line the picker says nothing more, so the kill lands at that line's moment
    // however fast the device runs through what follows (on an idle machine 60 ms was the rest of it).
    if (killed || (kill && written >= kill[0])) return;
    child.stdin!.write(text + '\n');
    written++;
    if (kill && written === kill[0]) {
      setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, kill[1]);
    }
  };
  // A run that stalls (a prompt the picker does not know) is ended, and the test says where it stood.
  const guard = setTimeout(() => child.kill('SIGKILL'), 45_000);
  return new Promise((resolve) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      const line = JSON.parse(l) as Line;
      lines.push(line);
      if (line.type === 'stack' && written === 0 && !firstPrompt) {
        // Signed off (the first run): nothing is said until the picker signs on.
        setTimeout(() => {
          if (!firstPrompt) say('sign on');
        }, 300);
      }
      if (line.type !== 'speak') return;
      const text = line.text as string;
      firstPrompt ??= text;
      if (text.includes('Assignment complete')) return child.stdin!.end();
      if (text.endsWith('Operator number?')) return say('one two');
      const loc = /Aisle (\d+), slot \d+\.$/.exec(text);
      if (loc) return say(pickOf(Number(loc[1])).check);
      const qty = /^Pick (\d+) cases?\.$/.exec(text);
      if (qty) return say(qty[1]!);
    });
    child.on('exit', () => {
      clearTimeout(guard);
      resolve({ lines, killed, firstPrompt });
    });
  });
}

function firstOpen(dbPath: string): number | null {
  const db = new BetterSqlite3(dbPath, { readonly: true });
  try {
    const row = db.prepare('SELECT pick_id FROM pick_lines WHERE picked IS NULL ORDER BY turn LIMIT 1').get() as { pick_id: string } | undefined;
    return row ? Number(row.pick_id.slice(1)) : null;
  } finally {
    db.close();
  }
}

describe('kill -9 at ten moments of a 20-pick assignment', () => {
  it('after each restart the picker resumes at the first unconfirmed pick, and the warehouse has each pick exactly once', async () => {
    const dir = scratch('kill');
    writeFileSync(join(dir, 'hark.yaml'), `picking:\n  enabled: true\n  wms:\n    url: ${wms.url}\n    holdMs: 0\n    retryFirstMs: 50\n    retryMaxMs: 200\n`);
    const file = join(dir, 'a20.json');
    writeFileSync(file, JSON.stringify(assignment('A20', N)));
    const dbPath = join(dir, 'out', 'picking.db');
    const resumedAt: [number | null, string | undefined][] = [];
    let open: number | null = null;
    for (const [i, k] of KILLS.entries()) {
      const r = await run(dir, i === 0 ? [file] : [], k);
      expect(r.killed, `run ${i + 1} was not killed at line ${k[0]}; its last lines: ${JSON.stringify(r.lines.slice(-4))}`).toBe(true);
      if (i > 0) resumedAt.push([open, r.firstPrompt]);
      open = firstOpen(dbPath);
    }
    // The last run, to the end of the assignment.
    const last = await run(dir, [], null);
    resumedAt.push([open, last.firstPrompt]);
    expect(last.lines.some((l) => l.type === 'speak' && String(l.text).startsWith('Assignment complete'))).toBe(true);
    expect(resumedAt).toHaveLength(KILLS.length);
    for (const [open, prompt] of resumedAt) expect(prompt).toBe(`Resuming the assignment. Aisle ${open}, slot ${10 + open!}.`);
    const ids = Array.from({ length: N }, (_, k) => `A20/P${k + 1}`);
    expect(wms.kept.map((d) => d.id)).toEqual(ids);
    expect(new Set(wms.deliveries.map((d) => d.id)).size).toBe(N);
    const db = new BetterSqlite3(dbPath, { readonly: true });
    const outbox = db.prepare('SELECT id, sent_at IS NOT NULL AS sent FROM pick_outbox ORDER BY seq').all();
    db.close();
    expect(outbox).toEqual(ids.map((id) => ({ id, sent: 1 })));
  }, 300_000);
});
